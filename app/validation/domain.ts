// CONTRACT STUB (replaced by the custom-domain work): the custom domain field of the branding
// form. Empty means "no custom domain" (null).
import { z } from 'zod'

export const INVALID_DOMAIN = 'Enter a domain such as cards.example.com'

export const customDomainField = z
  .string()
  .trim()
  .toLowerCase()
  .max(253, INVALID_DOMAIN)
  .optional()
  .transform((value) => (value ? value : null))
