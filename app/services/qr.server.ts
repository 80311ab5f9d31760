// QR codes (spec §9): error correction H, margin 1, width 300, black on white, optional
// logo in the centre at 20% of the width on a white square. Rendered once per content.
import { createHash } from 'node:crypto'
import { LRUCache } from 'lru-cache'
import QRCode from 'qrcode'
import sharp from './sharp.server'

const WIDTH = 300
const OPTIONS = {
  errorCorrectionLevel: 'H',
  margin: 1,
  width: WIDTH,
  color: { dark: '#000000', light: '#ffffff' },
} as const

const cache = new LRUCache<string, Buffer>({
  max: 500,
  maxSize: 64 * 1024 * 1024,
  sizeCalculation: (b) => b.length,
})

export function qrEtag(text: string, logoKey: string | null, format: 'png' | 'svg') {
  return `"${createHash('sha256')
    .update(`${format}\n${text}\n${logoKey ?? ''}`)
    .digest('base64url')
    .slice(0, 27)}"`
}

async function withLogo(qr: Buffer, logo: Buffer) {
  const square = Math.round(WIDTH * 0.2)
  const inner = square - 8
  const fitted = await sharp(logo)
    .resize(inner, inner, { fit: 'contain', background: '#ffffff' })
    .flatten({ background: '#ffffff' })
    .png()
    .toBuffer()
  const plate = await sharp({
    create: { width: square, height: square, channels: 3, background: '#ffffff' },
  })
    .composite([{ input: fitted, gravity: 'center' }])
    .png()
    .toBuffer()
  return sharp(qr)
    .composite([{ input: plate, gravity: 'center' }])
    .png()
    .toBuffer()
}

/** The PNG for `text`; `logo` (with a stable `logoKey`, e.g. its content hash) is optional. */
export async function renderQrPng(
  text: string,
  logo?: { key: string; bytes: () => Promise<Buffer | null> },
) {
  if (!text) throw new Error('QR generation needs text')
  const etag = qrEtag(text, logo?.key ?? null, 'png')
  const hit = cache.get(etag)
  if (hit) return { body: hit, etag }
  const qr = await QRCode.toBuffer(text, { ...OPTIONS, type: 'png' })
  const logoBytes = logo ? await logo.bytes() : null
  const body = logoBytes ? await withLogo(qr, logoBytes) : qr
  cache.set(etag, body)
  return { body, etag }
}

export async function renderQrSvg(text: string) {
  if (!text) throw new Error('QR generation needs text')
  const etag = qrEtag(text, null, 'svg')
  const hit = cache.get(etag)
  if (hit) return { body: hit, etag }
  const body = Buffer.from(await QRCode.toString(text, { ...OPTIONS, type: 'svg' }))
  cache.set(etag, body)
  return { body, etag }
}
