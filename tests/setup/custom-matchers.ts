// Assertions on what a loader or action answered, read as sentences (after Epic Stack's
// tests/setup/custom-matchers.ts): `expect(response).toHaveRedirect('/profile')` and
// `await expect(response).toSendToast('Saved')` instead of header and cookie parsing in each file.
import { expect } from 'vitest'
import { readToast, type Toast } from '#app/utils/toast.server'

type LocationExpectation = string | RegExp

const isRedirect = (status: number) => status >= 300 && status < 400

function asResponse(received: unknown, matcher: string): Response {
  if (!(received instanceof Response)) throw new Error(`${matcher} needs a Response`)
  return received
}

/** The flash cookie a response sets, as the browser would send it back (`toast=…`), or null. */
function toastCookieOf(response: Response) {
  const cookie = response.headers.getSetCookie().find((c) => c.trim().startsWith('toast='))
  return cookie === undefined ? null : (cookie.trim().split(';')[0] ?? '')
}

expect.extend({
  /**
   * A redirect to `location` (a string matches exactly, a RegExp by test), with `status`
   * (302 unless given: what Remix's redirect() sends). Without a location, any redirect; and
   * `.not.toHaveRedirect()` asserts neither a Location header nor a 3xx status.
   */
  toHaveRedirect(received: unknown, location?: LocationExpectation, status = 302) {
    const response = asResponse(received, 'toHaveRedirect')
    const actual = response.headers.get('Location')
    const said = `status ${response.status}, Location ${this.utils.printReceived(actual)}`
    if (location === undefined) {
      // Negated, any trace of a redirect fails; asserted, both must be there.
      const pass = this.isNot
        ? actual !== null || isRedirect(response.status)
        : actual !== null && response.status === status
      return {
        pass,
        message: () =>
          this.isNot
            ? `expected no redirect, got ${said}`
            : `expected a ${status} redirect, got ${said}`,
      }
    }
    const locationMatches =
      actual !== null &&
      (typeof location === 'string' ? actual === location : location.test(actual))
    return {
      pass: locationMatches && response.status === status,
      message: () =>
        `expected ${this.isNot ? 'no ' : 'a '}${status} redirect to ${this.utils.printExpected(
          location,
        )}, got ${said}`,
    }
  },

  /**
   * The response sets the signed toast cookie (app/utils/toast.server.ts) holding a toast: a
   * string is its exact title, an object a subset of its fields (asymmetric matchers allowed).
   * Without an argument, any valid toast; `.not.toSendToast()` asserts no toast cookie at all.
   */
  async toSendToast(received: unknown, expected?: string | Partial<Record<keyof Toast, unknown>>) {
    const response = asResponse(received, 'toSendToast')
    const cookie = toastCookieOf(response)
    const { toast } =
      cookie === null
        ? { toast: null }
        : await readToast(new Request('http://localhost/', { headers: { Cookie: cookie } }))
    const shown = this.utils.printReceived(toast ?? cookie)
    if (expected === undefined) {
      return {
        pass: this.isNot ? cookie !== null : toast !== null,
        message: () =>
          this.isNot ? `expected no toast cookie, got ${shown}` : 'expected a toast, got none',
      }
    }
    const wanted = typeof expected === 'string' ? { title: expected } : expected
    const pass =
      toast !== null &&
      this.equals(toast, wanted, [...this.customTesters, this.utils.subsetEquality])
    return {
      pass,
      message: () =>
        `expected ${this.isNot ? 'no ' : ''}toast ${this.utils.printExpected(wanted)}, got ${shown}`,
    }
  },
})

interface ResponseMatchers<R = unknown> {
  toHaveRedirect(location?: LocationExpectation, status?: number): R
  toSendToast(expected?: string | Partial<Record<keyof Toast, unknown>>): Promise<R>
}

declare module 'vitest' {
  // biome-ignore lint/suspicious/noExplicitAny: merging with vitest's own declaration, which says any
  interface Matchers<T = any> extends ResponseMatchers<T> {}
}
