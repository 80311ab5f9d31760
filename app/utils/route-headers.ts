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
export const TOKEN_PAGE_HEADERS = { 'Referrer-Policy': 'no-referrer', 'Cache-Control': 'no-store' }

export const tokenPageHeaders: HeadersFunction = () => TOKEN_PAGE_HEADERS
