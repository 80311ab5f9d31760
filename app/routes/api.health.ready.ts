import type { LoaderFunctionArgs } from '@remix-run/node'
import { pageCacheHeaders } from '#app/cache/page-cache.server'
import { describeDiskShortage, diskSpace } from '#app/storage/disk-space.server'
import { pingDatabase } from '#drizzle/db.server'

// A healthy answer is reused for a second: a load balancer polling every instance, or a burst
// of checks, costs one database round trip per second at most.
const HEALTHY_FOR_MS = 1_000

// Readiness (ADR 097): whether this process should be sent requests. 503 while the disk is short
// or the database does not answer, and, from the first moment of a shutdown, before the drain
// window, by server.ts itself (the loader never runs then): a load balancer stops routing here.
// /api/health-check (the Docker HEALTHCHECK, the home page's database warning) is the same
// loader; /api/health/live says only that the process answers. No tenant needed.
export async function loader({ context }: LoaderFunctionArgs) {
  // Before the disk is full, while writes are refused: a load balancer routes elsewhere.
  const disk = await diskSpace()
  if (disk?.short) {
    return Response.json(
      { error: describeDiskShortage(disk) },
      { status: 503, headers: { 'Cache-Control': 'no-store' } },
    )
  }
  try {
    await pingDatabase(3000)
    return Response.json(
      { status: 'ok' },
      {
        headers: {
          'Cache-Control': 'no-store',
          ...pageCacheHeaders(context, null, { ttlMs: HEALTHY_FOR_MS }),
        },
      },
    )
  } catch (error) {
    // The detail (host, port, role, a driver message) is for the operator's log, not for
    // whoever can reach this public URL.
    console.warn(`health check: database unavailable: ${causes(error)}`)
    return Response.json(
      { error: 'Database unavailable' },
      { status: 503, headers: { 'Cache-Control': 'no-store' } },
    )
  }
}

/** The error's message and those of its causes (drizzle wraps the driver's refusal). */
function causes(error: unknown): string {
  const messages: string[] = []
  for (let e = error, depth = 0; e && depth < 5; depth++) {
    messages.push(e instanceof Error ? e.message : String(e))
    e = e instanceof Error ? e.cause : undefined
  }
  return messages.join(' <- ')
}
