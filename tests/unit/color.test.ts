import { describe, expect, test } from 'vitest'
import {
  brandTextOnDark,
  brandTextOnWhite,
  contrastRatio,
  hexColorSchema,
  readableTextColor,
  relativeLuminance,
  safeHexColor,
} from '#app/validation/color'
import { looksLikeDanger } from '#app/validation/hex-color'

test('only #rrggbb colours are accepted', () => {
  expect(hexColorSchema.parse('#3B82F6')).toBe('#3b82f6')
  for (const bad of ['red;}body{', 'url(x)', '</style>', '#fff', '3b82f6', '#3b82f6;', '']) {
    expect(hexColorSchema.safeParse(bad).success).toBe(false)
  }
})

test('unsafe stored values fall back at render time', () => {
  expect(safeHexColor('red;}body{background:url(x)', '#000000')).toBe('#000000')
  expect(safeHexColor('#ABCDEF', '#000000')).toBe('#abcdef')
})

test('luminance and readable text', () => {
  expect(relativeLuminance('#ffffff')).toBeCloseTo(1)
  expect(relativeLuminance('#000000')).toBeCloseTo(0)
  expect(readableTextColor('#ffffff')).toBe('#000000')
  expect(readableTextColor('#1f2937')).toBe('#ffffff')
})

test('brand colour as text on white keeps its hue and reaches 4.5:1', () => {
  expect(contrastRatio('#ffffff', '#000000')).toBeCloseTo(21)
  // Dark enough already: unchanged (the e2e tenants' primaries).
  for (const brand of ['#4f46e5', '#e11d48', '#7c3aed']) expect(brandTextOnWhite(brand)).toBe(brand)
  // Light brand colours (amber, green, yellow, white) are darkened until they read.
  for (const brand of ['#f59e0b', '#22c55e', '#ffff00', '#ffffff']) {
    const text = brandTextOnWhite(brand)
    expect(text).not.toBe(brand)
    expect(contrastRatio(text, '#ffffff')).toBeGreaterThanOrEqual(4.5)
    expect(contrastRatio(text, '#ffffff')).toBeLessThan(5.5)
  }
})

test("brand colour as text on the dark theme's surfaces is lightened just enough to 4.5:1", () => {
  // Light enough already: kept as it is.
  expect(brandTextOnDark('#60a5fa')).toBe('#60a5fa')
  for (const brand of ['#4f46e5', '#000000', '#7c3aed', '#b91c1c', '#0f766e', '#3b82f6']) {
    const tint = brandTextOnDark(brand)
    expect(contrastRatio(tint, '#101828'), brand).toBeGreaterThanOrEqual(4.5)
    expect(contrastRatio(tint, '#030712'), brand).toBeGreaterThanOrEqual(4.5)
  }
  // The indigo of the platform: a lighter indigo, not white.
  const indigo = brandTextOnDark('#4f46e5')
  expect(indigo).not.toBe('#ffffff')
  expect(Number.parseInt(indigo.slice(5, 7), 16)).toBeGreaterThan(
    Number.parseInt(indigo.slice(1, 3), 16),
  )
})

describe('looksLikeDanger (issue 41 point 9)', () => {
  test.each([
    ['#e11d48', true], // rose-600, Alpha's and Acme's red
    ['#dc2626', true], // the danger red itself
    ['#be123c', true],
    ['#ef4444', true],
    ['#4f46e5', false], // indigo
    ['#7c3aed', false], // violet
    ['#0f766e', false], // teal
    ['#f59e0b', false], // amber
    ['#ea580c', false], // orange: 21° from red, told apart
    ['#fecaca', false], // a pale red reads as a tint, not a button
    ['#808080', false], // grey has no hue
  ])('%s → %s', (hex, expected) => {
    expect(looksLikeDanger(hex)).toBe(expected)
  })
})
