// The agency slug, one home (issue 40 point 4): the label an agency is reached at
// (`{slug}.{root}`, roles-teams-admin.md §2.11), its length, the sub-domains it may never be,
// its message and the default made from the agency's name. The Agencies form, its action and
// the host lookup (app/tenancy/host.ts) all take it from here.
import { z } from 'zod'
import { slugWords } from './slug-words'

export const AGENCY_SLUG_MIN_LENGTH = 2
export const AGENCY_SLUG_MAX_LENGTH = 40

/** Sub-domains of the root that are never an agency. */
export const RESERVED_SUBDOMAINS: ReadonlySet<string> = new Set([
  'www',
  'api',
  'app',
  'admin',
  'mail',
  'smtp',
  'static',
  'assets',
  'media',
  'cdn',
  'status',
  'help',
  'support',
  'docs',
  'blog',
])

export const SLUG_INVALID = `Use ${AGENCY_SLUG_MIN_LENGTH} to ${AGENCY_SLUG_MAX_LENGTH} lower-case letters, digits or hyphens, not starting or ending with a hyphen`

const SLUG = new RegExp(
  `^(?!-)[a-z0-9-]{${AGENCY_SLUG_MIN_LENGTH},${AGENCY_SLUG_MAX_LENGTH}}(?<!-)$`,
)

/** Whether a slug may name an agency sub-domain. */
export function isValidAgencySlug(slug: string): boolean {
  return SLUG.test(slug) && !RESERVED_SUBDOMAINS.has(slug)
}

/** The address label an agency is reached at: from the name unless one is typed (§2.11). */
export const slugFromName = (name: string) => slugWords(name, AGENCY_SLUG_MAX_LENGTH)

/** The Agencies form's optional slug field (empty: made from the name by the action). */
export const agencySlugField = z
  .string()
  .trim()
  .toLowerCase()
  .max(AGENCY_SLUG_MAX_LENGTH, SLUG_INVALID)
  .refine((slug) => isValidAgencySlug(slug), SLUG_INVALID)
