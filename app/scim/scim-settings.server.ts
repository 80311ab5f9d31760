// The agency's SCIM settings besides its tokens (ADR 089): the role the directory's new people
// get, kept in the organization's preferences.
import type { Actor } from '#app/auth/guards.server'
import { recordOrganizationAudit } from '#app/models/audit.server'
import {
  getOrganizationPreferences,
  saveOrganizationPreferences,
} from '#app/models/organization-settings.server'
import { readScimRole, type ScimRole } from '#app/validation/scim'
import type { Transaction } from '#drizzle/db.server'
import { withTenant } from '#drizzle/db.server'

export async function readScimDefaultRole(tx: Transaction, organizationId: string) {
  return readScimRole((await getOrganizationPreferences(tx, organizationId)).scimDefaultRole)
}

export async function setScimDefaultRole(admin: Actor, role: ScimRole) {
  await withTenant(admin.tenant.id, async (tx) => {
    await saveOrganizationPreferences(tx, admin.tenant.id, { scimDefaultRole: role })
    await recordOrganizationAudit(tx, admin.tenant.id, admin.user.id, 'scim.default_role_set', {
      role,
    })
  })
  return 'Saved: new people from your directory get this role'
}
