// The virtual background's options (issue 29 point 4): the query of `/card/{ref}/background.png`.
// Shared by the route, which answers anything else with 400, and the screens that link to it.
import { z } from 'zod'

/** Full HD, and 720p for calls that upload less (Zoom and Teams take either). */
export const VIRTUAL_BACKGROUND_SIZES = {
  '1920x1080': { width: 1920, height: 1080 },
  '1280x720': { width: 1280, height: 720 },
} as const
export type VirtualBackgroundSize = keyof typeof VIRTUAL_BACKGROUND_SIZES

/**
 * classic: a band in the agency's colour along the bottom; panel: a column in it on the right;
 * minimal: the theme's colour with a thin bar of it. Asked for by name or by number (1 to 3).
 */
export const VIRTUAL_BACKGROUND_LAYOUTS = ['classic', 'panel', 'minimal'] as const
export type VirtualBackgroundLayout = (typeof VIRTUAL_BACKGROUND_LAYOUTS)[number]

export const VIRTUAL_BACKGROUND_THEMES = ['light', 'dark'] as const
export type VirtualBackgroundTheme = (typeof VIRTUAL_BACKGROUND_THEMES)[number]

const layoutByNumber = (value: unknown) =>
  typeof value === 'string' && /^[1-3]$/.test(value)
    ? VIRTUAL_BACKGROUND_LAYOUTS[Number(value) - 1]
    : value

export const VirtualBackgroundSchema = z.object({
  size: z
    .enum(
      Object.keys(VIRTUAL_BACKGROUND_SIZES) as [VirtualBackgroundSize, ...VirtualBackgroundSize[]],
      {
        error: 'Size must be 1920x1080 or 1280x720',
      },
    )
    .default('1920x1080'),
  layout: z
    .preprocess(
      layoutByNumber,
      z.enum(VIRTUAL_BACKGROUND_LAYOUTS, {
        error: 'Layout must be 1, 2 or 3 (classic, panel or minimal)',
      }),
    )
    .default('classic'),
  theme: z
    .enum(VIRTUAL_BACKGROUND_THEMES, { error: 'Theme must be light or dark' })
    .default('light'),
})
export type VirtualBackgroundOptions = z.output<typeof VirtualBackgroundSchema>

/** The address of a card's background with these options; the defaults are left out. */
export function virtualBackgroundPath(
  cardId: string,
  options: Partial<VirtualBackgroundOptions> = {},
) {
  const query = new URLSearchParams()
  if (options.size && options.size !== '1920x1080') query.set('size', options.size)
  if (options.layout && options.layout !== 'classic') query.set('layout', options.layout)
  if (options.theme && options.theme !== 'light') query.set('theme', options.theme)
  const search = query.toString()
  return `/card/${encodeURIComponent(cardId)}/background.png${search ? `?${search}` : ''}`
}
