import type { HeadersFunction } from '@remix-run/node'

const PASSED_THROUGH = ['Retry-After', 'Cache-Control', 'Referrer-Policy']

/**
 * For a route's `headers` export: a document response keeps what its action or loader said
 * (Remix drops those headers otherwise), so a 429 page carries its Retry-After.
 */
export const actionAndLoaderHeaders: HeadersFunction = ({ actionHeaders, loaderHeaders }) => {
  const headers = new Headers()
  for (const name of PASSED_THROUGH) {
    const value = actionHeaders.get(name) ?? loaderHeaders.get(name)
    if (value) headers.set(name, value)
  }
  return headers
}

/**
 * For a page whose URL carries a token (a reset or confirmation link): the token must not leak
 * to other sites through the Referer header, and the page is not stored.
 */
/**
 * For a sign-in page written in the visitor's language (ADR 105): the action's and loader's
 * headers, and `Vary: Accept-Language`, so a shared cache keeps one answer per language.
 */
export const translatedPageHeaders: HeadersFunction = (args) => {
  const headers = new Headers(actionAndLoaderHeaders(args))
  headers.set('Vary', 'Accept-Language')
  return headers
}

export const TOKEN_PAGE_HEADERS = { 'Referrer-Policy': 'no-referrer', 'Cache-Control': 'no-store' }

export const tokenPageHeaders: HeadersFunction = () => TOKEN_PAGE_HEADERS

/** A token page in the visitor's language (the reset link): both of the above. */
export const translatedTokenPageHeaders: HeadersFunction = () => ({
  ...TOKEN_PAGE_HEADERS,
  Vary: 'Accept-Language',
})

/**
 * For an image other sites show: a public card's QR code and the media of cards and agencies, in
 * email signatures, emails and the signature preview on the agency's other host (issue 41 point
 * 2). The app's default Cross-Origin-Resource-Policy is same-origin (server.ts), under which a
 * browser loading the image from another origin (webmail that does not proxy images, the
 * preview on the subdomain) refuses it.
 */
export const EMBEDDABLE_IMAGE_HEADERS = { 'Cross-Origin-Resource-Policy': 'cross-origin' }
