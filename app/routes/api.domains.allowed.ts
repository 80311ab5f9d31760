import type { LoaderFunctionArgs } from '@remix-run/node'
import { z } from 'zod'
import { isServedHost, mayAsk, parseAskedDomain } from '#app/domains/ask.server'
import { isRefusal } from '#app/utils/action-error'

// Caddy's on-demand TLS `ask` (deploy/Caddyfile): 200 lets it obtain a certificate for
// ?domain=, anything else refuses one. Only the proxy may ask (DOMAINS_ASK_ALLOWED_FROM).
// Never offered to the page cache, and no-store: a domain that stops being served must stop
// getting certificates at once, not when a cached yes expires.
const querySchema = z.object({
  domain: z
    .string({ error: 'domain is required' })
    .max(260, 'domain is too long')
    .transform((raw, ctx) => {
      const domain = parseAskedDomain(raw)
      if (!domain) {
        ctx.addIssue({ code: 'custom', message: 'domain must be a host name' })
        return z.NEVER
      }
      return domain
    }),
})

const answer = (status: number, text: string, headers: Record<string, string> = {}) =>
  new Response(`${text}\n`, {
    status,
    headers: {
      'Content-Type': 'text/plain; charset=utf-8',
      'Cache-Control': 'no-store',
      ...headers,
    },
  })

export async function loader({ request, context }: LoaderFunctionArgs) {
  if (!mayAsk(context.peerAddress, context.relayed === true)) return answer(403, 'Forbidden')
  const url = new URL(request.url)
  const parsed = querySchema.safeParse({ domain: url.searchParams.get('domain') ?? undefined })
  if (!parsed.success) return answer(400, parsed.error.issues[0]?.message ?? 'Bad request')
  try {
    const served = await isServedHost(parsed.data.domain, context.peerAddress ?? 'unknown')
    return served === 'allowed' ? answer(200, 'allowed') : answer(404, 'unknown domain')
  } catch (error) {
    if (!isRefusal(error, 'rate_limited')) throw error
    return answer(429, 'Too many requests', { 'Retry-After': String(error.retryAfterSeconds) })
  }
}
