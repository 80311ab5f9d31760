// Card backgrounds (spec §3): 8 colour presets, 6 gradient presets, or an uploaded image.
// Stored as a validated hex, a preset gradient id or a media row: never free CSS. The zod
// schema is in ./background-schema.ts, so the public card page renders a card without zod.
import { brandTextOnWhite, contrastRatio, isHexColor } from '#app/validation/hex-color'

export const COLOR_PRESETS = [
  { name: 'White', value: '#ffffff' },
  { name: 'Light Gray', value: '#f3f4f6' },
  { name: 'Primary', value: '#3b82f6' },
  { name: 'Orange Light', value: '#ffedd5' },
  { name: 'Green Light', value: '#dcfce7' },
  { name: 'Blue', value: '#1d4ed8' },
  { name: 'Purple', value: '#7c3aed' },
  { name: 'Dark', value: '#1f2937' },
] as const

export const GRADIENT_PRESETS = [
  {
    id: 'orange-sunset',
    name: 'Orange Sunset',
    css: 'linear-gradient(135deg, #f97316 0%, #db2777 100%)',
  },
  {
    id: 'blue-ocean',
    name: 'Blue Ocean',
    css: 'linear-gradient(135deg, #0ea5e9 0%, #1e3a8a 100%)',
  },
  {
    id: 'green-nature',
    name: 'Green Nature',
    css: 'linear-gradient(135deg, #22c55e 0%, #065f46 100%)',
  },
  {
    id: 'purple-mystic',
    name: 'Purple Mystic',
    css: 'linear-gradient(135deg, #a855f7 0%, #4c1d95 100%)',
  },
  {
    id: 'dark-elegance',
    name: 'Dark Elegance',
    css: 'linear-gradient(135deg, #374151 0%, #030712 100%)',
  },
  {
    id: 'yellow-sunshine',
    name: 'Yellow Sunshine',
    css: 'linear-gradient(135deg, #facc15 0%, #ea580c 100%)',
  },
] as const

export type GradientId = (typeof GRADIENT_PRESETS)[number]['id']

export type StoredBackground = {
  kind: 'color' | 'gradient' | 'image'
  value: string
  imageUrl: string | null
}

/** Spec: perceived luminance (0–1) of a #rrggbb colour. */
export function perceivedLuminance(hex: string) {
  const n = (i: number) => Number.parseInt(hex.slice(i, i + 2), 16)
  return (0.299 * n(1) + 0.587 * n(3) + 0.114 * n(5)) / 255
}

/** Spec §3: light text on gradients, images and colours with luminance below 0.6. */
export function usesLightText(background: StoredBackground) {
  if (background.kind !== 'color') return true
  return isHexColor(background.value) ? perceivedLuminance(background.value) < 0.6 : false
}

/**
 * A card colour taken from a brand (issue 30: a new card and the home's example start on the
 * tenant's primary colour): the colour itself when the card's text reads on it, else the same hue
 * darkened just enough for its white text to reach 4.5:1 (WCAG AA), as brand text on white is.
 */
export function readableCardColor(hex: string) {
  const color = hex.toLowerCase()
  if (!isHexColor(color)) return '#ffffff'
  const light = usesLightText({ kind: 'color', value: color, imageUrl: null })
  return light && contrastRatio('#ffffff', color) < 4.5 ? brandTextOnWhite(color) : color
}

/** CSS for a stored background; anything unrecognised falls back to white. */
export function backgroundCss(background: StoredBackground): {
  backgroundColor?: string
  backgroundImage?: string
} {
  if (background.kind === 'gradient') {
    const preset = GRADIENT_PRESETS.find((g) => g.id === background.value)
    return preset ? { backgroundImage: preset.css } : { backgroundColor: '#ffffff' }
  }
  if (background.kind === 'image' && background.imageUrl?.startsWith('/media/')) {
    return { backgroundImage: `url("${background.imageUrl}")` }
  }
  return { backgroundColor: isHexColor(background.value) ? background.value : '#ffffff' }
}

/**
 * A swatch's posted value (`color:#ffffff`, `gradient:blue-ocean`) as a background choice, or
 * null for anything else. The editor previews with it and the wizard's action saves with it;
 * the stored value is still checked by BackgroundSchema.
 */
export function parseSwatch(value: unknown) {
  if (typeof value !== 'string') return null
  const [kind, ...rest] = value.split(':')
  const body = rest.join(':')
  if (kind === 'color' || kind === 'gradient') return { kind, value: body } as const
  return null
}
