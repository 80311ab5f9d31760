import { expect, test } from 'vitest'
import {
  hexColorSchema,
  readableTextColor,
  relativeLuminance,
  safeHexColor,
} from '#app/validation/color'

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
