// What a card's background may be set to (spec §3), checked with zod on the server's forms.
import { z } from 'zod'
import { GRADIENT_PRESETS, type GradientId } from '#app/validation/backgrounds'
import { hexColorSchema } from '#app/validation/color'

const gradientIds = GRADIENT_PRESETS.map((g) => g.id) as [GradientId, ...GradientId[]]

export const BackgroundSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('color'), value: hexColorSchema }),
  z.object({ kind: z.literal('gradient'), value: z.enum(gradientIds) }),
  z.object({ kind: z.literal('image'), mediaId: z.uuid() }),
])
export type Background = z.infer<typeof BackgroundSchema>
