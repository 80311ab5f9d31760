import { z } from 'zod'

const HEX = /^#[0-9a-f]{6}$/i

/** A colour as stored: `#rrggbb`, nothing else (it ends up inside CSS). */
export const hexColorSchema = z
  .string()
  .trim()
  .regex(HEX, 'Please enter a colour such as #3b82f6')
  .transform((v) => v.toLowerCase())

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
