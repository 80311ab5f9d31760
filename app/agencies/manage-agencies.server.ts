// The super admin's Agencies screen (roles-teams-admin.md §2.11, §3, §4, §8; issue 14 point 1).
// Every change runs in one platform-scope transaction with its audit event (kept in the
// platform's own log, so it outlives a deleted agency), then drops the agency's cached hosts:
// an inactive or unapproved agency answers "site unavailable" from the next request on.

import { createUserWithPassword } from '#app/auth/accounts.server'
import { queueProviderRemovalIn } from '#app/domains/sending-domain-verification.server'
import { hashToken, newEmailLink, newLinkToken } from '#app/email/link-token.server'
import { queueEmail } from '#app/email/mailer.server'
import {
  type AgencyFields,
  type AgencyRow,
  deleteAgency,
  findAgency,
  insertAgency,
  listAgenciesForPlatform,
  setAgencyApproval,
  setAgencyStatus,
  updateAgency,
} from '#app/models/agencies.server'
import { recordAudit } from '#app/models/audit.server'
import { insertPasswordResetToken } from '#app/models/password-resets.server'
import { renderActionEmail } from '#app/services/emails/layout.server'
import { tenantOrigin } from '#app/tenancy/origin.server'
import { invalidateTenant, type Tenant } from '#app/tenancy/tenant.server'
import { Refusal } from '#app/utils/action-error'
import { isUniqueViolation } from '#app/utils/db-errors.server'
import type { AgencyIntent } from '#app/validation/agencies'
import { isValidAgencySlug, SLUG_INVALID, slugFromName } from '#app/validation/agency-slug'
import { splitName } from '#app/validation/text'
import { linkWorksOnce, SET_PASSWORD_LINK } from '#app/validation/token-lifetimes'
import { type PlatformScopeGrant, type Transaction, withPlatformScope } from '#drizzle/db.server'

export const SLUG_TAKEN = 'This web address is already taken'
export const AGENCY_NOT_FOUND = 'Agency not found'

export type Agency = Omit<AgencyRow, 'createdAt'> & { createdAt: string; host: string }

export async function loadAgencies(grant: PlatformScopeGrant, search: string): Promise<Agency[]> {
  const rows = await withPlatformScope(grant, 'agencies screen', (tx) =>
    listAgenciesForPlatform(tx, search),
  )
  return rows.map((row) => ({
    ...row,
    createdAt: row.createdAt.toISOString(),
    host: new URL(tenantOrigin({ kind: 'agency', slug: row.slug, customDomain: null })).host,
  }))
}

type Acting = { tenant: Tenant; userId: string; grant: PlatformScopeGrant }

function fieldsOf(
  value: Extract<AgencyIntent, { intent: 'create' | 'update' }>,
  slug: string,
  status: AgencyFields['status'] | 'pending',
) {
  return {
    name: value.name,
    slug,
    ownerName: value.ownerName,
    contactEmail: value.email.toLowerCase(),
    subscriptionTier: value.subscription,
    status: status as AgencyFields['status'],
  }
}

async function inScope<T>(acting: Acting, purpose: string, work: (tx: Transaction) => Promise<T>) {
  try {
    return await withPlatformScope(acting.grant, purpose, work)
  } catch (error) {
    if (isUniqueViolation(error)) throw new Refusal('conflict', SLUG_TAKEN, { field: 'slug' })
    throw error
  }
}

function audit(tx: Transaction, acting: Acting, action: string, agencyId: string, metadata = {}) {
  return recordAudit(tx, acting.tenant.id, {
    actorUserId: acting.userId,
    action,
    entityType: 'organization',
    entityId: agencyId,
    metadata,
  })
}

/**
 * Creates the agency and its owner (an agency_admin account with an unusable random password),
 * and emails the owner a single-use link to set their own password on the agency's host.
 */
export async function createAgency(
  acting: Acting,
  value: Extract<AgencyIntent, { intent: 'create' }>,
) {
  const slug = value.slug ?? slugFromName(value.name)
  if (!isValidAgencySlug(slug)) throw new Refusal('invalid', SLUG_INVALID, { field: 'slug' })
  const link = newEmailLink('password-reset')
  const created = await inScope(acting, 'create agency', async (tx) => {
    const agency = await insertAgency(
      tx,
      fieldsOf(value, slug, value.active ? 'active' : 'inactive'),
    )
    const owner = await createUserWithPassword(tx, agency.id, {
      email: value.email,
      password: newLinkToken(),
      role: 'agency_admin',
      ...splitName(value.ownerName),
    })
    await insertPasswordResetToken(
      tx,
      agency.id,
      owner.id,
      hashToken(link.token),
      // The owner's set-password link: long enough to be read, used once (ADR 012).
      SET_PASSWORD_LINK.ms,
    )
    await audit(tx, acting, 'agency.create', agency.id, {
      name: agency.name,
      slug: agency.slug,
      ownerUserId: owner.id,
      subscription: agency.subscriptionTier,
      status: agency.status,
    })
    return { agency, owner }
  })
  invalidateTenant(created.agency.id)
  await sendOwnerWelcome(created.agency, created.owner, link, acting)
  return { agencyId: created.agency.id, toast: 'Agency added' }
}

async function sendOwnerWelcome(
  agency: { id: string; name: string; slug: string; primaryColor: string },
  owner: { email: string; firstName: string },
  link: ReturnType<typeof newEmailLink>,
  acting: Acting,
) {
  const platform = acting.tenant
  const platformName = platform.name
  // The same proxy serves the platform and every agency host: the scheme and port the super
  // admin came by are the agency's too.
  const origin = tenantOrigin({
    kind: 'agency',
    slug: agency.slug,
    customDomain: null,
    via: platform.via,
  })
  const url = `${origin}/auth/reset-password?token=${link.token}`
  const { html, text } = renderActionEmail({
    branding: {
      name: agency.name,
      primaryColor: agency.primaryColor,
      logoUrl: null,
      origin,
      // A new agency has set no links of its own yet: the platform's, as on its host.
      legal: platform.legal,
    },
    heading: `Welcome to ${agency.name}`,
    paragraphs: [
      `Hi ${owner.firstName || 'there'},`,
      `${platformName} created the agency ${agency.name} with you as its owner. Set your password to sign in at ${origin}. ${linkWorksOnce(SET_PASSWORD_LINK)}`,
    ],
    action: { label: 'Set your password', url },
    footnote: 'If the link has expired, use "Forgot password" on the sign-in page.',
  })
  await queueEmail(
    agency.id,
    {
      to: owner.email,
      subject: `Set your password for ${agency.name}`,
      html,
      text,
      secrets: [link.secret],
    },
    agency.name,
    // Counted in the new agency: its limits start fresh, so only a flood could refuse it.
    { userId: acting.userId },
  )
}

async function requireAgency(tx: Transaction, agencyId: string) {
  const agency = await findAgency(tx, agencyId)
  if (!agency) throw new Refusal('not_found', AGENCY_NOT_FOUND)
  return agency
}

export async function editAgency(
  acting: Acting,
  value: Extract<AgencyIntent, { intent: 'update' }>,
) {
  await inScope(acting, 'update agency', async (tx) => {
    const before = await requireAgency(tx, value.agencyId)
    // Unticking Active leaves a pending agency pending; ticking it activates (spec §4).
    const status = value.active ? 'active' : before.status === 'pending' ? 'pending' : 'inactive'
    const after = await updateAgency(
      tx,
      before.id,
      fieldsOf(value, value.slug ?? before.slug, status),
    )
    if (!after) throw new Refusal('not_found', AGENCY_NOT_FOUND)
    const changed = Object.fromEntries(
      (['name', 'slug', 'ownerName', 'contactEmail', 'subscriptionTier', 'status'] as const)
        .filter((key) => before[key] !== after[key])
        .map((key) => [key, { from: before[key], to: after[key] }]),
    )
    await audit(tx, acting, 'agency.update', before.id, { changed })
  })
  invalidateTenant(value.agencyId)
  return { agencyId: value.agencyId, toast: 'Agency updated' }
}

export async function removeAgency(acting: Acting, agencyId: string) {
  await inScope(acting, 'delete agency', async (tx) => {
    const agency = await requireAgency(tx, agencyId)
    await queueProviderRemovalIn(tx, agency.id)
    await deleteAgency(tx, agency.id)
    await audit(tx, acting, 'agency.delete', agency.id, { name: agency.name, slug: agency.slug })
  })
  invalidateTenant(agencyId)
  return { agencyId: null, toast: 'Agency removed' }
}

const STATUS_CHANGES = {
  activate: { status: 'active', toast: 'Agency activated' },
  deactivate: { status: 'inactive', toast: 'Agency deactivated' },
} as const

export async function changeAgencyStatus(
  acting: Acting,
  agencyId: string,
  change: keyof typeof STATUS_CHANGES,
) {
  const { status, toast } = STATUS_CHANGES[change]
  await inScope(acting, `${change} agency`, async (tx) => {
    const before = await requireAgency(tx, agencyId)
    await setAgencyStatus(tx, before.id, status)
    await audit(tx, acting, `agency.${change}`, before.id, { from: before.status, to: status })
  })
  invalidateTenant(agencyId)
  return { agencyId, toast }
}

const APPROVALS = {
  approve: { approvalStatus: 'approved', toast: 'Agency approved' },
  reject: { approvalStatus: 'rejected', toast: 'Agency rejected' },
} as const

export async function changeAgencyApproval(
  acting: Acting,
  agencyId: string,
  change: keyof typeof APPROVALS,
) {
  const { approvalStatus, toast } = APPROVALS[change]
  await inScope(acting, `${change} agency`, async (tx) => {
    const before = await requireAgency(tx, agencyId)
    await setAgencyApproval(tx, before.id, approvalStatus)
    await audit(tx, acting, `agency.${change}`, before.id, {
      from: before.approvalStatus,
      to: approvalStatus,
    })
  })
  invalidateTenant(agencyId)
  return { agencyId, toast }
}
