// Images drawn from a tenant's branding (ADR 024): app icons for the web app manifest and
// apple-touch-icon, and a card's Open Graph image for link previews. Each is addressed by a hash
// of everything drawn on it, so it is rendered once per content and cached forever by browsers.
//
// Text is laid out by Pango (sharp's text input) rather than an SVG overlay: sharp.server.ts
// blocks every loader but the four upload formats, SVG included (librsvg parsing untrusted
// bytes is attack surface), and a global unblock for our own SVG would lift that for everyone.
// Pango takes a markup string, so text is escaped the same way SVG text would be.
import { createHash } from 'node:crypto'
import { LRUCache } from 'lru-cache'
import type { OverlayOptions } from 'sharp'
import { brandTextOnWhite, readableTextColor, safeHexColor } from '#app/validation/hex-color'
import sharp from './sharp.server'

/** Bumped when a design changes: every hash (and so every URL) changes with it. */
const DESIGN_VERSION = '1'
/** A generic family fontconfig resolves on any Linux machine (DejaVu Sans here). */
const FONT = 'sans-serif'

const rendered = new LRUCache<string, Buffer>({
  maxSize: 48 * 1024 * 1024,
  sizeCalculation: (bytes) => bytes.length,
})

/** A short hex digest of every input of a drawing. */
export function drawingHash(parts: readonly unknown[]): string {
  return createHash('sha256')
    .update(JSON.stringify([DESIGN_VERSION, ...parts]))
    .digest('hex')
    .slice(0, 20)
}

/** Pango markup is XML: the five characters that could open or close markup are escaped. */
export function escapeMarkup(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;')
}

/** Control characters (and lone surrogates) have no glyph and may upset Pango: dropped. */
export function printable(text: string, max: number) {
  const clean = [...text.replace(/[\p{Cc}\p{Cs}]/gu, ' ').trim()]
  return clean.length > max ? `${clean.slice(0, max - 1).join('')}…` : clean.join('')
}

/** Up to two initials of a name ("Acme Digital" → "AD"); "?" for a name without letters. */
export function initialsOf(name: string): string {
  const words = name.split(/\s+/).filter((word) => /[\p{L}\p{N}]/u.test(word))
  const letters = words
    .slice(0, 2)
    .map((word) => [...(word.match(/[\p{L}\p{N}]/u)?.[0] ?? '')][0] ?? '')
    .join('')
  return letters.toUpperCase() || '?'
}

/** Renders in progress: crawlers fetch a freshly shared link's preview several at once. */
const rendering = new Map<string, Promise<Buffer>>()

export async function cached(key: string, render: () => Promise<Buffer>) {
  const hit = rendered.get(key)
  if (hit) return hit
  const running = rendering.get(key)
  if (running) return running
  const started = render()
    .then((bytes) => {
      rendered.set(key, bytes)
      return bytes
    })
    .finally(() => rendering.delete(key))
  rendering.set(key, started)
  return started
}

/** An anti-aliased disc of `colour`, as raw RGBA (SVG is not available to draw it). */
export function disc(size: number, colour: string) {
  const [r, g, b] = [1, 3, 5].map((at) => Number.parseInt(colour.slice(at, at + 2), 16))
  const pixels = Buffer.alloc(size * size * 4)
  const radius = size / 2
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const distance = Math.hypot(x + 0.5 - radius, y + 0.5 - radius)
      const alpha = Math.max(0, Math.min(1, radius - distance + 0.5))
      const at = (y * size + x) * 4
      pixels[at] = r ?? 0
      pixels[at + 1] = g ?? 0
      pixels[at + 2] = b ?? 0
      pixels[at + 3] = Math.round(alpha * 255)
    }
  }
  return sharp(pixels, { raw: { width: size, height: size, channels: 4 } })
    .png()
    .toBuffer()
}

/**
 * Text in the largest of `points` (tried in order) that fits `maxWidth`×`maxHeight`, wrapped at
 * words when `wrap` is set; shrunk as an image if even the smallest does not fit.
 */
export async function textImage(
  text: string,
  options: {
    colour: string
    points: readonly number[]
    bold?: boolean
    wrap?: boolean
    maxWidth: number
    maxHeight: number
  },
) {
  const weight = options.bold ? ' font_weight="bold"' : ''
  let last: { data: Buffer; info: { width: number; height: number } } | undefined
  for (const points of options.points) {
    last = await sharp({
      text: {
        text: `<span foreground="${options.colour}"${weight}>${escapeMarkup(text)}</span>`,
        font: `${FONT} ${points}`,
        rgba: true,
        dpi: 72,
        ...(options.wrap ? { width: options.maxWidth, wrap: 'word-char' as const } : {}),
      },
    })
      .png()
      .toBuffer({ resolveWithObject: true })
    if (last.info.width <= options.maxWidth && last.info.height <= options.maxHeight) {
      return { bytes: last.data, width: last.info.width, height: last.info.height }
    }
  }
  if (!last) throw new Error('textImage needs at least one size')
  // Too long even at the smallest size: shrunk to fit, never cropped mid-glyph.
  const fitted = await sharp(last.data)
    .resize({ width: options.maxWidth, height: options.maxHeight, fit: 'inside' })
    .png()
    .toBuffer({ resolveWithObject: true })
  return { bytes: fitted.data, width: fitted.info.width, height: fitted.info.height }
}

export type IconVariant = 'any' | 'maskable'

export type IconBrand = {
  name: string
  primaryColor: string
  /** The brand logo's PNG bytes (stored by the branding pipeline), or null for initials. */
  logo: Buffer | null
}

/**
 * A square icon: the brand colour full bleed, and on it the logo on a white disc (a logo is
 * often drawn in the brand colour, which would vanish on its own colour) or, without a logo,
 * the name's initials. Maskable icons keep everything inside the central 80% circle that
 * launchers never crop (the W3C "safe zone"); 'any' icons use a little more of the square.
 */
export async function renderAppIcon(brand: IconBrand, size: number, variant: IconVariant) {
  const primary = safeHexColor(brand.primaryColor, '#3b82f6')
  const key = `icon\n${size}\n${variant}\n${drawingHash([brand.name, primary, brand.logo ? createHash('sha256').update(brand.logo).digest('hex') : null])}`
  return cached(key, async () => {
    const canvas = sharp({
      create: { width: size, height: size, channels: 4, background: primary },
    })
    const plateSize = Math.round(size * (variant === 'maskable' ? 0.8 : 0.88))
    if (brand.logo) {
      // The largest square inside the disc, less a margin.
      const inner = Math.floor((plateSize / Math.SQRT2) * 0.92)
      const logo = await sharp(brand.logo)
        .resize(inner, inner, { fit: 'contain', background: { r: 0, g: 0, b: 0, alpha: 0 } })
        .png()
        .toBuffer()
      return canvas
        .composite([
          { input: await disc(plateSize, '#ffffff'), gravity: 'center' },
          { input: logo, gravity: 'center' },
        ])
        .png()
        .toBuffer()
    }
    const initials = initialsOf(brand.name)
    const text = await textImage(initials, {
      colour: readableTextColor(primary),
      points: [Math.round(size * (initials.length > 1 ? 0.34 : 0.44))],
      bold: true,
      maxWidth: Math.floor(plateSize / Math.SQRT2),
      maxHeight: Math.floor(plateSize / Math.SQRT2),
    })
    return canvas
      .composite([{ input: text.bytes, gravity: 'center' }])
      .png()
      .toBuffer()
  })
}

export const OG_WIDTH = 1200
export const OG_HEIGHT = 630

export type OgCard = {
  name: string
  /** What the card holder does: job title and company, as the page's description shows. */
  title: string
  /** The headline or bio (issue 28) on one line, or empty: drawn under the title, shortened. */
  bio: string
  /** The card's profile picture (JPEG bytes from the upload pipeline), or null. */
  photo: Buffer | null
  primaryColor: string
  secondaryColor: string
  /** The agency's logo (PNG), shown in a corner, or null. */
  logo: Buffer | null
}

/**
 * The card's link preview, 1200×630 (the size Facebook, LinkedIn and X crop least): the brand
 * colour with a band of the secondary colour, the photo in a white-ringed circle (or the
 * initials), the name, title and bio, and the agency's logo on a white plate. `key` is the content
 * hash the caller built its URL from: the same key is rendered once.
 */
export async function renderOgImage(key: string, card: OgCard) {
  return cached(`og\n${key}`, async () => {
    const primary = safeHexColor(card.primaryColor, '#3b82f6')
    const secondary = safeHexColor(card.secondaryColor, '#10b981')
    const ink = readableTextColor(primary)
    const band = 36
    const layers: OverlayOptions[] = [
      {
        input: await sharp({
          create: { width: OG_WIDTH, height: band, channels: 4, background: secondary },
        })
          .png()
          .toBuffer(),
        left: 0,
        top: OG_HEIGHT - band,
      },
    ]
    // The portrait: a 340 px circle in a 360 px white ring, centred in the left column.
    const ring = 360
    const photoSize = 340
    const ringTop = Math.round((OG_HEIGHT - band - ring) / 2)
    const ringLeft = 80
    layers.push({ input: await disc(ring, '#ffffff'), left: ringLeft, top: ringTop })
    const portraitOffset = (ring - photoSize) / 2
    if (card.photo) {
      const square = await sharp(card.photo)
        .resize(photoSize, photoSize, { fit: 'cover' })
        .ensureAlpha()
        .png()
        .toBuffer()
      const round = await sharp(square)
        .composite([{ input: await disc(photoSize, '#000000'), blend: 'dest-in' }])
        .png()
        .toBuffer()
      layers.push({ input: round, left: ringLeft + portraitOffset, top: ringTop + portraitOffset })
    } else {
      const initials = await textImage(initialsOf(card.name), {
        // The brand colour, darkened as the app's text on white is until it reads.
        colour: brandTextOnWhite(primary),
        points: [130],
        bold: true,
        maxWidth: photoSize - 60,
        maxHeight: photoSize - 100,
      })
      layers.push({
        input: initials.bytes,
        left: ringLeft + Math.round((ring - initials.width) / 2),
        top: ringTop + Math.round((ring - initials.height) / 2),
      })
    }
    // The text column: the name (up to two lines), the title, then the bio.
    const textLeft = ringLeft + ring + 70
    const textWidth = OG_WIDTH - textLeft - 70
    const name = await textImage(printable(card.name, 80) || ' ', {
      colour: ink,
      points: [64, 54, 46, 38],
      bold: true,
      wrap: true,
      maxWidth: textWidth,
      maxHeight: 170,
    })
    const title = printable(card.title, 120)
    const titleImage = title
      ? await textImage(title, {
          colour: ink,
          points: [36, 30, 26],
          wrap: true,
          maxWidth: textWidth,
          maxHeight: 140,
        })
      : null
    // A preview is read at a glance: a long bio is cut with an ellipsis.
    const bio = printable(card.bio, 140)
    const bioImage = bio
      ? await textImage(bio, {
          colour: ink,
          points: [28, 24, 22],
          wrap: true,
          maxWidth: textWidth,
          maxHeight: 130,
        })
      : null
    const gap = 24
    const lines = [name, titleImage, bioImage].filter((line) => line !== null)
    const blockHeight = lines.reduce((sum, line) => sum + line.height, 0) + gap * (lines.length - 1)
    let top = Math.max(40, Math.round((OG_HEIGHT - band - blockHeight) / 2) - 30)
    for (const line of lines) {
      layers.push({ input: line.bytes, left: textLeft, top })
      top += line.height + gap
    }
    if (card.logo) {
      const plate = { width: 220, height: 88, padding: 12 }
      const logo = await sharp(card.logo)
        .resize(plate.width - 2 * plate.padding, plate.height - 2 * plate.padding, {
          fit: 'contain',
          background: { r: 255, g: 255, b: 255, alpha: 0 },
        })
        .png()
        .toBuffer()
      const plated = await sharp({
        create: { width: plate.width, height: plate.height, channels: 4, background: '#ffffff' },
      })
        .composite([{ input: logo, gravity: 'center' }])
        .png()
        .toBuffer()
      layers.push({
        input: plated,
        left: OG_WIDTH - plate.width - 40,
        top: OG_HEIGHT - band - plate.height - 32,
      })
    }
    return sharp({
      create: { width: OG_WIDTH, height: OG_HEIGHT, channels: 4, background: primary },
    })
      .composite(layers)
      .flatten({ background: primary })
      .png({ compressionLevel: 9 })
      .toBuffer()
  })
}
