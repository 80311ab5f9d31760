// The JavaScript and CSS a public card page makes the browser download, gzipped here the way the
// server's compression middleware would send them, summed per kind (issue 16 point 2).
import { assetLinks, gzipWeight, inlineStyles, type PageWeight } from './budgets'
import { request } from './http'

export async function measurePageWeight(port: number, host: string, html: string) {
  const assets = []
  for (const { kind, href } of assetLinks(html)) {
    const url = new URL(href, `http://${host}`)
    if (url.host !== host) throw new Error(`the card page loads ${href} from another host`)
    const answer = await request(port, { path: url.pathname + url.search, host })
    if (answer.status !== 200) throw new Error(`${href} answered ${answer.status}`)
    assets.push({ kind, body: answer.body })
  }
  for (const body of inlineStyles(html)) assets.push({ kind: 'css' as const, body })
  return gzipWeight(assets) satisfies PageWeight
}
