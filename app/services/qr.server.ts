// QR codes (spec §9): error correction H, margin 1, width 300, black on white, optional
// logo in the centre at 20% of the width on a white square. Rendered once per content. The
// download for print (issue 41 point 13) is the same code at 1200 px, or as SVG, in the agency's
// colour with the card's logo.
import { hash } from 'node:crypto'
import { LRUCache } from 'lru-cache'
import QRCode from 'qrcode'
import sharp from './sharp.server'

/** How a QR code is drawn: its width in pixels (PNG) and the colour of its dark modules. */
export type QrStyle = { width: number; dark: string }

/** The screen's and the card's QR code, as the spec draws it. */
export const SCREEN_QR: QrStyle = { width: 300, dark: '#000000' }

/**
 * The download for print: 1200 px is 4 inches at 300 dpi, sharp on a poster's corner or a badge.
 * Its dark modules take the agency's colour (as darkened for text on white, so a scanner still
 * reads them against the white, 4.5:1 at least).
 */
export const PRINT_QR_WIDTH = 1200

const optionsFor = (style: QrStyle) =>
  ({
    errorCorrectionLevel: 'H',
    margin: 1,
    width: style.width,
    color: { dark: style.dark, light: '#ffffff' },
  }) as const

/**
 * The logo's share of the code's width. Error correction H restores 30 % of the code; a square
 * at 20 % of the width covers 4 % of its area, well inside it.
 */
const LOGO_SHARE = 0.2

const cache = new LRUCache<string, Buffer>({
  max: 500,
  maxSize: 64 * 1024 * 1024,
  sizeCalculation: (b) => b.length,
})

export function qrEtag(
  text: string,
  logoKey: string | null,
  format: 'png' | 'svg',
  style: QrStyle = SCREEN_QR,
) {
  const inputs = `${format}\n${text}\n${logoKey ?? ''}\n${style.width}\n${style.dark}`
  return `"${hash('sha256', inputs, 'base64url').slice(0, 27)}"`
}

/** The logo fitted into a white square `size` pixels wide, with a margin of its own. */
async function logoPlate(logo: Buffer, size: number) {
  const inner = size - Math.max(2, Math.round(size * 0.13))
  const fitted = await sharp(logo)
    .resize(inner, inner, { fit: 'contain', background: '#ffffff' })
    .flatten({ background: '#ffffff' })
    .png()
    .toBuffer()
  return sharp({
    create: { width: size, height: size, channels: 3, background: '#ffffff' },
  })
    .composite([{ input: fitted, gravity: 'center' }])
    .png()
    .toBuffer()
}

async function withLogo(qr: Buffer, logo: Buffer, width: number) {
  const plate = await logoPlate(logo, Math.round(width * LOGO_SHARE))
  return sharp(qr)
    .composite([{ input: plate, gravity: 'center' }])
    .png()
    .toBuffer()
}

type Logo = { key: string; bytes: () => Promise<Buffer | null> }

/** The PNG for `text`; `logo` (with a stable `logoKey`, e.g. its content hash) is optional. */
export async function renderQrPng(text: string, logo?: Logo, style: QrStyle = SCREEN_QR) {
  if (!text) throw new Error('QR generation needs text')
  const etag = qrEtag(text, logo?.key ?? null, 'png', style)
  const hit = cache.get(etag)
  if (hit) return { body: hit, etag }
  const qr = await QRCode.toBuffer(text, { ...optionsFor(style), type: 'png' })
  const logoBytes = logo ? await logo.bytes() : null
  const body = logoBytes ? await withLogo(qr, logoBytes, style.width) : qr
  cache.set(etag, body)
  return { body, etag }
}

/**
 * The SVG for `text`, scalable to any print size. With `logo`, the logo sits in the centre on a
 * white square as on the PNG, embedded as an image so the file stands alone.
 */
export async function renderQrSvg(text: string, style: QrStyle = SCREEN_QR, logo?: Logo) {
  if (!text) throw new Error('QR generation needs text')
  const etag = qrEtag(text, logo?.key ?? null, 'svg', style)
  const hit = cache.get(etag)
  if (hit) return { body: hit, etag }
  const svg = await QRCode.toString(text, { ...optionsFor(style), type: 'svg' })
  const logoBytes = logo ? await logo.bytes() : null
  const body = Buffer.from(logoBytes ? await svgWithLogo(svg, logoBytes) : svg)
  cache.set(etag, body)
  return { body, etag }
}

/** The logo's plate drawn over the code's centre, in the code's own units (its viewBox). */
async function svgWithLogo(svg: string, logo: Buffer) {
  const size = Number(/viewBox="0 0 (\d+) \d+"/.exec(svg)?.[1])
  if (!Number.isFinite(size) || size <= 0) return svg
  const side = size * LOGO_SHARE
  const at = (size - side) / 2
  const plate = (await logoPlate(logo, 240)).toString('base64')
  const image = `<image x="${at}" y="${at}" width="${side}" height="${side}" href="data:image/png;base64,${plate}"/>`
  return svg.replace(/<\/svg>\s*$/, `${image}</svg>`)
}
