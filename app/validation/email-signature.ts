// The email signature's options (issue 29 point 3): the query of `/card/{ref}/signature.html` and
// `.txt`. Shared by the routes, which answer anything else with 400, and the builder that links to
// them.
import { z } from 'zod'

/**
 * classic: the photo on the left of the details; compact: no image, two short lines; banner: the
 * logo above a rule of the agency's colour, the details below.
 */
export const SIGNATURE_LAYOUTS = ['classic', 'compact', 'banner'] as const
export type SignatureLayout = (typeof SIGNATURE_LAYOUTS)[number]

export const SIGNATURE_LAYOUT_LABELS: Record<SignatureLayout, string> = {
  classic: 'Classic',
  compact: 'Compact',
  banner: 'Banner',
}

export const SignatureOptionsSchema = z.object({
  layout: z
    .enum(SIGNATURE_LAYOUTS, { error: 'Layout must be classic, compact or banner' })
    .default('classic'),
})
export type SignatureOptions = z.output<typeof SignatureOptionsSchema>

/** Gmail keeps a signature of up to 10,000 characters; the HTML stays under that. */
export const SIGNATURE_MAX_BYTES = 10 * 1024

/** The address of a card's signature in this layout (the default left out) and format. */
export function signaturePath(
  cardId: string,
  layout: SignatureLayout = 'classic',
  format: 'html' | 'txt' = 'html',
) {
  const query = layout === 'classic' ? '' : `?layout=${layout}`
  return `/card/${encodeURIComponent(cardId)}/signature.${format}${query}`
}
