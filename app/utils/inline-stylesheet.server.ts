import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

// The built server's code lives in build/server/assets/; the browser's files in build/client/.
const CLIENT_DIR = fileURLToPath(new URL('../../client/', import.meta.url))
const texts = new Map<string, string | null>()

/**
 * The text of a built stylesheet (`/assets/….css`), read once, for pages that carry it inline;
 * null when it is not there (the dev server, tests), and the page links it instead.
 */
export function builtStylesheetText(href: string): string | null {
  const known = texts.get(href)
  if (known !== undefined) return known
  let text: string | null = null
  if (/^\/assets\/[\w.-]+\.css$/.test(href)) {
    try {
      text = readFileSync(new URL(`.${href}`, `file://${CLIENT_DIR}`), 'utf8')
    } catch {
      text = null
    }
  }
  texts.set(href, text)
  return text
}
