// The agency slug rule: the sub-domain an agency may take (moved out of app/tenancy/host.ts so
// validation imports nothing of the app, issue 40 point 1). Pure, no imports.

/** Sub-domains of the root that are never an agency. */
export const RESERVED_SUBDOMAINS = new Set([
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

const SLUG = /^(?!-)[a-z0-9-]{2,40}(?<!-)$/

/** Whether a slug may name an agency sub-domain. */
export function isValidAgencySlug(slug: string): boolean {
  return SLUG.test(slug) && !RESERVED_SUBDOMAINS.has(slug)
}
