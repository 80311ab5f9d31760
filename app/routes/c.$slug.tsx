// A card's short link, `/c/{slug}` (ADR 041): the public card page itself, not a redirect to
// it, so a scan costs one request and the page cache answers it like `/card/{id}`. A retired
// slug answers a 301 to the card's current one. The path matches in any case: QR codes carry
// the link in capitals (app/cards/short-link.ts).
import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node'
import { publicCardAction, publicCardLoader } from '#app/cards/public-card-route.server'

export {
  clientAction,
  default,
  ErrorBoundary,
  handle,
  headers,
  meta,
  shouldRevalidate,
} from './card.$ref'

export const loader = ({ request, context, params }: LoaderFunctionArgs) =>
  publicCardLoader(request, context, { slug: params.slug ?? '' })

export const action = ({ request, context, params }: ActionFunctionArgs) =>
  publicCardAction(request, context, { slug: params.slug ?? '' })
