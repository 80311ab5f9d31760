// The custom domain field of the branding form. Empty means "no custom domain" (null).
import { z } from 'zod'

export const INVALID_DOMAIN = 'Enter a domain such as cards.example.com'

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/

/** A host name of at least two labels, no scheme, port, path or IP address. */
export function isDomainName(value: string): boolean {
  if (value.length > 253) return false
  const labels = value.split('.')
  if (labels.length < 2 || !labels.every((label) => LABEL.test(label))) return false
  // The last label of a real name is never all digits (that would be an IPv4 address).
  return !/^\d+$/.test(labels.at(-1) ?? '')
}

export const customDomainField = z
  .string()
  .trim()
  .toLowerCase()
  // People paste URLs: keep the host, drop a scheme and a trailing slash or dot.
  .transform((value) => value.replace(/^https?:\/\//, '').replace(/[/.]+$/, ''))
  .refine((value) => value === '' || isDomainName(value), INVALID_DOMAIN)
  .optional()
  .transform((value) => (value ? value : null))
