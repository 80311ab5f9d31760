import { json } from '@remix-run/node'
import { pingDatabase } from '#drizzle/db.server'

// Used by the Docker HEALTHCHECK and the home page's database warning: no tenant needed.
export async function loader() {
  try {
    await pingDatabase(3000)
    return json({ status: 'ok' }, { headers: { 'Cache-Control': 'no-store' } })
  } catch (error) {
    const message = error instanceof Error ? error.message : 'Database unavailable'
    return json(
      { error: `Database unavailable: ${message}` },
      { status: 503, headers: { 'Cache-Control': 'no-store' } },
    )
  }
}
