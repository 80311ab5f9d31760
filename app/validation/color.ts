import { z } from 'zod'
import { HEX } from './hex-color'

export {
  brandTextOnDark,
  brandTextOnWhite,
  contrastRatio,
  isHexColor,
  readableTextColor,
  relativeLuminance,
  safeHexColor,
} from './hex-color'

/** A colour as stored: `#rrggbb`, nothing else (it ends up inside CSS). */
export const hexColorSchema = z
  .string()
  .trim()
  .regex(HEX, 'Please enter a colour such as #3b82f6')
  .transform((v) => v.toLowerCase())
