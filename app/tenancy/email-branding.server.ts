// A tenant's branding for its emails (out of services/emails/layout.server.ts, issue 40 point 1:
// a service imports no domain folder; the layout takes the branding, tenancy makes it).
import type { EmailBranding } from '#app/services/emails/layout.server'
import { tenantOrigin } from '#app/tenancy/origin.server'
import type { Tenant } from '#app/tenancy/tenant.server'

/** A tenant's emails: its name, colour and logo, and links on its own origin (from its record). */
export function tenantEmailBranding(tenant: Tenant): EmailBranding {
  return {
    name: tenant.name,
    primaryColor: tenant.primaryColor,
    logoUrl: tenant.logoUrl,
    origin: tenantOrigin(tenant),
    legal: tenant.legal,
  }
}
