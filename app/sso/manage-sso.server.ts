// The agency admin's single sign-on settings (issue 42 point 1, ADR 088): identity providers
// added by discovery URL, client id and secret, the email domains claimed for them and proven by
// a DNS TXT record (the domains module's verifier), and "Require SSO" per domain. Every change
// is audited; the client secret is sealed before it is stored and never leaves the server again.
import { randomBytes } from 'node:crypto'
import type { Actor } from '#app/auth/guards.server'
import { DOMAIN_UNAVAILABLE } from '#app/domains/claims'
import {
  hasVerificationRecord,
  verificationRecord,
} from '#app/domains/custom-domain-verification.server'
import { DnsLookupError } from '#app/domains/dns.server'
import { getEnv } from '#app/env.server'
import { recordOrganizationAudit } from '#app/models/audit.server'
import {
  deleteSsoDomain,
  deleteSsoProvider,
  findSsoDomain,
  findSsoProvider,
  insertOidcProvider,
  insertSsoDomain,
  listSsoDomains,
  listSsoProviders,
  recordSsoDomainCheck,
  type SsoDomain,
  setSsoDomainEnforced,
  updateOidcProvider,
} from '#app/models/sso.server'
import { Refusal } from '#app/utils/action-error'
import { isUniqueViolation } from '#app/utils/db-errors.server'
import { openAtRest, sealAtRest } from '#app/utils/secret-box.server'
import { SSO_MESSAGES, type SsoSettingsForm } from '#app/validation/sso'
import { withTenant } from '#drizzle/db.server'
import { certificateExpiries } from './manage-saml.server'
import { discoverProvider, OidcDiscoveryError } from './oidc.server'
import { writeAuditedProvider } from './save-provider.server'

export type SsoDomainStatus = 'pending' | 'verified'

/** What the settings screen shows: no secret, only whether one is stored. */
export async function readSsoSettings(organizationId: string) {
  return withTenant(organizationId, async (tx) => {
    const providers = await listSsoProviders(tx, organizationId)
    const domains = await listSsoDomains(tx, organizationId)
    return {
      providers: providers.map((provider) => ({
        id: provider.id,
        kind: provider.kind,
        displayName: provider.displayName,
        issuerUrl: provider.issuerUrl ?? '',
        clientId: provider.clientId ?? '',
        hasSecret: Boolean(provider.clientSecretSealed),
        samlEntityId: provider.samlEntityId ?? '',
        samlSsoUrl: provider.samlSsoUrl ?? '',
        samlMetadataUrl: provider.samlMetadataUrl ?? '',
        samlCertificatesValidTo: certificateExpiries(provider.samlCertificates ?? []),
        jitRole: provider.jitRole,
        enabled: provider.enabled,
        updatedAt: provider.updatedAt.toISOString(),
      })),
      domains: domains.map(domainView),
    }
  })
}

function domainView(row: SsoDomain) {
  const record = verificationRecord(row.domain, row.token)
  return {
    id: row.id,
    providerId: row.providerId,
    domain: row.domain,
    status: (row.verifiedAt ? 'verified' : 'pending') satisfies SsoDomainStatus as SsoDomainStatus,
    enforced: row.enforced,
    txtName: record.name,
    txtValue: record.value,
    checkedAt: row.checkedAt?.toISOString() ?? null,
  }
}

type ProviderForm = Extract<SsoSettingsForm, { intent: 'add-provider' | 'edit-provider' }>

/**
 * Adds or changes an OIDC provider. Its discovery document is fetched now, with the secret the
 * form gave (or the stored one, when the field was left empty), so a wrong URL is said next to
 * its field instead of at someone's first sign-in.
 */
export async function saveOidcProvider(actor: Actor, value: ProviderForm): Promise<string> {
  const organizationId = actor.tenant.id
  const editing = value.intent === 'edit-provider' ? value.providerId : null
  const stored = editing
    ? await withTenant(organizationId, (tx) => findSsoProvider(tx, organizationId, editing))
    : undefined
  if (editing && !stored) throw new Refusal('not_found', SSO_MESSAGES.providerNotFound)
  const typedSecret = value.clientSecret?.trim() ?? ''
  const clientSecret =
    typedSecret || (stored?.clientSecretSealed ? openAtRest(stored.clientSecretSealed) : '')
  if (!clientSecret) {
    throw new Refusal('invalid', SSO_MESSAGES.clientSecretRequired, { field: 'clientSecret' })
  }
  try {
    await discoverProvider(
      { issuerUrl: value.issuerUrl, clientId: value.clientId, clientSecret },
      { fresh: true },
    )
  } catch (error) {
    if (!(error instanceof OidcDiscoveryError)) throw error
    const message = error.privateAddress
      ? SSO_MESSAGES.privateAddress
      : SSO_MESSAGES.discoveryFailed
    throw new Refusal('invalid', message, { field: 'issuerUrl' })
  }
  return writeAuditedProvider(actor, editing, value, {
    columns: {
      issuerUrl: value.issuerUrl,
      clientId: value.clientId,
      clientSecretSealed: typedSecret
        ? sealAtRest(typedSecret)
        : (stored?.clientSecretSealed as string),
    },
    store: { insert: insertOidcProvider, update: updateOidcProvider },
    details: (saved) => ({
      issuer: saved.issuerUrl,
      clientId: saved.clientId,
      secret: typedSecret ? 'replaced' : 'unchanged',
    }),
  })
}

export async function removeSsoProvider(actor: Actor, providerId: string): Promise<string> {
  const organizationId = actor.tenant.id
  await withTenant(organizationId, async (tx) => {
    const provider = await findSsoProvider(tx, organizationId, providerId)
    if (!provider || !(await deleteSsoProvider(tx, organizationId, providerId))) {
      throw new Refusal('not_found', SSO_MESSAGES.providerNotFound)
    }
    await recordOrganizationAudit(tx, organizationId, actor.user.id, 'sso.provider_removed', {
      providerId,
      name: provider.displayName,
    })
  })
  return 'Identity provider removed, with its domains'
}

/** Claims an email domain for one of the agency's providers; it is pending until verified. */
export async function claimSsoDomain(
  actor: Actor,
  providerId: string,
  domain: string,
): Promise<string> {
  const organizationId = actor.tenant.id
  const root = getEnv().ROOT_DOMAIN
  if (domain === root || domain.endsWith(`.${root}`)) {
    throw new Refusal('invalid', DOMAIN_UNAVAILABLE, { field: 'domain' })
  }
  await withTenant(organizationId, async (tx) => {
    if (!(await findSsoProvider(tx, organizationId, providerId))) {
      throw new Refusal('not_found', SSO_MESSAGES.providerNotFound)
    }
    const token = randomBytes(16).toString('hex')
    const claimed = await insertSsoDomain(tx, organizationId, { providerId, domain, token })
    if (!claimed) throw new Refusal('conflict', SSO_MESSAGES.domainClaimed, { field: 'domain' })
    await recordOrganizationAudit(tx, organizationId, actor.user.id, 'sso.domain_claimed', {
      domain,
      providerId,
    })
  })
  return `${domain} claimed: add its TXT record, then verify`
}

/**
 * Looks the domain's TXT record up and records what was found. A name another agency has
 * verified is refused without naming it (the unique index decides, as for custom domains); a
 * record that is gone turns a verified domain back to pending, and ends its enforcement.
 */
export async function verifySsoDomain(actor: Actor, domainId: string) {
  const organizationId = actor.tenant.id
  const row = await withTenant(organizationId, (tx) => findSsoDomain(tx, organizationId, domainId))
  if (!row) throw new Refusal('not_found', SSO_MESSAGES.domainNotFound)
  let found: boolean
  try {
    found = await hasVerificationRecord(row.domain, row.token)
  } catch (error) {
    if (error instanceof DnsLookupError)
      throw new Refusal('provider_failed', SSO_MESSAGES.dnsUnreachable)
    throw error
  }
  const now = new Date()
  const verifiedAt = found ? (row.verifiedAt ?? now) : null
  try {
    await withTenant(organizationId, async (tx) => {
      const saved = await recordSsoDomainCheck(tx, organizationId, {
        domainId,
        token: row.token,
        verifiedAt,
        checkedAt: now,
      })
      if (!saved) throw new Refusal('not_found', SSO_MESSAGES.domainNotFound)
      if (Boolean(row.verifiedAt) !== found) {
        await recordOrganizationAudit(
          tx,
          organizationId,
          actor.user.id,
          found ? 'sso.domain_verified' : 'sso.domain_unverified',
          { domain: row.domain },
        )
      }
    })
  } catch (error) {
    if (!isUniqueViolation(error)) throw error
    throw new Refusal('conflict', DOMAIN_UNAVAILABLE)
  }
  if (found) return { toast: `${row.domain} is verified` }
  return {
    toast: `The TXT record for ${row.domain} was not found yet`,
    description: 'DNS changes can take a while to show. Check the record and try again.',
    type: 'info' as const,
  }
}

export async function setSsoDomainEnforcement(actor: Actor, domainId: string, enforced: boolean) {
  const organizationId = actor.tenant.id
  return withTenant(organizationId, async (tx) => {
    const row = await findSsoDomain(tx, organizationId, domainId)
    if (!row) throw new Refusal('not_found', SSO_MESSAGES.domainNotFound)
    const saved = await setSsoDomainEnforced(tx, organizationId, domainId, enforced)
    if (!saved) throw new Refusal('conflict', SSO_MESSAGES.domainNotVerified)
    await recordOrganizationAudit(
      tx,
      organizationId,
      actor.user.id,
      enforced ? 'sso.domain_enforced' : 'sso.domain_not_enforced',
      { domain: row.domain },
    )
    return enforced
      ? `SSO is now required for ${row.domain}`
      : `Password sign-in is allowed again for ${row.domain}`
  })
}

export async function removeSsoDomain(actor: Actor, domainId: string): Promise<string> {
  const organizationId = actor.tenant.id
  return withTenant(organizationId, async (tx) => {
    const row = await findSsoDomain(tx, organizationId, domainId)
    if (!row || !(await deleteSsoDomain(tx, organizationId, domainId))) {
      throw new Refusal('not_found', SSO_MESSAGES.domainNotFound)
    }
    await recordOrganizationAudit(tx, organizationId, actor.user.id, 'sso.domain_removed', {
      domain: row.domain,
    })
    return `${row.domain} removed`
  })
}
