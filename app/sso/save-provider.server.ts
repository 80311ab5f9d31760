// Adding or changing an identity provider ends the same way for OIDC and SAML (ADR 088, ADR 090):
// the row is written in the agency's transaction, a provider gone meanwhile is refused as not
// found, and the change is audited beside it. The name, role and state come from the form alike;
// only the protocol's own columns and the audit's protocol details differ, so each passes those in.
import type { Actor } from '#app/auth/guards.server'
import { recordOrganizationAudit } from '#app/models/audit.server'
import type { SsoProvider } from '#app/models/sso.server'
import { Refusal } from '#app/utils/action-error'
import { SSO_MESSAGES } from '#app/validation/sso'
import { type Queryable, withTenant } from '#drizzle/db.server'

/** The protocol's model functions that add a provider row and change one. */
export type ProviderStore<Values> = {
  insert: (db: Queryable, organizationId: string, values: Values) => Promise<SsoProvider>
  update: (
    db: Queryable,
    organizationId: string,
    providerId: string,
    values: Values,
  ) => Promise<SsoProvider | undefined>
}

/** What the admin sets on a provider of either protocol. */
type ProviderChoices = Pick<SsoProvider, 'displayName' | 'jitRole' | 'enabled'>

/**
 * Writes the provider (`editing` is the id of the one changed, null for a new one) with the
 * form's name, role and state and the protocol's `columns`, and audits it with those plus
 * `details`; returns the message the settings screen shows.
 */
export async function writeAuditedProvider<Columns>(
  actor: Actor,
  editing: string | null,
  form: ProviderChoices,
  protocol: {
    columns: Columns
    store: ProviderStore<ProviderChoices & Columns>
    details: (saved: SsoProvider) => Record<string, unknown>
  },
): Promise<string> {
  const organizationId = actor.tenant.id
  const { columns, store, details } = protocol
  const values = {
    displayName: form.displayName,
    ...columns,
    jitRole: form.jitRole,
    enabled: form.enabled,
  }
  await withTenant(organizationId, async (tx) => {
    const saved = editing
      ? await store.update(tx, organizationId, editing, values)
      : await store.insert(tx, organizationId, values)
    if (!saved) throw new Refusal('not_found', SSO_MESSAGES.providerNotFound)
    await recordOrganizationAudit(
      tx,
      organizationId,
      actor.user.id,
      editing ? 'sso.provider_updated' : 'sso.provider_added',
      {
        providerId: saved.id,
        name: saved.displayName,
        ...details(saved),
        jitRole: saved.jitRole,
        enabled: saved.enabled,
      },
    )
  })
  return editing ? 'Identity provider saved' : 'Identity provider added'
}
