/**
 * A post-sign-in destination: a same-origin path, or null. Protocol-relative URLs
 * (`//evil.test`), backslashes (`/\evil.test`, which browsers read as `//`), schemes
 * (`javascript:`) and control characters are refused, and so is any path whose normalised form
 * is one of those: `/..//evil.test` and `/%2e%2e//evil.test` normalise to `//evil.test`.
 */
export function safeRedirectPath(value: unknown): string | null {
  if (typeof value !== 'string') return null
  const to = value.trim()
  if (!to.startsWith('/') || to.startsWith('//')) return null
  if (to.includes('\\')) return null
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (/[\u0000-\u001f\u007f]/.test(to)) return null
  if (to.length > 2000) return null
  try {
    // Resolving against a dummy origin must not leave it.
    const url = new URL(to, 'http://same.invalid')
    if (url.origin !== 'http://same.invalid') return null
    const path = `${url.pathname}${url.search}${url.hash}`
    // What is returned is judged again: the normalised path is what the Location header says.
    if (path.startsWith('//') || path.includes('\\')) return null
    return path
  } catch {
    return null
  }
}
