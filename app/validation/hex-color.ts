// Colour arithmetic without zod: the root layout writes the brand colours into a style sheet on
// every page, the public card page's included, whose JavaScript budget has no room for zod.
// The zod schema for a stored colour is in ./color.ts.
export const HEX = /^#[0-9a-f]{6}$/i

export function isHexColor(value: unknown): value is string {
  return typeof value === 'string' && HEX.test(value)
}

/** Re-checks a colour at render time so nothing unchecked is written into a style sheet. */
export function safeHexColor(value: unknown, fallback: string): string {
  return isHexColor(value) ? value.toLowerCase() : fallback
}

/** Relative luminance (WCAG) of a #rrggbb colour, 0 (black) to 1 (white). */
export function relativeLuminance(hex: string): number {
  const channel = (offset: number) => {
    const c = Number.parseInt(hex.slice(offset, offset + 2), 16) / 255
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
  }
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5)
}

/** Black or white, whichever reads better on the given background. */
export function readableTextColor(background: string): '#000000' | '#ffffff' {
  const l = relativeLuminance(background)
  // Contrast ratio against white vs. against black.
  return 1.05 / (l + 0.05) >= (l + 0.05) / 0.05 ? '#ffffff' : '#000000'
}

/** WCAG contrast ratio of two #rrggbb colours, 1 to 21. */
export function contrastRatio(a: string, b: string): number {
  const [light, dark] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x)
  return ((light ?? 0) + 0.05) / ((dark ?? 0) + 0.05)
}

/**
 * The brand colour as text on a white page: the colour itself when it reaches 4.5:1 (WCAG AA
 * for body text), else the same hue darkened just enough. A tenant may pick any colour.
 */
export function brandTextOnWhite(brand: string): string {
  const channels = [1, 3, 5].map((offset) => Number.parseInt(brand.slice(offset, offset + 2), 16))
  for (let keep = 1; keep > 0; keep -= 0.02) {
    const shade = `#${channels
      .map((c) =>
        Math.round(c * keep)
          .toString(16)
          .padStart(2, '0'),
      )
      .join('')}`
    if (contrastRatio(shade, '#ffffff') >= 4.5) return shade
  }
  return '#000000'
}

/** The dark theme's lightest surface that text sits on (Tailwind's gray-900). */
export const DARK_SURFACE = '#101828'

/**
 * The brand colour as text on the dark theme's surfaces: the colour itself when it reaches 4.5:1
 * on gray-900 (and so on gray-950), else the same hue mixed with white just enough.
 */
export function brandTextOnDark(brand: string): string {
  const channels = [1, 3, 5].map((offset) => Number.parseInt(brand.slice(offset, offset + 2), 16))
  for (let mix = 0; mix <= 1; mix += 0.02) {
    const tint = `#${channels
      .map((c) =>
        Math.round(c + (255 - c) * mix)
          .toString(16)
          .padStart(2, '0'),
      )
      .join('')}`
    if (contrastRatio(tint, DARK_SURFACE) >= 4.5) return tint
  }
  return '#ffffff'
}

/** The red of destructive actions (Tailwind's red-600), the same on every tenant. */
export const DANGER_RED = '#dc2626'

/**
 * Whether a brand colour would pass for the danger red: a saturated red, rose or red-orange
 * (hue within 20° of red either side, saturation at least 45 %, neither near black nor near
 * white). Such a tenant's destructive buttons are drawn as red outlines instead of red fills, so
 * "Delete" never looks like the brand's own "Save" (issue 41 point 9).
 */
export function looksLikeDanger(hex: string): boolean {
  const [r, g, b] = [1, 3, 5].map(
    (offset) => Number.parseInt(hex.slice(offset, offset + 2), 16) / 255,
  )
  const max = Math.max(r ?? 0, g ?? 0, b ?? 0)
  const min = Math.min(r ?? 0, g ?? 0, b ?? 0)
  const lightness = (max + min) / 2
  const chroma = max - min
  if (chroma === 0 || lightness < 0.2 || lightness > 0.8) return false
  const saturation = chroma / (1 - Math.abs(2 * lightness - 1))
  if (saturation < 0.45) return false
  let hue = 0
  if (max === r) hue = (((g ?? 0) - (b ?? 0)) / chroma) * 60
  else if (max === g) hue = (((b ?? 0) - (r ?? 0)) / chroma + 2) * 60
  else hue = (((r ?? 0) - (g ?? 0)) / chroma + 4) * 60
  if (hue < 0) hue += 360
  return hue <= 20 || hue >= 340
}
