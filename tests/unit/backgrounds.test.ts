import { describe, expect, test } from 'vitest'
import {
  backgroundCss,
  perceivedLuminance,
  readableCardColor,
  usesLightText,
} from '#app/validation/backgrounds'
import { BackgroundSchema } from '#app/validation/card-background'
import { contrastRatio } from '#app/validation/hex-color'

describe('luminance rule', () => {
  test.each([
    ['#ffffff', false],
    ['#f3f4f6', false],
    ['#ffedd5', false],
    ['#1f2937', true],
    ['#7c3aed', true],
    ['#3b82f6', true],
    ['#000000', true],
  ])('colour %s → light text %s', (value, light) => {
    expect(usesLightText({ kind: 'color', value, imageUrl: null })).toBe(light)
  })
  test('gradients and images always get light text', () => {
    expect(usesLightText({ kind: 'gradient', value: 'blue-ocean', imageUrl: null })).toBe(true)
    expect(usesLightText({ kind: 'image', value: '', imageUrl: '/media/x.jpg' })).toBe(true)
  })
  test('threshold is 0.6', () => {
    expect(perceivedLuminance('#999999')).toBeCloseTo(0.6, 2)
  })
})

describe('background values', () => {
  test('accepts presets, hex and media ids only', () => {
    expect(BackgroundSchema.safeParse({ kind: 'color', value: '#AABBCC' }).success).toBe(true)
    expect(BackgroundSchema.safeParse({ kind: 'gradient', value: 'blue-ocean' }).success).toBe(true)
    expect(
      BackgroundSchema.safeParse({ kind: 'image', mediaId: '3f1c1f5e-3c1b-4c1e-9c1a-2b1c1d1e1f10' })
        .success,
    ).toBe(true)
    for (const bad of [
      { kind: 'color', value: 'red;}body{' },
      { kind: 'color', value: 'url(x)' },
      { kind: 'gradient', value: 'linear-gradient(red, blue)' },
      { kind: 'image', mediaId: 'url(javascript:alert(1))' },
      { kind: 'css', value: 'x' },
    ]) {
      expect(BackgroundSchema.safeParse(bad).success).toBe(false)
    }
  })
  test('unsafe stored values render as white', () => {
    expect(backgroundCss({ kind: 'color', value: '</style>', imageUrl: null })).toEqual({
      backgroundColor: '#ffffff',
    })
    expect(backgroundCss({ kind: 'image', value: '', imageUrl: 'javascript:x' })).toEqual({
      backgroundColor: '#ffffff',
    })
  })
})

test('a brand colour becomes a card colour its text reads on (issue 30)', () => {
  // Dark enough for white text already: kept as it is.
  expect(readableCardColor('#E11D48')).toBe('#e11d48')
  expect(readableCardColor('#0f766e')).toBe('#0f766e')
  // Light enough for dark text: kept too.
  expect(readableCardColor('#facc15')).toBe('#facc15')
  // White text on the platform's blue is 3.7:1: the same hue, darkened to 4.5:1.
  const blue = readableCardColor('#3b82f6')
  expect(blue).not.toBe('#3b82f6')
  expect(contrastRatio('#ffffff', blue)).toBeGreaterThanOrEqual(4.5)
  expect(readableCardColor('not a colour')).toBe('#ffffff')
})
