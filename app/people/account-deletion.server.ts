// "Delete my account" (issue 31 point 4, ADR 053), for every account: the person asks with their
// password, the deletion is scheduled ACCOUNT_DELETION_GRACE_DAYS ahead (signed out everywhere,
// an email with the date), signing in before then cancels it (app/auth/sign-in-completion.server.ts,
// on every sign-in path), and then a queued job deletes the
// account. An agency account hands its company contacts to the successor the agency chose
// (handOverSeat, ADR 049) and leaves its public cards' addresses behind, so they forward as a
// deactivated person's do; the agency's admins are told. Refused where the deletion would leave
// the platform without a super admin or an agency without an admin.

import { checkCurrentPassword } from '#app/auth/accounts.server'
import type { SignedIn } from '#app/auth/guards.server'
import { getOwnerPrivacy } from '#app/cards/card-privacy.server'
import { isPublicCard } from '#app/cards/card-visibility'
import { queueEmailIn } from '#app/email/mailer.server'
import { getEnv } from '#app/env.server'
import { type JobHandler, tenantJobInput } from '#app/jobs/worker.server'
import {
  cancelAccountDeletion,
  deleteUnreferencedUploadsOf,
  findAccountDeletion,
  listAccountAddresses,
  listOverdueAccountDeletions,
  listPendingDeletionUserIds,
  recordDepartedAddresses,
  scheduleAccountDeletion,
} from '#app/models/account-deletions.server'
import { findAgency } from '#app/models/agencies.server'
import { recordAccountAudit, recordAudit } from '#app/models/audit.server'
import { insertJob } from '#app/models/jobs.server'
import { listOrganizationIds } from '#app/models/organizations.server'
import { deleteAccount, lockActiveAgencyAdmins, lockSuperAdmins } from '#app/models/people.server'
import { findSeatSuccessorCard } from '#app/models/seat-successors.server'
import { deleteUserSessions } from '#app/models/sessions.server'
import { findUserById, type User } from '#app/models/users.server'
import { handOverSeat } from '#app/people/seat-handover.server'
import {
  accountDeletedAdminEmail,
  deletionRequestedAdminEmail,
  deletionScheduledEmail,
} from '#app/services/emails/account-deletion-email.server'
import { tenantEmailBranding } from '#app/tenancy/email-branding.server'
import { freshTenantOf, type Tenant } from '#app/tenancy/tenant.server'
import { isRefusal, Refusal } from '#app/utils/action-error'
import {
  deletionDateFrom,
  LAST_AGENCY_ADMIN_DELETION,
  LAST_SUPER_ADMIN_DELETION,
  WRONG_PASSWORD,
} from '#app/validation/account-deletion'
import { emitContactsDeletedWithAccount } from '#app/webhooks/webhook-events.server'
import { type Transaction, withDatabase, withTenant } from '#drizzle/db.server'

const nameOf = (user: Pick<User, 'firstName' | 'lastName' | 'email'>) =>
  `${user.firstName} ${user.lastName}`.trim() || user.email

/**
 * Why this account may not go, or null: the platform keeps a super admin and an agency keeps an
 * active agency admin, counting neither the account nor anyone else whose deletion is pending
 * (two last admins asking together must not both go). The counted rows stay locked.
 */
/**
 * The one way an account is deleted, whoever asks (the person, or an admin): the contacts it
 * takes with it each send `contact.deleted` to the agency's webhooks; in an agency the
 * addresses of a card shown to anyone stay, forwarding to the successor (none: the agency's
 * default card) and held from every claim for the quarantine (ADR 058). Only a public card
 * leaves its addresses: a forwarding says no more about a card than the card did (ADR 049).
 */
export async function removeAccount(
  tx: Transaction,
  organizationId: string,
  userId: string,
  successorId: string | null,
) {
  if (await findAgency(tx, organizationId)) {
    const privacy = await getOwnerPrivacy(tx, organizationId, userId)
    if (isPublicCard(privacy.visibility)) {
      const addresses = await listAccountAddresses(tx, organizationId, userId)
      const heldUntil = new Date(
        Date.now() + getEnv().DEPARTED_LINK_QUARANTINE_DAYS * 24 * 60 * 60 * 1000,
      )
      await recordDepartedAddresses(tx, organizationId, addresses, successorId, heldUntil)
    }
  }
  // The contacts still the account's go with it by cascade: receivers hear of each, as of any
  // other deleted contact, before the rows (and what the events name) are gone.
  await emitContactsDeletedWithAccount(tx, organizationId, userId)
  await deleteAccount(tx, organizationId, userId)
}

async function refusalOf(tx: Transaction, account: User, organizationKind: 'platform' | 'agency') {
  const pending = new Set(await listPendingDeletionUserIds(tx, account.organizationId))
  const others = (ids: string[]) => ids.filter((id) => id !== account.id && !pending.has(id))
  if (account.role === 'super_admin') {
    if (others(await lockSuperAdmins(tx, account.organizationId)).length === 0) {
      return LAST_SUPER_ADMIN_DELETION
    }
  }
  if (account.role === 'agency_admin' && account.status === 'active') {
    if (organizationKind !== 'agency') return null
    if (others(await lockActiveAgencyAdmins(tx, account.organizationId)).length === 0) {
      return LAST_AGENCY_ADMIN_DELETION
    }
  }
  return null
}

/**
 * The person's own request: checks their password (limited as every current-password check is),
 * refuses what would orphan the platform or the agency, schedules the deletion with its job,
 * ends every session of the account (this one too), records it and emails the date. Returns
 * when the account will go.
 */
export async function requestAccountDeletion(
  { tenant, user }: Pick<SignedIn, 'tenant' | 'user'>,
  password: string,
  clientIp: string,
  now = new Date(),
) {
  try {
    if (!(await checkCurrentPassword(tenant, user, password, clientIp))) {
      throw new Refusal('invalid', WRONG_PASSWORD, { field: 'password' })
    }
  } catch (error) {
    if (!isRefusal(error, 'rate_limited')) throw error
    throw new Refusal('rate_limited', error.message, {
      field: 'password',
      retryAfterSeconds: error.retryAfterSeconds,
    })
  }
  const scheduledFor = deletionDateFrom(now)
  await withTenant(tenant.id, async (tx) => {
    const account = await findUserById(tx, tenant.id, user.id)
    if (!account) throw new Refusal('not_found', 'User not found')
    const refusal = await refusalOf(tx, account, tenant.kind)
    if (refusal) throw new Refusal('conflict', refusal)
    const deletion = await scheduleAccountDeletion(tx, tenant.id, account.id, scheduledFor)
    await insertJob(tx, {
      name: 'account.delete',
      organizationId: tenant.id,
      payload: { userId: account.id },
      // One job per request: a cancelled request's job finds no row and does nothing.
      idempotencyKey: `account.delete:${account.id}:${deletion.requestedAt.getTime()}`,
      runAt: scheduledFor,
    })
    await deleteUserSessions(tx, tenant.id, account.id)
    await recordAccountAudit(tx, tenant.id, account.id, 'account.deletion_scheduled', {
      scheduledFor: scheduledFor.toISOString(),
    })
    await queueEmailIn(
      tx,
      tenant.id,
      deletionScheduledEmail({
        branding: tenantEmailBranding(tenant),
        to: account.email,
        firstName: account.firstName,
        scheduledFor,
      }),
      tenant.name,
      { userId: account.id },
    )
    if (tenant.kind === 'agency') await warnAdmins(tx, tenant, account, scheduledFor)
  })
  return scheduledFor
}

/**
 * Deletes the account when its deletion is still pending and due: in one transaction, the
 * hand-over to the agency's chosen successor, the departed addresses, the account's rows (its
 * cards, slugs, contacts, sessions… by cascade) and the images it uploaded that nothing else
 * uses, and the agency admins' emails. Anything else (cancelled, moved later, already gone) is
 * nothing to do, so a run repeated after a crash changes nothing. True when the account went.
 */
export async function deleteAccountWhenDue(
  organizationId: string,
  userId: string,
  {
    now = new Date(),
    tenant,
  }: {
    now?: Date
    /** The agency as its emails show it (read before the transaction); none: no emails. */
    tenant?: Tenant
  } = {},
) {
  return withTenant(organizationId, async (tx) => {
    const pending = await findAccountDeletion(tx, organizationId, userId)
    if (!pending || pending.scheduledFor.getTime() > now.getTime()) return false
    const account = await findUserById(tx, organizationId, userId)
    if (!account) return false
    const agency = await findAgency(tx, organizationId)
    // The rules are asked again: someone else may have stopped being an admin meanwhile.
    const refusal = await refusalOf(tx, account, agency ? 'agency' : 'platform')
    if (refusal) {
      await cancelAccountDeletion(tx, organizationId, userId)
      await recordAudit(tx, organizationId, {
        actorUserId: null,
        action: 'account.deletion_refused',
        entityType: 'user',
        entityId: userId,
        metadata: { reason: refusal },
      })
      return false
    }
    let successor: User | null = null
    let contactsMoved = 0
    let heir: string | null = null
    if (agency) {
      const seat = await findSeatSuccessorCard(tx, organizationId, userId)
      heir = seat?.successorId ?? null
      if (seat?.successorStatus === 'active') {
        const handed = await handOverSeat(tx, {
          organizationId,
          userId,
          successorId: seat.successorId,
          actorUserId: userId,
        })
        successor = handed.successor
        contactsMoved = handed.contactsMoved
      }
    }
    await removeAccount(tx, organizationId, userId, heir)
    const imagesDeleted = await deleteUnreferencedUploadsOf(tx, organizationId, userId)
    await recordAudit(tx, organizationId, {
      actorUserId: null,
      action: 'account.deleted',
      entityType: 'user',
      entityId: userId,
      metadata: {
        role: account.role,
        requestedAt: pending.requestedAt.toISOString(),
        imagesDeleted,
        ...(successor ? { successorId: successor.id, contactsMoved } : {}),
      },
    })
    if (agency && tenant) {
      await tellAdmins(tx, tenant, {
        person: nameOf(account),
        successor,
        contactsMoved,
        key: `${userId}:${pending.requestedAt.getTime()}`,
      })
    }
    return true
  })
}

/**
 * The agency's active admins hear that the account went, in the deletion's transaction (both
 * or neither). Not limited when sent: the person's request was (their password check), and a
 * refusal here would hold the deletion back.
 */
async function tellAdmins(
  tx: Transaction,
  tenant: Tenant,
  departure: { person: string; successor: User | null; contactsMoved: number; key: string },
) {
  const branding = tenantEmailBranding(tenant)
  for (const id of await lockActiveAgencyAdmins(tx, tenant.id)) {
    const admin = await findUserById(tx, tenant.id, id)
    if (!admin) continue
    await queueEmailIn(
      tx,
      tenant.id,
      accountDeletedAdminEmail({
        branding,
        to: admin.email,
        firstName: admin.firstName,
        personName: departure.person,
        successorName: departure.successor ? nameOf(departure.successor) : null,
        contactsMoved: departure.contactsMoved,
      }),
      tenant.name,
      'limited-when-requested',
      `account-deleted:${departure.key}:${admin.id}`,
    )
  }
}

/**
 * The agency's other active admins hear of the request at once, with whether someone takes over
 * the seat: the grace period is their time to choose a successor. In the request's transaction;
 * not limited, like the notice after the deletion.
 */
async function warnAdmins(tx: Transaction, tenant: Tenant, account: User, scheduledFor: Date) {
  const seat = await findSeatSuccessorCard(tx, tenant.id, account.id)
  const successor =
    seat?.successorStatus === 'active'
      ? await findUserById(tx, tenant.id, seat.successorId)
      : undefined
  const branding = tenantEmailBranding(tenant)
  for (const id of await lockActiveAgencyAdmins(tx, tenant.id)) {
    if (id === account.id) continue
    const admin = await findUserById(tx, tenant.id, id)
    if (!admin) continue
    await queueEmailIn(
      tx,
      tenant.id,
      deletionRequestedAdminEmail({
        branding,
        to: admin.email,
        firstName: admin.firstName,
        personName: nameOf(account),
        scheduledFor,
        successorName: successor ? nameOf(successor) : null,
      }),
      tenant.name,
      'limited-when-requested',
      `account-deletion-requested:${account.id}:${scheduledFor.getTime()}:${admin.id}`,
    )
  }
}

/** How long past its date a deletion may stay before the hourly visit queues it again. */
export const OVERDUE_DELETION_MS = 60 * 60 * 1000

/**
 * The backstop of the hourly visit: a deletion still pending an hour past its date (its job ran
 * out of attempts, or was lost with a restore) gets a new job, one per account and hour. The job
 * deletes only what is still pending and due, so a second one changes nothing. Returns how many
 * were queued.
 */
export async function requeueOverdueDeletions(now = new Date()) {
  const before = new Date(now.getTime() - OVERDUE_DELETION_MS)
  const hour = now.toISOString().slice(0, 13)
  let queued = 0
  for (const { id } of await withDatabase((tx) => listOrganizationIds(tx))) {
    queued += await withTenant(id, async (tx) => {
      const overdue = await listOverdueAccountDeletions(tx, id, before)
      for (const { userId } of overdue) {
        await insertJob(tx, {
          name: 'account.delete',
          organizationId: id,
          payload: { userId },
          idempotencyKey: `account.delete:${userId}:overdue:${hour}`,
        })
      }
      return overdue.length
    })
  }
  return queued
}

/** The queued deletion, due ACCOUNT_DELETION_GRACE_DAYS after the request. */
export const accountDeletionJob: JobHandler = {
  async run(job) {
    const { organizationId, userId } = tenantJobInput(job, 'userId')
    // Read before the transaction (it may need a connection of its own); an agency that is
    // gone or switched off has no host to brand its emails with: the deletion still happens.
    const tenant = await freshTenantOf(organizationId)
    await deleteAccountWhenDue(organizationId, userId, { tenant })
  },
}

/**
 * "Keep my account" (ADR 081): the person, signed in while their deletion waits, cancels it.
 * Refused when nothing is scheduled any more (the job ran, or another tab kept it).
 */
export async function keepAccount(signedIn: { tenant: Tenant; user: User }) {
  const { tenant, user } = signedIn
  await withTenant(tenant.id, async (tx) => {
    const cancelled = await cancelAccountDeletion(tx, tenant.id, user.id)
    if (!cancelled) throw new Refusal('conflict', 'Your account is not scheduled for deletion')
    await recordAccountAudit(tx, tenant.id, user.id, 'account.deletion_cancelled', {
      reason: 'kept',
      scheduledFor: cancelled.scheduledFor.toISOString(),
    })
  })
}
