/** Why a host has no site: shown on a plain page that names no tenant. */
export type TenantError = 'no-such-site' | 'site-unavailable'

export function isTenantErrorData(data: unknown): data is { tenantError: TenantError } {
  return typeof data === 'object' && data !== null && 'tenantError' in data
}
