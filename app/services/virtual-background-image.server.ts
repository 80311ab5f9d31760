// A card's virtual background for video calls (issue 29 point 4): the agency's colours, the
// holder's name, title and company, a logo, and a QR code of the card. Drawn as the link
// previews are (brand-images.server.ts: Pango text and raw shapes composed by sharp, no SVG), at
// 1920×1080 or 1280×720, and kept in the same in-memory cache under a hash of everything drawn.
//
// The middle of the picture stays empty: that is where the caller sits. Everything is laid out on
// a 1920-wide grid and scaled, so both sizes look the same.

import QRCode from 'qrcode'
import type { OverlayOptions } from 'sharp'
import { brandTextOnWhite, readableTextColor, safeHexColor } from '#app/validation/hex-color'
import type {
  VirtualBackgroundLayout,
  VirtualBackgroundTheme,
} from '#app/validation/virtual-background'
import { cached, printable, textImage } from './brand-images.server'
import sharp from './sharp.server'

export type VirtualBackground = {
  width: number
  height: number
  layout: VirtualBackgroundLayout
  theme: VirtualBackgroundTheme
  name: string
  jobTitle: string
  company: string
  primaryColor: string
  secondaryColor: string
  /** The card's logo, else the agency's (PNG, JPEG or WebP bytes), or null. */
  logo: Buffer | null
  /** What the QR code carries: the card's short link marked as the background's. */
  qrText: string
}

const THEMES = {
  light: { background: '#f8fafc', ink: '#0f172a', muted: '#475569' },
  dark: { background: '#0b1120', ink: '#f8fafc', muted: '#cbd5e1' },
} as const

const solid = (width: number, height: number, colour: string) =>
  sharp({ create: { width, height, channels: 4, background: colour } })
    .png()
    .toBuffer()

/** The QR code on a white square: black on white with its quiet zone, whatever the theme. */
async function qrPlate(text: string, size: number) {
  const code = await QRCode.toBuffer(text, {
    errorCorrectionLevel: 'M',
    margin: 2,
    width: size,
    color: { dark: '#000000', light: '#ffffff' },
  })
  // Nearest-neighbour: the modules stay sharp-edged at any size.
  return sharp(code).resize(size, size, { kernel: 'nearest' }).png().toBuffer()
}

/** The logo fitted into a white plate (a logo may be drawn in the very colour behind it). */
async function logoPlate(logo: Buffer, width: number, height: number, padding: number) {
  const fitted = await sharp(logo)
    .resize(width - 2 * padding, height - 2 * padding, {
      fit: 'contain',
      background: { r: 255, g: 255, b: 255, alpha: 0 },
    })
    .png()
    .toBuffer()
  return sharp({ create: { width, height, channels: 4, background: '#ffffff' } })
    .composite([{ input: fitted, gravity: 'center' }])
    .png()
    .toBuffer()
}

type Block = { bytes: Buffer; width: number; height: number }

/** The name, then the title and company lines, each fitted to `maxWidth`. */
async function textBlock(
  drawn: VirtualBackground,
  colours: { ink: string; muted: string },
  scale: number,
  maxWidth: number,
) {
  const px = (n: number) => Math.round(n * scale)
  const lines: Block[] = []
  const name = printable(drawn.name, 80)
  if (name) {
    lines.push(
      await textImage(name, {
        colour: colours.ink,
        points: [72, 60, 50, 42].map(px),
        bold: true,
        maxWidth,
        maxHeight: px(100),
      }),
    )
  }
  for (const text of [printable(drawn.jobTitle, 100), printable(drawn.company, 100)]) {
    if (!text) continue
    lines.push(
      await textImage(text, {
        colour: colours.muted,
        points: [38, 32, 28].map(px),
        maxWidth,
        maxHeight: px(56),
      }),
    )
  }
  return lines
}

/** Stacks lines from (left, top), each `gap` below the last; `align` within `width`. */
function stack(
  lines: Block[],
  left: number,
  top: number,
  gap: number,
  align: 'left' | 'center' = 'left',
  width = 0,
): { layers: OverlayOptions[]; height: number } {
  const layers: OverlayOptions[] = []
  let y = top
  for (const line of lines) {
    const x = align === 'center' ? left + Math.round((width - line.width) / 2) : left
    layers.push({ input: line.bytes, left: x, top: y })
    y += line.height + gap
  }
  return { layers, height: Math.max(0, y - top - gap) }
}

const blockHeight = (lines: Block[], gap: number) =>
  lines.reduce((sum, line) => sum + line.height, 0) + gap * Math.max(0, lines.length - 1)

async function classic(drawn: VirtualBackground, scale: number) {
  const { width, height } = drawn
  const px = (n: number) => Math.round(n * scale)
  const primary = safeHexColor(drawn.primaryColor, '#3b82f6')
  const secondary = safeHexColor(drawn.secondaryColor, '#10b981')
  const ink = readableTextColor(primary)
  const band = px(300)
  const stripe = px(14)
  const layers: OverlayOptions[] = [
    { input: await solid(width, stripe, secondary), left: 0, top: height - band - stripe },
    { input: await solid(width, band, primary), left: 0, top: height - band },
  ]
  const qrSize = px(320)
  const qrLeft = width - px(96) - qrSize
  layers.push({
    input: await qrPlate(drawn.qrText, qrSize),
    left: qrLeft,
    top: height - px(60) - qrSize,
  })
  const lines = await textBlock(drawn, { ink, muted: ink }, scale, qrLeft - px(96) - px(64))
  const gap = px(10)
  const top = height - band + Math.round((band - blockHeight(lines, gap)) / 2)
  layers.push(...stack(lines, px(96), top, gap).layers)
  if (drawn.logo) {
    layers.push({
      input: await logoPlate(drawn.logo, px(300), px(120), px(14)),
      left: px(72),
      top: px(64),
    })
  }
  return layers
}

async function panel(drawn: VirtualBackground, scale: number) {
  const { width, height } = drawn
  const px = (n: number) => Math.round(n * scale)
  const primary = safeHexColor(drawn.primaryColor, '#3b82f6')
  const secondary = safeHexColor(drawn.secondaryColor, '#10b981')
  const ink = readableTextColor(primary)
  const panelWidth = px(600)
  const panelLeft = width - panelWidth
  const layers: OverlayOptions[] = [
    { input: await solid(px(14), height, secondary), left: panelLeft - px(14), top: 0 },
    { input: await solid(panelWidth, height, primary), left: panelLeft, top: 0 },
  ]
  const inner = panelWidth - 2 * px(64)
  let y = px(96)
  if (drawn.logo) {
    const plate = { width: px(320), height: px(128) }
    layers.push({
      input: await logoPlate(drawn.logo, plate.width, plate.height, px(14)),
      left: panelLeft + Math.round((panelWidth - plate.width) / 2),
      top: y,
    })
    y += plate.height + px(72)
  } else {
    y += px(120)
  }
  const lines = await textBlock(drawn, { ink, muted: ink }, scale, inner)
  layers.push(...stack(lines, panelLeft + px(64), y, px(12), 'center', inner).layers)
  const qrSize = px(340)
  layers.push({
    input: await qrPlate(drawn.qrText, qrSize),
    left: panelLeft + Math.round((panelWidth - qrSize) / 2),
    top: height - px(96) - qrSize,
  })
  return layers
}

async function minimal(drawn: VirtualBackground, scale: number) {
  const { width, height } = drawn
  const px = (n: number) => Math.round(n * scale)
  const primary = safeHexColor(drawn.primaryColor, '#3b82f6')
  const theme = THEMES[drawn.theme]
  // The name in the brand's colour where it reads on the light theme; the theme's ink on dark.
  const nameColour = drawn.theme === 'light' ? brandTextOnWhite(primary) : theme.ink
  const layers: OverlayOptions[] = [{ input: await solid(width, px(18), primary), left: 0, top: 0 }]
  const lines = await textBlock(drawn, { ink: nameColour, muted: theme.muted }, scale, px(760))
  layers.push(...stack(lines, px(96), px(112), px(10)).layers)
  if (drawn.logo) {
    const plate = { width: px(280), height: px(112) }
    layers.push({
      input: await logoPlate(drawn.logo, plate.width, plate.height, px(12)),
      left: width - px(96) - plate.width,
      top: px(96),
    })
  }
  const qrSize = px(260)
  const qrTop = height - px(96) - qrSize
  layers.push({ input: await qrPlate(drawn.qrText, qrSize), left: px(96), top: qrTop })
  const caption = await textImage('Scan for my card', {
    colour: theme.muted,
    points: [px(28)],
    maxWidth: px(500),
    maxHeight: px(48),
  })
  layers.push({
    input: caption.bytes,
    left: px(96) + qrSize + px(32),
    top: qrTop + Math.round((qrSize - caption.height) / 2),
  })
  return layers
}

const LAYOUTS = { classic, panel, minimal }

/** The PNG for `drawn`, rendered once per `key` (the caller's hash of everything in `drawn`). */
export function renderVirtualBackground(key: string, drawn: VirtualBackground) {
  return cached(`background\n${key}`, async () => {
    const scale = drawn.width / 1920
    const theme = THEMES[drawn.theme]
    const layers = await LAYOUTS[drawn.layout](drawn, scale)
    return sharp({
      create: {
        width: drawn.width,
        height: drawn.height,
        channels: 4,
        background: theme.background,
      },
    })
      .composite(layers)
      .flatten({ background: theme.background })
      .png()
      .toBuffer()
  })
}
