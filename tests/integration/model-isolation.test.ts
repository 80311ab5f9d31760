// The tenant filter in every model function, tested on its own: the functions run on the
// owner connection, where row-level security does not apply, and are called with tenant B's
// organization and tenant A's ids, emails, hashes and names. Each must find nothing and
// change nothing of A. Deleting any `organizationId` filter from app/models makes a case here
// fail (scripts/tenant-filter-mutations.ts checks that by trying each one).
import { readdirSync } from 'node:fs'
import path from 'node:path'
import { and, count, eq, sql, TransactionRollbackError } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'
import { hashPassword } from '#app/auth/password.server'
import { flushCardEvents } from '#app/cards/event-batcher.server'
import {
  cancelAccountDeletion,
  deleteUnreferencedUploadsOf,
  findAccountDeletion,
  findDepartedAddress,
  listAccountAddresses,
  listHeldDepartedSlugs,
  listOverdueAccountDeletions,
  listPendingDeletionUserIds,
  recordDepartedAddresses,
  scheduleAccountDeletion,
} from '#app/models/account-deletions.server'
import { listAssignedEndUsersActivity, listOrganizationActivity } from '#app/models/activity.server'
import {
  deleteAgency,
  findAgency,
  setAgencyApproval,
  setAgencyStatus,
  updateAgency,
} from '#app/models/agencies.server'
import {
  countAnnouncementRecipients,
  findAnnouncement,
  finishAnnouncement,
  insertAnnouncement,
  listAnnouncementRecipients,
  listAnnouncements,
  recordAnnouncementProgress,
} from '#app/models/announcements.server'
import {
  deleteIdempotentAnswersBefore,
  findIdempotentAnswer,
  findUsableApiKey,
  insertApiKey,
  listApiKeys,
  markApiKeyUsed,
  revokeApiKeyRow,
  saveIdempotentAnswer,
} from '#app/models/api-keys.server'
import {
  findApiSettings,
  resealCrmSecrets,
  saveApiSettings,
  saveHubspotSettings,
  saveSalesforceSettings,
  setCrmEnabled,
} from '#app/models/api-settings.server'
import {
  countAssignedEndUsers,
  listAssignedEndUsers,
  selectAssignedEndUserIds,
} from '#app/models/assigned-users.server'
import {
  listActivityForUser,
  listAuditEvents,
  listAuditEventsOfActor,
  recordAccountAudit,
  recordAudit,
  recordCardAudit,
  recordOrganizationAudit,
  recordTeamAudit,
} from '#app/models/audit.server'
import {
  clearTwoFactor,
  consumeRecoveryCode,
  markSessionEnrolmentEmailConfirmed,
  markSessionTwoFactorVerified,
  setRecoveryCodes,
  setTwoFactor,
} from '#app/models/authenticators.server'
import {
  findAgencyBillingAccount,
  findBillingAccount,
  hasOtherLiveAgencyPro,
  lockBillingAccount,
  lockBillingAccountOfCustomer,
  markSubscriptionRead,
  saveBillingCustomer,
  saveBillingSubscription,
} from '#app/models/billing-accounts.server'
import {
  countCardActivity,
  countCardActivityPerDay,
  countLinkTaps,
  listCardNames,
  recordCardEvents,
} from '#app/models/card-events.server'
import {
  askToFollow,
  confirmFollower,
  countFollowers,
  findFollowerById,
  findPendingFollowerByToken,
  followersOwedDigest,
  markDigestSent,
  nextDigestDue,
  stopFollowing,
} from '#app/models/card-followers.server'
import { changeCardSlug, claimDefaultSlug } from '#app/models/card-slugs.server'
import {
  deleteTemplate,
  findTemplate,
  findTemplateForUser,
  findTemplateOfCard,
  insertTemplate,
  listCardsToApply,
  listOwnerCards,
  listTemplateCards,
  listTemplates,
  organizationHasTeam,
  setCardsTemplate,
  updateTemplate,
} from '#app/models/card-templates.server'
import {
  countViewsInHours,
  countViewsPerCardAndSource,
  listCardScans,
  recordCardView,
  recordCardViews,
} from '#app/models/card-views.server'
import {
  createCard,
  deleteCard,
  findCardById,
  findCardByReference,
  findCardBySlug,
  findOrganizationCard,
  getCardForOwner,
  getDefaultCardForOwner,
  listCardsForOwner,
  listOrganizationCards,
  ownerHasCard,
  replaceCardLinks,
  setCardArchivedState,
  setCardBackground,
  setDefaultCard,
  updateCard,
} from '#app/models/cards.server'
import {
  findConsentText,
  findCurrentConsentText,
  insertConsentText,
  listConsentTexts,
} from '#app/models/consent-texts.server'
import {
  addContact,
  deleteLeadByDataToken,
  deleteOrganizationContact,
  findContactByEmail,
  findContactForOwner,
  findLeadByDataToken,
  findOrganizationContact,
  listContacts,
  listOrganizationContacts,
  moveCompanyContacts,
  setContactPersonal,
} from '#app/models/contacts.server'
import {
  findContactForSync,
  findCrmSync,
  insertCrmSync,
  listCrmSyncs,
  markCrmSynced,
  recordCrmContactId,
  recordCrmSyncFailure,
  resetFailedCrmSync,
} from '#app/models/crm-syncs.server'
import {
  findDomainRow,
  isDomainTaken,
  recordDomainCheck,
  releaseClaimsBeatenBy,
  releaseDomainClaim,
  setCustomDomain,
} from '#app/models/custom-domains.server'
import {
  deleteExpiredDataExports,
  deleteFinishedDataExports,
  failDataExport,
  findDataExport,
  findDownloadableDataExport,
  findLatestDataExport,
  finishDataExport,
  insertDataExport,
  readDataExportChunk,
  setDataExportProgress,
  startDataExport,
} from '#app/models/data-exports.server'
import {
  countDirectoryTeams,
  countDirectoryUsers,
  findDirectoryTeam,
  findDirectoryUsers,
  insertDirectoryTeam,
  listDirectoryManagedUsers,
  listDirectoryTeamMemberIds,
  listDirectoryTeams,
  listDirectoryUsers,
  removeDirectoryTeamMembers,
  updateDirectoryTeam,
} from '#app/models/directory.server'
import {
  consumeConfirmationToken,
  findUsableConfirmationToken,
  insertEmailConfirmationToken,
  retireEmailConfirmationTokens,
} from '#app/models/email-confirmations.server'
import {
  listGoogleWalletObjects,
  markGoogleWalletObjectPatched,
  recordGoogleWalletObject,
} from '#app/models/google-wallet-objects.server'
import {
  getMediaByHash,
  getMediaBytes,
  getMediaPath,
  hasMediaWithHash,
  mediaUsage,
  storeMedia,
  sweepUnreferencedMedia,
} from '#app/models/media.server'
import {
  getOrganizationPreferences,
  saveOrganizationPreferences,
} from '#app/models/organization-settings.server'
import {
  findBrandingImagePaths,
  findContactEmail,
  findOrganizationBranding,
  findSubscriptionTier,
  renameOrganization,
  setOrganizationBrandingImages,
  setSubscriptionTier,
  updateOrganizationBranding,
} from '#app/models/organizations.server'
import {
  deleteOutboxEmails,
  findOutboxEmail,
  insertOutboxEmail,
  listOutboxForOrganization,
  listOutboxLinksTo,
  markOutboxEmailSent,
  recordOutboxEmailFailure,
} from '#app/models/outbox.server'
import {
  consumeSessionChallenge,
  deletePasskey,
  findUserPasskey,
  insertPasskey,
  isSessionChallengeLive,
  listPasskeys,
  recordPasskeyUse,
  renamePasskey,
  setSessionChallenge,
} from '#app/models/passkeys.server'
import {
  consumeResetToken,
  findUsableResetToken,
  insertPasswordResetToken,
} from '#app/models/password-resets.server'
import {
  countOrganizationEndUsers,
  countStaff,
  deleteAccount,
  listActiveUserIdsWithRoles,
  listOrganizationEndUsers,
  listStaff,
  listSuccessorChoices,
  listTeamAdmins,
  lockActiveAgencyAdmins,
  lockSuperAdmins,
  markSignedIn,
  unassignEndUsersFrom,
  updateAccount,
} from '#app/models/people.server'
import {
  claimOffer,
  deletePersonalCard,
  findOfferByToken,
  findOfferForUser,
  findPersonalCardBySlug,
  followersToTellMoved,
  insertPersonalCard,
  markMovedNotice,
  offerPersonalCard,
} from '#app/models/personal-cards.server'
import {
  countPendingPlanRequests,
  decidePlanRequest,
  findPendingPlanRequest,
  insertPlanRequest,
  listPendingPlanRequests,
  withdrawPlanRequest,
} from '#app/models/plan-requests.server'
import {
  countScimEvents,
  endScimToken,
  findScimToken,
  findUsableScimToken,
  insertScimToken,
  listScimEvents,
  listScimTokens,
  markScimTokenUsed,
  recordScimEvent,
} from '#app/models/scim.server'
import {
  clearSeatSuccessor,
  findSeatSuccessorCard,
  findSuccessorCard,
  listSeatSuccessors,
  setSeatSuccessor,
} from '#app/models/seat-successors.server'
import {
  completeSendingDomainRegistration,
  deleteSendingDomain,
  deleteUnverifiedSendingDomain,
  findSendingDomain,
  findVerifiedSenderAddress,
  REGISTERING,
  recordSendingDomainState,
  reserveSendingDomain,
} from '#app/models/sending-domains.server'
import {
  deleteSession,
  deleteUserSessions,
  extendSession,
  findSessionWithUser,
  insertSession,
} from '#app/models/sessions.server'
import {
  deleteSsoDomain,
  deleteSsoProvider,
  findSsoDomain,
  findSsoProvider,
  findVerifiedSsoDomain,
  hasSsoSignIn,
  insertOidcProvider,
  insertSsoDomain,
  listSsoDomains,
  listSsoProviders,
  recordSsoDomainCheck,
  setSsoDomainEnforced,
  updateOidcProvider,
} from '#app/models/sso.server'
import {
  consumeSamlRequest,
  findSamlRequestCreatedAt,
  insertSamlProvider,
  rememberSamlRequest,
  updateSamlProvider,
} from '#app/models/sso-saml.server'
import {
  type CardScope,
  cardsInScope,
  countCards,
  countCardViewsBySource,
  countContactsByWeek,
  countOrganizationPeople,
  countUserViewsBySourcePerDay,
  countViewsBySourcePerDay,
  countViewsByWeek,
  endUserFigures,
  type StatsScope,
} from '#app/models/stats.server'
import {
  findUnhandledStripeEvent,
  insertStripeEvent,
  markStripeEventHandled,
} from '#app/models/stripe-events.server'
import {
  deleteInvitation,
  findPendingInvitationByTokenHash,
  findPendingInvitationForEmail,
  insertInvitation,
  listPendingInvitations,
  setInvitationStatus,
} from '#app/models/team-invitations.server'
import {
  addTeamMember,
  countTeamAdmins,
  countTeamSeats,
  createTeamWithAdmin,
  deleteTeam,
  findMembership,
  findOrganizationTeam,
  findTeamMember,
  findTeamMemberByEmail,
  findTeamWithPlan,
  listOrganizationTeams,
  listOrganizationTeamsPage,
  listTeamMembers,
  listTeamsForUser,
  removeTeamMember,
  setTeamMemberRole,
  sharesTeam,
  updateTeam,
} from '#app/models/teams.server'
import { getUserPreferences, setUserPreference } from '#app/models/user-settings.server'
import {
  countUserAccountsForOrganization,
  countUsersWithRoles,
  createUser,
  findUserByEmail,
  findUserById,
  listOrganizationUsers,
  listUserAccountsForOrganization,
  markEmailConfirmed,
  setMemberPlan,
  setUserPassword,
  setUserPlan,
  updateProfile,
} from '#app/models/users.server'
import {
  findOrCreateWalletPass,
  findWalletPass,
  forgetPushToken,
  listDevicePassesUpdatedSince,
  listPassPushTokens,
  listWalletPasses,
  markWalletPassPushed,
  recordWalletPassContent,
  registerWalletDevice,
  unregisterWalletDevice,
} from '#app/models/wallet-passes.server'
import {
  countWebhookDeliveries,
  deleteWebhookEndpoint,
  findWebhookDelivery,
  findWebhookEndpoint,
  insertContactDeletedEvents,
  insertWebhookDelivery,
  insertWebhookEndpoint,
  insertWebhookMessage,
  listSubscribedWebhookEndpoints,
  listWebhookAttempts,
  listWebhookDeliveries,
  listWebhookEndpoints,
  lockWebhookDigestCursor,
  markWebhookEndpointFailing,
  recordWebhookAttempt,
  redactWebhookMessagesAbout,
  redactWebhookMessagesAboutContactsOf,
  saveWebhookDigestCursor,
  updateWebhookDelivery,
  updateWebhookEndpoint,
} from '#app/models/webhooks.server'
import { slugBaseFromName } from '#app/validation/card-slug'
import { getDb, type Queryable } from '#drizzle/db.server'
import {
  cardFollowers,
  cardSlugs,
  media,
  organizations,
  sendingDomains,
  ssoProviders,
  teams,
  users,
} from '#drizzle/schema'
import { databaseChecksum, installWriteCounter, rowsOf } from '#tests/checksum'
import { makeOrganization, makePng, uniqueSuffix } from '#tests/factories'

const png = (bytes: Buffer) =>
  ({ bytes, contentType: 'image/png', width: 40, height: 20, purpose: 'card-logo' }) as const

async function seedTenantA(db: Queryable) {
  const organization = await makeOrganization()
  const suffix = uniqueSuffix()
  const user = await createUser(db, organization.id, {
    email: `only-in-a-${suffix}@example.test`,
    passwordHash: 'not-a-password-hash',
    firstName: 'Avery',
    lastName: `Zed${suffix}`,
  })
  const second = await createUser(db, organization.id, {
    email: `second-${suffix}@example.test`,
    passwordHash: 'not-a-password-hash',
    role: 'agency_member',
  })
  const card = await createCard(db, organization.id, user.id, {
    firstName: 'Avery',
    lastName: `Zed${suffix}`,
  })
  // Links on A's card: replacing B's "same" card's links must not delete these.
  await replaceCardLinks(db, organization.id, user.id, card.id, [
    { kind: 'github', label: '', url: 'https://github.com/avery' },
  ])
  // A's card was added to Google Wallet (ADR 043): a patch in B must neither find nor touch it.
  await recordGoogleWalletObject(db, organization.id, card.id, `3388.card-${card.id}`)
  const otherCard = await createCard(db, organization.id, user.id, {
    firstName: 'Avery',
    lastName: 'Other',
  })
  // A profile without cards, which its "{first}-{last}" link opens (spec §2, §9).
  const cardless = await createUser(db, organization.id, {
    email: `cardless-${suffix}@example.test`,
    passwordHash: 'not-a-password-hash',
    firstName: 'Pat',
    lastName: `Profile${suffix}`,
  })
  await updateProfile(db, organization.id, cardless.id, { onboardingCompletedAt: new Date() })
  await saveOrganizationPreferences(db, organization.id, {
    billingEmail: `billing-${suffix}@a.test`,
  })
  await db.execute(
    sql`update organizations set subscription_tier = 'enterprise' where id = ${organization.id}`,
  )
  const sharedImage = await makePng('#123456')
  const ownImage = await makePng('#abcdef')
  const sharedMedia = await storeMedia(db, organization.id, png(sharedImage))
  const ownMedia = await storeMedia(db, organization.id, png(ownImage))
  await addContact(db, organization.id, user.id, {
    fullName: 'Casey Contact',
    email: `contact-${suffix}@example.test`,
  })
  // A's consent text and a lead who consented to it, with its receipt link's hash (ADR 050).
  const consentText = await insertConsentText(db, organization.id, `Consent of A ${suffix}`)
  if (!consentText) throw new Error('consent text not stored')
  const leadTokenHash = `lead-data-${suffix}`
  // Met on A's card, so a contact's page has a card of A's to join (issue 41 point 12).
  const lead = await addContact(db, organization.id, user.id, {
    fullName: 'Lee Lead',
    email: `lead-${suffix}@example.test`,
    source: 'lead',
    consentTextId: consentText.id,
    consentGivenAt: new Date(),
    consentPage: `/card/${card.id}`,
    dataTokenHash: leadTokenHash,
    sourceCardId: card.id,
  })
  if (lead.status !== 'created') throw new Error('lead not added')
  const leadContactId = lead.contact.id
  const sessionId = `session-${suffix}`
  await insertSession(db, organization.id, {
    id: sessionId,
    userId: user.id,
    twoFactorVerified: false,
    expiresAt: new Date(Date.now() + 86_400_000),
  })
  // A recovery code of A's that B's calls must not be able to use (consumeRecoveryCode).
  await setRecoveryCodes(db, organization.id, user.id, ['a-recovery-hash'])
  // A passkey of A's and a ceremony's challenge on A's session (ADR 045, Passkeys).
  const passkeyCredentialId = `credential-${suffix}`
  const passkey = await insertPasskey(db, organization.id, user.id, {
    credentialId: passkeyCredentialId,
    publicKey: Buffer.from([1, 2, 3]),
    counter: 0,
    transports: [],
    name: 'A key',
  })
  if (!passkey) throw new Error('passkey not stored')
  await setSessionChallenge(
    db,
    organization.id,
    sessionId,
    'authenticate:a-challenge',
    new Date(Date.now() + 60_000),
  )
  const tokenHash = `reset-${suffix}`
  await insertPasswordResetToken(db, organization.id, user.id, tokenHash)
  const confirmationHash = `confirm-${suffix}`
  await insertEmailConfirmationToken(db, organization.id, user.id, user.email, confirmationHash)
  await setUserPreference(db, organization.id, user.id, 'theme', 'dark')
  await recordAudit(db, organization.id, {
    actorUserId: user.id,
    action: 'card.create',
    entityType: 'card',
  })
  const outboxId = await insertOutboxEmail(
    db,
    organization.id,
    { to: user.email, subject: 'For A only', html: '<p>A</p>', text: 'A' },
    undefined,
    // A link of a lead's receipt (ADR 050), which a lead's deletion looks for by address.
    [{ kind: 'link', purpose: 'lead-data', seed: `seed-${suffix}`, marker: `marker-${suffix}` }],
  )
  // A CRM integration with a forwarded contact (the sync row names it).
  await saveApiSettings(db, organization.id, user.id, {
    sealedKey: 'v1.sealed.for.a',
    keyLast4: 'AAAA',
    locationId: 'loc-a',
    enabled: true,
    validatedAt: new Date(),
  })
  const crmContact = await addContact(db, organization.id, user.id, { fullName: 'Crm Contact' })
  if (crmContact.status !== 'created') throw new Error('contact not created')
  await insertCrmSync(db, organization.id, user.id, crmContact.contact.id)
  await recordCrmSyncFailure(db, organization.id, crmContact.contact.id, 'down', true)
  const crmContactId = crmContact.contact.id
  const visitor = `visitor-${suffix}`
  await recordCardView(db, organization.id, card.id, visitor)
  await recordAudit(db, organization.id, {
    actorUserId: user.id,
    action: 'card.created',
    entityType: 'card',
    entityId: card.id,
  })
  // A team member with an assigned end user who has a card, a view and a contact (dashboards).
  const teamAdmin = await createUser(db, organization.id, {
    email: `team-${suffix}@example.test`,
    passwordHash: 'not-a-password-hash',
    role: 'team_admin',
  })
  const assigned = await createUser(db, organization.id, {
    email: `assigned-${suffix}@example.test`,
    passwordHash: 'not-a-password-hash',
  })
  await db.update(users).set({ assignedToUserId: teamAdmin.id }).where(eq(users.id, assigned.id))
  const assignedCard = await createCard(db, organization.id, assigned.id, {
    firstName: 'Asa',
    lastName: 'Signed',
  })
  // Visitor hashes are keyed by the card (app/cards/public-card-route.server.ts): one per card.
  await recordCardView(db, organization.id, assignedCard.id, `${visitor}-assigned`)
  await addContact(db, organization.id, assigned.id, { fullName: 'Assigned Contact' })
  // Saves, taps and exchanges of A's cards (ADR 082), which B's analytics must not count.
  const thisHour = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000)
  for (const [cardId, kind] of [
    [card.id, 'vcard'],
    [card.id, 'link'],
    [assignedCard.id, 'lead'],
  ] as const) {
    await recordCardEvents(db, organization.id, [
      {
        cardId,
        hour: thisHour,
        source: 'qr',
        kind,
        linkId: kind === 'link' ? 'a-link' : '',
        count: 2,
      },
    ])
  }
  // A's seat handed over (ADR 049): the user's links forward to the assigned end user's card.
  await setSeatSuccessor(db, organization.id, user.id, assigned.id, null)
  // A team on a paid plan, with a second member and a pending invitation (roles doc §3, §4).
  await setUserPlan(db, organization.id, user.id, 'free', 'team_pro')
  const team = await createTeamWithAdmin(db, organization.id, user.id, {
    name: `Team ${suffix}`,
    description: 'Only in A',
  })
  const member = await addTeamMember(db, organization.id, team.id, assigned.id, 'member')
  if (!member) throw new Error('member not added')
  const inviteeEmail = `invitee-${suffix}@example.test`
  const invitationHash = `invite-${suffix}`
  const invitation = await insertInvitation(db, organization.id, {
    teamId: team.id,
    email: inviteeEmail,
    role: 'member',
    tokenHash: invitationHash,
    invitedByUserId: user.id,
  })
  // An announcement of A's, still sending, to A's end user who opted in (ADR 046).
  await setUserPreference(db, organization.id, assigned.id, 'marketingEmails', true)
  const announcement = await insertAnnouncement(db, organization.id, {
    sentByUserId: user.id,
    subject: `News ${suffix}`,
    body: 'Only for A',
  })
  // A's team's card template, which A's card follows (ADR 048).
  const template = await insertTemplate(db, organization.id, {
    name: `Template ${suffix}`,
    teamId: team.id,
    company: 'Only in A',
    modes: { company: 'locked' },
  })
  await setCardsTemplate(db, organization.id, [card.id], template.id)
  // A verified sending domain (ADR 026).
  const sendingDomain = `mail-${suffix}.a.test`
  const providerDomainId = `provider-${suffix}`
  await reserveSendingDomain(db, organization.id, sendingDomain, 'hello')
  await completeSendingDomainRegistration(db, organization.id, providerDomainId, {
    status: 'verified',
    records: [],
  })
  await recordSendingDomainState(db, organization.id, providerDomainId, {
    status: 'verified',
    records: [],
    verifiedAt: new Date(),
    lostAt: null,
    checkedAt: new Date(),
  })
  // A super admin with a staff title (the Admin Team screen's model functions).
  const staff = await createUser(db, organization.id, {
    email: `staff-${suffix}@example.test`,
    passwordHash: 'not-a-password-hash',
    role: 'super_admin',
  })
  // An Apple Wallet pass of A's card with a registered device (ADR 042).
  // A new version still owed to its device, so marking it pushed would change A.
  const firstPass = await findOrCreateWalletPass(db, organization.id, card.id, null, 'hash-a')
  const walletPass = await recordWalletPassContent(db, organization.id, firstPass.id, 'hash-a2')
  if (!walletPass) throw new Error('wallet pass not changed')
  await registerWalletDevice(db, organization.id, walletPass.id, `device-${suffix}`, 'push-a')
  // A's Stripe customer and subscription, and an event not yet applied (ADR 051).
  // A's own (Agency Pro) account too, held by the organization (ADR 055).
  const seatBilling = await saveBillingCustomer(
    db,
    organization.id,
    { seatUserId: user.id },
    `cus_${suffix}`,
  )
  if (!seatBilling) throw new Error('billing account not stored')
  await saveBillingSubscription(db, organization.id, seatBilling.id, {
    stripeSubscriptionId: `sub_${suffix}`,
    plan: 'team_pro',
    status: 'active',
    graceEndsAt: null,
  })
  const agencyBilling = await saveBillingCustomer(
    db,
    organization.id,
    { organization: true },
    `cus_agency_${suffix}`,
  )
  // A pays for Agency Pro: B's question whether another account does must not see it.
  if (agencyBilling) {
    await saveBillingSubscription(db, organization.id, agencyBilling.id, {
      stripeSubscriptionId: `sub_agency_${suffix}`,
      plan: 'agency_pro',
      status: 'active',
      graceEndsAt: null,
    })
  }
  const stripeEventId = `evt_${suffix}`
  await insertStripeEvent(db, organization.id, {
    id: stripeEventId,
    type: 'invoice.paid',
    data: { userId: user.id },
    occurredAt: new Date(),
  })
  // A's pending "Delete my account", a departed address, and an image A's user uploaded that
  // nothing references (ADR 053).
  await scheduleAccountDeletion(db, organization.id, second.id, new Date(Date.now() + 86_400_000))
  const departedSlug = `departed-${suffix}`
  await recordDepartedAddresses(
    db,
    organization.id,
    [{ kind: 'slug', address: departedSlug }],
    assigned.id,
    new Date(Date.now() + 86_400_000),
  )
  await storeMedia(db, organization.id, {
    ...png(await makePng('#a0b0c0')),
    uploadedBy: second.id,
  })
  // A's data exports (ADR 052): the user's ready one, and the cardless profile's still running.
  const readyExport = await insertDataExport(db, organization.id, user.id)
  const runningExport = await insertDataExport(db, organization.id, cardless.id)
  if (!readyExport || !runningExport) throw new Error('data exports not stored')
  await startDataExport(db, organization.id, readyExport.id)
  await finishDataExport(
    db,
    organization.id,
    readyExport.id,
    new Uint8Array([80, 75, 5, 6, 1, 2, 3]),
    new Date(Date.now() + 7 * 86_400_000),
  )
  await startDataExport(db, organization.id, runningExport.id)
  await setDataExportProgress(db, organization.id, runningExport.id, 40)
  // A's pending plan request (ADR 079): the user asks for Team Pro.
  const planRequest = await insertPlanRequest(db, organization.id, user.id, 'team_pro')
  if (!planRequest) throw new Error('plan request not stored')
  // A's identity provider and its verified, enforced email domain (ADR 088).
  const ssoProvider = await insertOidcProvider(db, organization.id, ssoProviderValues)
  const ssoDomain = await insertSsoDomain(db, organization.id, {
    providerId: ssoProvider.id,
    domain: `sso-${suffix}.a.test`,
    token: `token-${suffix}`,
  })
  if (!ssoDomain) throw new Error('sso domain not stored')
  await recordSsoDomainCheck(db, organization.id, {
    domainId: ssoDomain.id,
    token: ssoDomain.token,
    verifiedAt: new Date(),
    checkedAt: new Date(),
  })
  await setSsoDomainEnforced(db, organization.id, ssoDomain.id, true)
  // A's directory sync (ADR 089): a SCIM token, a logged call, the user's external id and a
  // team the directory made with the user in it.
  const scimToken = await insertScimToken(db, organization.id, {
    name: 'Entra',
    tokenHash: `scim-${suffix}`,
    lastFour: 'abcd',
    createdByUserId: user.id,
  })
  await recordScimEvent(db, organization.id, {
    tokenId: scimToken.id,
    method: 'GET',
    path: '/scim/v2/Users',
    status: 200,
  })
  // A's REST API key and a kept idempotent answer (ADR 092).
  const apiKey = await insertApiKey(db, organization.id, {
    name: 'Integration',
    scopes: ['cards:read'],
    keyHash: `api-${suffix}`,
    lastFour: 'efgh',
    expiresAt: null,
    createdByUserId: user.id,
  })
  const idempotencyKey = `idem-${suffix}`
  await saveIdempotentAnswer(db, organization.id, {
    idempotencyKey,
    apiKeyId: apiKey.id,
    method: 'POST',
    path: '/api/v1/contacts',
    requestHash: 'hash',
    status: 201,
    response: { id: 'x' },
  })
  const externalId = `ext-${suffix}`
  await updateAccount(db, organization.id, user.id, { externalId })
  const directoryTeam = await insertDirectoryTeam(db, organization.id, {
    name: `Directory ${suffix}`,
    externalId: `group-${suffix}`,
  })
  await addTeamMember(db, organization.id, directoryTeam.id, user.id, 'member')
  // A's webhooks (ADR 093): an endpoint subscribed to leads and deleted contacts, a message
  // about A's user's contact, its delivery and an attempt in the log.
  const webhookEndpoint = await insertWebhookEndpoint(db, organization.id, {
    url: `https://hooks-${suffix}.a.test/`,
    description: 'A',
    eventTypes: ['lead.created', 'contact.deleted'],
    secretSealed: 'v1.sealed.for.a',
    createdByUserId: user.id,
  })
  const webhookMessage = await insertWebhookMessage(db, organization.id, {
    eventType: 'lead.created',
    payload: {
      type: 'lead.created',
      data: { id: crmContact.contact.id, email: `lead-${suffix}@example.test` },
    },
    dedupeKey: `digest-${suffix}`,
  })
  if (!webhookMessage) throw new Error('webhook message not stored')
  const webhookDelivery = await insertWebhookDelivery(db, organization.id, {
    endpointId: webhookEndpoint.id,
    messageId: webhookMessage.id,
    nextAttemptAt: new Date(),
  })
  await recordWebhookAttempt(db, organization.id, {
    deliveryId: webhookDelivery.id,
    statusCode: 500,
  })
  // Where A's hourly card.viewed digests stand.
  await saveWebhookDigestCursor(db, organization.id, 'card.viewed', new Date('2026-11-30T10:00Z'))
  // A follower of A's card owed a digest, and a pending one with its link's hash (ADR 102).
  await askToFollow(db, organization.id, card.id, `fan-${suffix}@example.test`, 'a'.repeat(64))
  const followerToken = 'b'.repeat(64)
  await askToFollow(db, organization.id, card.id, `new-${suffix}@example.test`, followerToken)
  const confirmed = await confirmFollower(db, organization.id, 'a'.repeat(64))
  if (!confirmed) throw new Error('follower not confirmed')
  await db
    .update(cardFollowers)
    .set({ changedAt: sql`now()` })
    .where(
      and(eq(cardFollowers.organizationId, organization.id), eq(cardFollowers.id, confirmed.id)),
    )
  // A personal card offered to A's user, not claimed yet, and a personal card row of A's
  // organization (the model takes any organization; the platform's in the app, ADR 103).
  const offerToken = 'e'.repeat(64)
  await offerPersonalCard(db, organization.id, user.id, offerToken, null)
  const personalSlug = `pc-${suffix}`
  await insertPersonalCard(db, organization.id, {
    slug: personalSlug,
    firstName: 'Pat',
    lastName: 'Personal',
    email: `pat-${suffix}@home.test`,
    phone: '',
  })
  return {
    offerToken,
    personalSlug,
    follower: confirmed,
    followerToken,
    webhookEndpoint,
    webhookMessage,
    webhookDelivery,
    apiKey,
    idempotencyKey,
    ssoProvider,
    ssoDomain,
    scimToken,
    externalId,
    directoryTeam,
    planRequest,
    departedSlug,
    organization,
    readyExport,
    runningExport,
    stripeEventId,
    seatBilling,
    stripeCustomerId: `cus_${suffix}`,
    announcement,
    template,
    assigned,
    walletPass,
    walletDevice: `device-${suffix}`,
    user,
    second,
    staff,
    outboxId,
    crmContactId,
    leadContactId,
    card,
    otherCard,
    profileSlug: `pat-profile${suffix}`,
    sharedImage,
    sharedMedia,
    ownMedia,
    contactEmail: `contact-${suffix}@example.test`,
    consentText,
    leadTokenHash,
    sessionId,
    passkey,
    passkeyCredentialId,
    tokenHash,
    confirmationHash,
    visitor,
    teamAdmin,
    team,
    member,
    invitation,
    inviteeEmail,
    invitationHash,
    sendingDomain,
    providerDomainId,
  }
}

type TenantA = Awaited<ReturnType<typeof seedTenantA>>

const ssoProviderValues = {
  displayName: 'Provider',
  issuerUrl: 'https://idp.example.test',
  clientId: 'client',
  clientSecretSealed: 'v1.not.a.secret',
  jitRole: 'end_user' as const,
  enabled: true,
}

/** The outcome of a call, whether it returned or threw (a refused write may throw). */
async function attempt<T>(call: () => Promise<T>) {
  try {
    return { value: await call(), threw: false as const }
  } catch {
    return { value: undefined, threw: true as const }
  }
}

/** A scope of B naming A's people or team (the analytics cases, ADR 082). */
const scopeOf = (kind: CardScope['kind'], a: TenantA): CardScope =>
  kind === 'user'
    ? { kind, userId: a.user.id }
    : kind === 'assigned'
      ? { kind, teamAdminId: a.teamAdmin.id }
      : kind === 'team'
        ? { kind, teamId: a.team.id }
        : { kind }

/** A SAML provider's values, named. */
const samlValues = (displayName: string) => ({
  displayName,
  samlEntityId: 'https://idp.example.test/metadata',
  samlSsoUrl: 'https://idp.example.test/sso',
  samlCertificates: ['MIIB'],
  samlMetadataUrl: null,
  jitRole: 'end_user' as const,
  enabled: true,
})

/** The names of an organization's SSO providers. */
async function samlProvidersOf(db: Queryable, organizationId: string) {
  const rows = await db
    .select({ displayName: ssoProviders.displayName })
    .from(ssoProviders)
    .where(eq(ssoProviders.organizationId, organizationId))
  return rows.map((row) => row.displayName)
}

/** A SAML provider of A's with a request it has yet to answer. */
async function samlOfA(db: Queryable, a: TenantA) {
  const provider = await insertSamlProvider(db, a.organization.id, samlValues('A SAML'))
  const requestId = `_a-${uniqueSuffix()}`
  await rememberSamlRequest(db, a.organization.id, {
    id: requestId,
    providerId: provider.id,
    createdAt: new Date(),
    staleBefore: new Date(0),
  })
  return { providerId: provider.id, requestId }
}

type Case = {
  name: string
  /** Called with tenant B's organization id and A's identifiers; returns what must be empty. */
  run: (db: Queryable, b: string, a: TenantA) => Promise<unknown>
  /** What a correctly filtered call gives back. */
  expected: (value: unknown, threw: boolean) => void
}

/** An agency function's answer: B's own organization row. */
const isB = () => (value: unknown) => expect((value as { id?: string } | undefined)?.id).toBe(b)

function nothing(value: unknown) {
  if (Array.isArray(value)) expect(value).toEqual([])
  else expect(value ?? undefined).toBeUndefined()
}

// One row per exported model function that takes an organization id (the coverage test below
// keeps this list complete). Reads find nothing of A; writes leave A's checksum unchanged.
const cases: Record<string, Case[]> = {
  offerPersonalCard: [
    {
      name: "offers nothing to A's people",
      run: (db, b, a) => offerPersonalCard(db, b, a.user.id, 'f'.repeat(64), null),
      // The composite foreign key refuses an offer of B to A's account.
      expected: (_value, threw) => expect(threw).toBe(true),
    },
  ],
  findOfferByToken: [
    {
      name: "opens none of A's claim links",
      run: (db, b, a) => findOfferByToken(db, b, a.offerToken),
      expected: nothing,
    },
  ],
  claimOffer: [
    {
      name: "claims none of A's offers",
      run: (db, b, a) => claimOffer(db, b, a.offerToken, 'taken-from-a'),
      expected: nothing,
    },
  ],
  findOfferForUser: [
    {
      name: "finds none of A's offers",
      run: (db, b, a) => findOfferForUser(db, b, a.user.id),
      expected: nothing,
    },
  ],
  insertPersonalCard: [
    {
      name: "takes no slug from A's personal cards",
      run: (db, b, a) =>
        insertPersonalCard(db, b, {
          slug: a.personalSlug,
          firstName: 'X',
          lastName: 'Y',
          email: '',
          phone: '1234',
        }),
      expected: (value) => expect(value).toBeDefined(),
    },
  ],
  deletePersonalCard: [
    {
      name: "deletes none of A's personal cards",
      run: (db, b, a) => deletePersonalCard(db, b, a.personalSlug),
      expected: () => {},
    },
  ],
  findPersonalCardBySlug: [
    {
      name: "finds none of A's personal cards",
      run: (db, b, a) => findPersonalCardBySlug(db, b, a.personalSlug),
      expected: nothing,
    },
  ],
  followersToTellMoved: [
    {
      name: "tells none of A's followers",
      run: (db, b, a) => followersToTellMoved(db, b, a.user.id),
      expected: nothing,
    },
  ],
  markMovedNotice: [
    {
      name: "marks none of A's followers",
      run: (db, b, a) => markMovedNotice(db, b, [a.follower.id]),
      expected: () => {},
    },
  ],
  askToFollow: [
    {
      name: "follows no card of A's",
      run: (db, b, a) => askToFollow(db, b, a.card.id, 'x@example.test', 'c'.repeat(64)),
      // The composite foreign key refuses a follower of B on A's card.
      expected: (_value, threw) => expect(threw).toBe(true),
    },
  ],
  findPendingFollowerByToken: [
    {
      name: "opens none of A's confirmation links",
      run: (db, b, a) => findPendingFollowerByToken(db, b, a.followerToken),
      expected: nothing,
    },
  ],
  confirmFollower: [
    {
      name: "confirms none of A's followers",
      run: (db, b, a) => confirmFollower(db, b, a.followerToken),
      expected: nothing,
    },
  ],
  findFollowerById: [
    {
      name: "finds none of A's followers",
      run: (db, b, a) => findFollowerById(db, b, a.follower.id),
      expected: nothing,
    },
  ],
  stopFollowing: [
    {
      name: "stops none of A's followers",
      run: (db, b, a) => stopFollowing(db, b, a.follower.id),
      expected: (value) => expect(value).toBe(false),
    },
  ],
  countFollowers: [
    {
      name: "counts none of A's followers",
      run: (db, b, a) => countFollowers(db, b, [a.card.id]),
      expected: (value) => expect((value as Map<string, number>).size).toBe(0),
    },
  ],
  followersOwedDigest: [
    {
      name: "owes none of A's followers a digest",
      run: (db, b, a) => followersOwedDigest(db, b, a.card.id),
      expected: nothing,
    },
  ],
  nextDigestDue: [
    {
      name: "sees no digest of A's waiting",
      run: (db, b, a) => nextDigestDue(db, b, a.card.id),
      expected: (value) => expect(value).toBeNull(),
    },
  ],
  markDigestSent: [
    {
      name: "marks none of A's followers",
      run: (db, b, a) => markDigestSent(db, b, [a.follower.id]),
      expected: () => {},
    },
  ],
  createCard: [
    {
      name: "does not count A's cards when choosing the default",
      run: (db, b, a) => createCard(db, b, a.user.id, { firstName: 'X', lastName: 'Y' }),
      // The composite foreign key refuses a card of B for A's user: the write is refused.
      expected: (_value, threw) => expect(threw).toBe(true),
    },
  ],
  listCardsForOwner: [
    {
      name: "lists none of A's cards",
      run: (db, b, a) => listCardsForOwner(db, b, a.user.id),
      expected: nothing,
    },
  ],
  getCardForOwner: [
    {
      name: "finds no card of A's by id",
      run: (db, b, a) => getCardForOwner(db, b, a.user.id, a.card.id),
      expected: nothing,
    },
  ],
  getDefaultCardForOwner: [
    {
      name: "finds no default card of A's",
      run: (db, b, a) => getDefaultCardForOwner(db, b, a.user.id),
      expected: nothing,
    },
  ],
  ownerHasCard: [
    {
      name: "sees no card of A's",
      run: (db, b, a) => ownerHasCard(db, b, a.user.id),
      expected: (value) => expect(value).toBe(false),
    },
  ],
  updateCard: [
    {
      name: "changes no card of A's",
      run: (db, b, a) => updateCard(db, b, a.user.id, a.card.id, { title: 'Taken over' }),
      expected: nothing,
    },
  ],
  replaceCardLinks: [
    {
      name: "neither adds nor removes links of A's card",
      run: (db, b, a) =>
        replaceCardLinks(db, b, a.user.id, a.card.id, [
          { kind: 'custom', label: 'Taken over', url: 'https://evil.example.test' },
        ]),
      expected: (value) => expect(value).toBe(false),
    },
  ],
  setCardBackground: [
    {
      name: "changes no background of A's",
      run: (db, b, a) =>
        setCardBackground(db, b, a.user.id, a.card.id, { kind: 'color', value: '#000000' }),
      expected: nothing,
    },
  ],
  setDefaultCard: [
    {
      name: "moves no default flag of A's",
      run: (db, b, a) => setDefaultCard(db, b, a.user.id, a.otherCard.id),
      expected: (value) => expect(value).toBe(false),
    },
  ],
  setCardArchivedState: [
    {
      name: "archives no card of A's",
      run: (db, b, a) => setCardArchivedState(db, b, a.user.id, a.card.id, true),
      expected: nothing,
    },
    {
      name: "restores no card of A's",
      run: (db, b, a) => setCardArchivedState(db, b, a.user.id, a.otherCard.id, false),
      expected: nothing,
    },
  ],
  deleteCard: [
    {
      name: "deletes no card of A's",
      run: (db, b, a) => deleteCard(db, b, a.user.id, a.card.id),
      expected: (value) => expect(value).toBe(false),
    },
  ],
  findCardByReference: [
    {
      name: "finds no card of A's by id",
      run: (db, b, a) => findCardByReference(db, b, a.card.id),
      expected: nothing,
    },
    {
      name: "finds no card of A's by name",
      run: (db, b, a) => findCardByReference(db, b, `avery-${a.card.lastName.toLowerCase()}`),
      expected: nothing,
    },
    {
      name: "finds no profile of A's by name",
      run: (db, b, a) => findCardByReference(db, b, a.profileSlug),
      expected: nothing,
    },
  ],
  findCardById: [
    {
      name: "finds no card of A's",
      run: (db, b, a) => findCardById(db, b, a.card.id),
      expected: nothing,
    },
  ],
  findCardBySlug: [
    {
      name: "finds no card of A's by its short link",
      run: (db, b, a) => findCardBySlug(db, b, slugBaseFromName('Avery', a.card.lastName)),
      expected: nothing,
    },
  ],
  claimDefaultSlug: [
    {
      name: "gives no card of A's a slug in B",
      run: (db, b, a) => claimDefaultSlug(db, b, a.card.id, { firstName: 'X', lastName: 'Y' }),
      // The composite foreign key refuses B's slug for A's card: the write is refused.
      expected: (_value, threw) => expect(threw).toBe(true),
    },
    {
      // Slugs are per organization: B's new card of A's card's owner's name takes the same slug.
      // One that stepped aside ("-2") would tell B that A has a card of that name.
      name: "steps aside for none of A's slugs",
      run: async (db, b, a) => {
        let slug: string | undefined
        await db
          .transaction(async (tx) => {
            const card = await createCard(tx, b, cardOfB.userId, {
              firstName: 'Avery',
              lastName: a.card.lastName,
            })
            const [row] = await tx
              .select({ slug: cardSlugs.slug })
              .from(cardSlugs)
              .where(and(eq(cardSlugs.organizationId, b), eq(cardSlugs.cardId, card.id)))
            slug = row?.slug
            // B's cards stay as the cases below count them.
            tx.rollback()
          })
          .catch((error: unknown) => {
            if (!(error instanceof TransactionRollbackError)) throw error
          })
        return slug
      },
      expected: (value) => expect(value).toBe(slugBaseFromName('Avery', a.card.lastName)),
    },
  ],
  recordGoogleWalletObject: [
    {
      name: "records no Google Wallet object for A's card in B",
      run: (db, b, a) => recordGoogleWalletObject(db, b, a.otherCard.id, 'taken-over'),
      // The composite foreign key refuses B's row for A's card.
      expected: (_value, threw) => expect(threw).toBe(true),
    },
  ],
  listGoogleWalletObjects: [
    {
      name: "lists no object of A's card, nor of A's owner, nor of A",
      run: async (db, b, a) => [
        ...(await listGoogleWalletObjects(db, b, { cardId: a.card.id })),
        ...(await listGoogleWalletObjects(db, b, { ownerId: a.user.id })),
        ...(await listGoogleWalletObjects(db, b, {})),
      ],
      expected: nothing,
    },
  ],
  markGoogleWalletObjectPatched: [
    {
      name: "marks no object of A's patched",
      run: (db, b, a) => markGoogleWalletObjectPatched(db, b, a.card.id, 'hash', new Date()),
      expected: nothing,
    },
  ],
  changeCardSlug: [
    {
      name: "retires no slug of A's and gives A's card none",
      run: (db, b, a) => changeCardSlug(db, b, a.card.id, 'taken-over'),
      expected: (_value, threw) => expect(threw).toBe(true),
    },
    {
      name: "does not hand A's slug back to A's card in B",
      run: (db, b, a) =>
        changeCardSlug(db, b, a.otherCard.id, slugBaseFromName('Avery', a.card.lastName)),
      expected: (_value, threw) => expect(threw).toBe(true),
    },
  ],
  recordCardView: [
    {
      name: "is not deduplicated against A's views (the foreign key refuses A's card under B)",
      run: (db, b, a) => recordCardView(db, b, a.card.id, a.visitor),
      expected: (_value, threw) => expect(threw).toBe(true),
    },
  ],
  recordCardViews: [
    {
      name: "writes no view of A's card under B",
      run: (db, b, a) =>
        recordCardViews(db, b, [
          { cardId: a.card.id, visitorHash: 'other', deviceClass: 'mobile', viewedAt: new Date() },
        ]),
      expected: (value) => expect(value).toBe(0),
    },
  ],
  findContactByEmail: [
    {
      name: "finds no contact of A's",
      run: (db, b, a) => findContactByEmail(db, b, a.user.id, a.contactEmail),
      expected: nothing,
    },
  ],
  addContact: [
    {
      name: "writes nothing for A's user",
      run: (db, b, a) => addContact(db, b, a.user.id, { fullName: 'X', email: 'x@example.test' }),
      expected: (_value, threw) => expect(threw).toBe(true),
    },
  ],
  listContacts: [
    {
      name: "lists none of A's contacts",
      run: (db, b, a) => listContacts(db, b, a.user.id),
      expected: nothing,
    },
    {
      name: "lists none of A's contacts through the filters",
      run: (db, b, a) =>
        listContacts(db, b, a.user.id, { search: 'Lee', source: 'lead', kind: 'company' }),
      expected: nothing,
    },
  ],
  findContactForOwner: [
    {
      name: "opens none of A's contacts by id",
      run: (db, b, a) => findContactForOwner(db, b, a.user.id, a.leadContactId),
      expected: nothing,
    },
  ],
  findLeadByDataToken: [
    {
      name: "opens no lead of A's by its receipt link",
      run: (db, b, a) => findLeadByDataToken(db, b, a.leadTokenHash),
      expected: nothing,
    },
  ],
  deleteLeadByDataToken: [
    {
      name: "deletes no lead of A's by its receipt link",
      run: (db, b, a) => deleteLeadByDataToken(db, b, a.leadTokenHash),
      expected: nothing,
    },
  ],
  insertDataExport: [
    {
      name: "makes no export of A's user in B",
      run: (db, b, a) => insertDataExport(db, b, a.user.id),
      // The composite foreign key refuses B's row for A's user.
      expected: (_value, threw) => expect(threw).toBe(true),
    },
  ],
  deleteFinishedDataExports: [
    {
      name: "deletes none of A's exports",
      run: (db, b, a) => deleteFinishedDataExports(db, b, a.user.id),
      expected: (value) => expect(value).toBe(0),
    },
  ],
  findLatestDataExport: [
    {
      name: "shows none of A's exports",
      run: (db, b, a) => findLatestDataExport(db, b, a.user.id),
      expected: nothing,
    },
  ],
  findDataExport: [
    {
      name: "finds no export of A's by id",
      run: (db, b, a) => findDataExport(db, b, a.readyExport.id),
      expected: nothing,
    },
  ],
  findDownloadableDataExport: [
    {
      name: "offers no export of A's for download",
      run: (db, b, a) => findDownloadableDataExport(db, b, a.user.id, a.readyExport.id, new Date()),
      expected: nothing,
    },
  ],
  readDataExportChunk: [
    {
      name: "reads no byte of A's zip",
      run: (db, b, a) => readDataExportChunk(db, b, a.user.id, a.readyExport.id, 0, 1024),
      expected: nothing,
    },
  ],
  startDataExport: [
    {
      name: "starts no export of A's",
      run: (db, b, a) => startDataExport(db, b, a.runningExport.id),
      expected: (value) => expect(value).toBe(false),
    },
  ],
  setDataExportProgress: [
    {
      name: "moves no export of A's on",
      run: (db, b, a) => setDataExportProgress(db, b, a.runningExport.id, 90),
      expected: nothing,
    },
  ],
  finishDataExport: [
    {
      name: "finishes no export of A's",
      run: (db, b, a) =>
        finishDataExport(db, b, a.runningExport.id, new Uint8Array([1]), new Date()),
      expected: (value) => expect(value).toBe(false),
    },
  ],
  failDataExport: [
    {
      name: "fails no export of A's",
      run: (db, b, a) => failDataExport(db, b, a.runningExport.id, 'failed in B', new Date()),
      expected: nothing,
    },
  ],
  deleteExpiredDataExports: [
    {
      name: "deletes none of A's exports, however late",
      run: (db, b) => deleteExpiredDataExports(db, b, new Date(Date.now() + 365 * 86_400_000)),
      expected: (value) => expect(value).toBe(0),
    },
  ],
  // Analytics (ADR 082): every scope of B, over a wide range, finds nothing of A's.
  cardsInScope: [
    {
      name: "scopes none of A's cards",
      run: async (db, b, a) => {
        const { digitalCards } = await import('#drizzle/schema')
        return db
          .select({ id: digitalCards.id })
          .from(digitalCards)
          .where(cardsInScope(db, b, { kind: 'user', userId: a.user.id }))
      },
      expected: nothing,
    },
  ],
  recordCardEvents: [
    {
      name: "adds no event to A's card",
      run: (db, b, a) =>
        recordCardEvents(db, b, [
          {
            cardId: a.card.id,
            hour: new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000),
            source: 'qr',
            kind: 'vcard',
            linkId: '',
            count: 1,
          },
        ]),
      expected: (value) => expect(value).toBe(0),
    },
  ],
  countCardActivity: [
    ...(['user', 'assigned', 'team', 'organization'] as const).map((kind) => ({
      name: `counts none of A's views or events (${kind} scope)`,
      run: (db: Queryable, b: string, a: TenantA) =>
        countCardActivity(db, b, scopeOf(kind, a), new Date(0), new Date(Date.now() + 86_400_000)),
      expected: nothing,
    })),
  ],
  countLinkTaps: [
    ...(['user', 'assigned', 'team', 'organization'] as const).map((kind) => ({
      name: `counts none of A's link taps (${kind} scope)`,
      run: (db: Queryable, b: string, a: TenantA) =>
        countLinkTaps(db, b, scopeOf(kind, a), new Date(0), new Date(Date.now() + 86_400_000)),
      expected: nothing,
    })),
  ],
  listCardNames: [
    {
      name: "names none of A's cards",
      run: (db, b, a) => listCardNames(db, b, [a.card.id]),
      expected: nothing,
    },
  ],
  countViewsInHours: [
    {
      name: "counts none of A's views in the hours around now",
      run: (db, b) => {
        const hour = Math.floor(Date.now() / 3_600_000) * 3_600_000
        return countViewsInHours(db, b, new Date(hour - 3_600_000), new Date(hour + 3_600_000))
      },
      expected: nothing,
    },
  ],
  lockWebhookDigestCursor: [
    {
      name: "finds no digest cursor of A's",
      run: (db, b) => lockWebhookDigestCursor(db, b, 'card.viewed'),
      expected: nothing,
    },
  ],
  saveWebhookDigestCursor: [
    {
      name: "moves no digest cursor of A's (B's own row)",
      run: (db, b) =>
        saveWebhookDigestCursor(db, b, 'card.viewed', new Date('2030-01-01T00:00:00.000Z')),
      expected: nothing,
    },
  ],
  insertWebhookEndpoint: [
    {
      name: "makes no endpoint of B in the name of A's user",
      run: (db, b, a) =>
        insertWebhookEndpoint(db, b, {
          url: 'https://b.test/',
          description: '',
          eventTypes: ['lead.created'],
          secretSealed: 'v1.x',
          createdByUserId: a.user.id,
        }),
      // The composite foreign key refuses B's row for A's user.
      expected: (_value, threw) => expect(threw).toBe(true),
    },
  ],
  listWebhookEndpoints: [
    {
      name: "lists none of A's endpoints",
      run: (db, b) => listWebhookEndpoints(db, b),
      expected: nothing,
    },
  ],
  findWebhookEndpoint: [
    {
      name: "finds no endpoint of A's by id",
      run: (db, b, a) => findWebhookEndpoint(db, b, a.webhookEndpoint.id),
      expected: nothing,
    },
  ],
  updateWebhookEndpoint: [
    {
      name: "changes no endpoint of A's",
      run: (db, b, a) =>
        updateWebhookEndpoint(db, b, a.webhookEndpoint.id, { url: 'https://evil.test/' }),
      expected: nothing,
    },
  ],
  markWebhookEndpointFailing: [
    {
      name: "marks no endpoint of A's failing",
      run: (db, b, a) => markWebhookEndpointFailing(db, b, a.webhookEndpoint.id, new Date()),
      expected: nothing,
    },
  ],
  deleteWebhookEndpoint: [
    {
      name: "deletes no endpoint of A's",
      run: (db, b, a) => deleteWebhookEndpoint(db, b, a.webhookEndpoint.id),
      expected: nothing,
    },
  ],
  listSubscribedWebhookEndpoints: [
    {
      name: "finds none of A's endpoints subscribed to leads",
      run: (db, b) => listSubscribedWebhookEndpoints(db, b, 'lead.created'),
      expected: nothing,
    },
  ],
  redactWebhookMessagesAbout: [
    {
      name: "leaves A's message about that contact as it was",
      run: (db, b, a) =>
        redactWebhookMessagesAbout(
          db,
          b,
          (a.webhookMessage.payload as { data: { id: string } }).data.id,
        ),
      expected: nothing,
    },
  ],
  redactWebhookMessagesAboutContactsOf: [
    {
      name: "leaves A's messages about its user's contacts as they were",
      run: (db, b, a) => redactWebhookMessagesAboutContactsOf(db, b, a.user.id),
      expected: nothing,
    },
  ],
  insertContactDeletedEvents: [
    {
      name: "writes no event for A's user's contacts, nor to A's subscribed endpoint",
      run: (db, b, a) =>
        insertContactDeletedEvents(db, b, a.user.id, { reason: 'account_deleted', at: new Date() }),
      expected: (value) => expect(value).toEqual({ messages: 0, deliveries: 0 }),
    },
  ],
  insertWebhookMessage: [
    {
      name: "is not stopped by A's dedupe key (B's own message)",
      run: (db, b, a) =>
        insertWebhookMessage(db, b, {
          eventType: 'card.viewed',
          payload: {},
          dedupeKey: a.webhookMessage.dedupeKey ?? '',
        }),
      expected: (value) =>
        expect((value as { organizationId: string }).organizationId).not.toBe(a.organization.id),
    },
  ],
  insertWebhookDelivery: [
    {
      name: "makes no delivery of B to A's endpoint",
      run: (db, b, a) =>
        insertWebhookDelivery(db, b, {
          endpointId: a.webhookEndpoint.id,
          messageId: a.webhookMessage.id,
          nextAttemptAt: new Date(),
        }),
      expected: (_value, threw) => expect(threw).toBe(true),
    },
  ],
  findWebhookDelivery: [
    {
      name: "finds no delivery of A's",
      run: (db, b, a) => findWebhookDelivery(db, b, a.webhookDelivery.id),
      expected: nothing,
    },
  ],
  updateWebhookDelivery: [
    {
      name: "changes no delivery of A's",
      run: (db, b, a) => updateWebhookDelivery(db, b, a.webhookDelivery.id, { status: 'failed' }),
      expected: nothing,
    },
  ],
  recordWebhookAttempt: [
    {
      name: "logs no attempt of B on A's delivery",
      run: (db, b, a) =>
        recordWebhookAttempt(db, b, { deliveryId: a.webhookDelivery.id, statusCode: 200 }),
      expected: (_value, threw) => expect(threw).toBe(true),
    },
  ],
  listWebhookDeliveries: [
    {
      name: "lists none of A's deliveries",
      run: (db, b, a) =>
        listWebhookDeliveries(db, b, { endpointId: a.webhookEndpoint.id, limit: 10, offset: 0 }),
      expected: nothing,
    },
    {
      name: "lists none of A's deliveries among all",
      run: (db, b) => listWebhookDeliveries(db, b, { limit: 10, offset: 0 }),
      expected: nothing,
    },
  ],
  countWebhookDeliveries: [
    {
      name: "counts none of A's deliveries",
      run: (db, b) => countWebhookDeliveries(db, b),
      expected: (value) => expect(value).toBe(0),
    },
  ],
  listWebhookAttempts: [
    {
      name: "lists none of A's attempts",
      run: (db, b, a) => listWebhookAttempts(db, b, [a.webhookDelivery.id]),
      expected: nothing,
    },
  ],
  countViewsPerCardAndSource: [
    {
      name: "counts none of A's views",
      run: (db, b, a) => countViewsPerCardAndSource(db, b, a.user.id),
      expected: nothing,
    },
  ],
  listAuditEventsOfActor: [
    {
      name: "lists none of A's user's events",
      run: (db, b, a) => listAuditEventsOfActor(db, b, a.user.id),
      expected: nothing,
    },
  ],
  insertConsentText: [
    {
      name: "numbers B's versions without counting A's",
      run: async (db, b) => (await insertConsentText(db, b, 'Consent of B'))?.version,
      expected: (value) => expect(value).toBe(1),
    },
  ],
  findCurrentConsentText: [
    {
      name: "shows none of A's consent texts",
      run: async (db, b, a) => {
        const found = await findCurrentConsentText(db, b)
        return found?.id === a.consentText.id ? found : undefined
      },
      expected: nothing,
    },
  ],
  listConsentTexts: [
    {
      name: "lists none of A's consent texts",
      run: async (db, b, a) =>
        (await listConsentTexts(db, b)).filter((text) => text.id === a.consentText.id),
      expected: nothing,
    },
  ],
  findConsentText: [
    {
      name: "finds none of A's consent texts by id",
      run: (db, b, a) => findConsentText(db, b, a.consentText.id),
      expected: nothing,
    },
  ],
  setContactPersonal: [
    {
      name: "marks none of A's contacts",
      run: (db, b, a) => setContactPersonal(db, b, a.user.id, a.crmContactId, true),
      expected: (value) => expect(value).toBe(false),
    },
  ],
  moveCompanyContacts: [
    {
      name: "moves none of A's contacts",
      run: (db, b, a) => moveCompanyContacts(db, b, a.user.id, a.assigned.id),
      expected: (value) => expect(value).toBe(0),
    },
  ],
  setSeatSuccessor: [
    {
      name: "names no successor for A's user",
      run: (db, b, a) => setSeatSuccessor(db, b, a.user.id, a.assigned.id, null),
      expected: (_value, threw) => expect(threw).toBe(true),
    },
  ],
  listSeatSuccessors: [
    {
      name: "lists none of A's handed-over seats",
      run: (db, b) => listSeatSuccessors(db, b),
      expected: nothing,
    },
  ],
  clearSeatSuccessor: [
    {
      name: "clears no successor of A's user",
      run: (db, b, a) => clearSeatSuccessor(db, b, a.user.id),
      expected: nothing,
    },
  ],
  findSeatSuccessorCard: [
    {
      name: "finds no successor of A's user",
      run: (db, b, a) => findSeatSuccessorCard(db, b, a.user.id),
      expected: nothing,
    },
  ],
  findSuccessorCard: [
    {
      name: "finds none of A's users as a successor",
      run: (db, b, a) => findSuccessorCard(db, b, a.assigned.id),
      expected: nothing,
    },
  ],
  scheduleAccountDeletion: [
    {
      name: "schedules no deletion of A's user",
      run: (db, b, a) => scheduleAccountDeletion(db, b, a.user.id, new Date()),
      expected: (_value, threw) => expect(threw).toBe(true),
    },
  ],
  findAccountDeletion: [
    {
      name: "finds none of A's pending deletions",
      run: (db, b, a) => findAccountDeletion(db, b, a.second.id),
      expected: nothing,
    },
  ],
  cancelAccountDeletion: [
    {
      name: "cancels none of A's pending deletions",
      run: (db, b, a) => cancelAccountDeletion(db, b, a.second.id),
      expected: nothing,
    },
  ],
  listPendingDeletionUserIds: [
    {
      name: "lists none of A's pending deletions",
      run: async (db, b, a) =>
        (await listPendingDeletionUserIds(db, b)).filter((id) => id === a.second.id),
      expected: nothing,
    },
  ],
  listOverdueAccountDeletions: [
    {
      name: "lists none of A's pending deletions as overdue",
      run: async (db, b, a) =>
        (await listOverdueAccountDeletions(db, b, new Date(Date.now() + 10 * 86_400_000))).filter(
          (row) => row.userId === a.second.id,
        ),
      expected: nothing,
    },
  ],
  listAccountAddresses: [
    {
      name: "lists none of A's cards, slugs or name links",
      run: (db, b, a) => listAccountAddresses(db, b, a.user.id),
      expected: nothing,
    },
    {
      name: "lists no slug of A's naming B's card",
      run: (db, b) => listAccountAddresses(db, b, cardOfB.userId),
      expected: (value) => {
        // B's own card is listed: the lookup reached the slugs.
        expect(value).toContainEqual({ kind: 'card', address: cardOfB.id })
        expect((value as { address: string }[]).map((entry) => entry.address)).not.toContain(
          slugOfAOnCardOfB,
        )
      },
    },
  ],
  recordDepartedAddresses: [
    {
      name: "records nothing in A (B's own row, A's untouched)",
      run: (db, b, a) =>
        recordDepartedAddresses(
          db,
          b,
          [{ kind: 'slug', address: `${a.departedSlug}-b` }],
          null,
          new Date(Date.now() + 86_400_000),
        ),
      expected: (value) => expect(value).toBe(1),
    },
  ],
  findDepartedAddress: [
    {
      name: "finds none of A's departed addresses",
      run: (db, b, a) => findDepartedAddress(db, b, ['slug'], a.departedSlug),
      expected: nothing,
    },
  ],
  listHeldDepartedSlugs: [
    {
      name: "holds none of A's departed slugs (ADR 058)",
      run: (db, b, a) => listHeldDepartedSlugs(db, b, { exactly: a.departedSlug }),
      expected: (value) => expect(value).toEqual(new Set()),
    },
    {
      name: "holds none of A's departed slugs by their start",
      run: (db, b, a) => listHeldDepartedSlugs(db, b, { startingWith: a.departedSlug }),
      expected: (value) =>
        expect([...(value as Set<string>)].some((slug) => !slug.endsWith('-b'))).toBe(false),
    },
  ],
  deleteUnreferencedUploadsOf: [
    {
      name: "deletes none of A's images",
      run: (db, b, a) => deleteUnreferencedUploadsOf(db, b, a.second.id),
      expected: (value) => expect(value).toBe(0),
    },
  ],
  listSuccessorChoices: [
    {
      name: "lists none of A's end users",
      // B has end users of its own: none of them may be A's.
      run: async (db, b, a) =>
        (await listSuccessorChoices(db, b)).filter((row) =>
          [a.user.id, a.assigned.id, a.second.id].includes(row.id),
        ),
      expected: nothing,
    },
  ],
  storeMedia: [
    {
      name: "returns B's own row for an image A also has, never A's",
      run: async (db, b, a) => {
        const stored = await storeMedia(db, b, png(a.sharedImage))
        // The second upload of the same bytes reads the existing row back: it must be B's.
        const again = await storeMedia(db, b, png(a.sharedImage))
        return [stored.id, again.id].filter((id) => id === a.sharedMedia.id)
      },
      expected: nothing,
    },
  ],
  getMediaByHash: [
    {
      name: "serves none of A's images",
      run: (db, b, a) => getMediaByHash(db, b, a.ownMedia.hash),
      expected: nothing,
    },
  ],
  hasMediaWithHash: [
    {
      name: "finds none of A's images by their hash",
      run: (db, b, a) => hasMediaWithHash(db, b, a.ownMedia.hash),
      expected: (value) => expect(value).toBe(false),
    },
  ],
  mediaUsage: [
    {
      name: "counts none of A's images, for B or for A's user",
      run: async (db, b, a) => {
        const usage = await mediaUsage(db, b, a.user.id)
        // B's own bytes, counted here without the model: the image beforeAll stored for B.
        const [own] = await db
          .select({ bytes: sql<string>`coalesce(sum(${media.byteSize}), 0)::text` })
          .from(media)
          .where(eq(media.organizationId, b))
        return { ...usage, ownBytes: Number(own?.bytes) }
      },
      expected: (value) => {
        const { tenantBytes, userBytes, ownBytes } = value as Record<string, number>
        expect(ownBytes).toBeGreaterThan(0)
        expect({ tenantBytes, userBytes }).toEqual({ tenantBytes: ownBytes, userBytes: 0 })
      },
    },
  ],
  sweepUnreferencedMedia: [
    {
      name: "marks and deletes none of A's unreferenced images",
      // A cutoff in the future: B's unreferenced images go at once; A's must stay untouched.
      run: (db, b) => sweepUnreferencedMedia(db, b, new Date(Date.now() + 86_400_000)),
      expected: () => {},
    },
  ],
  getMediaPath: [
    {
      name: "gives no path of A's images",
      run: (db, b, a) => getMediaPath(db, b, a.ownMedia.id),
      expected: nothing,
    },
  ],
  getMediaBytes: [
    {
      name: "gives no bytes of A's images",
      run: (db, b, a) => getMediaBytes(db, b, a.ownMedia.id),
      expected: nothing,
    },
  ],
  findBrandingImagePaths: [
    {
      name: "gives no path of A's images named as B's logo and favicon",
      run: async (db, b, a) => {
        const paths = await findBrandingImagePaths(db, b, {
          logoMediaId: a.ownMedia.id,
          faviconMediaId: a.sharedMedia.id,
        })
        return [paths.logoPath, paths.faviconPath].filter(Boolean)
      },
      expected: nothing,
    },
  ],
  setOrganizationBrandingImages: [
    {
      name: "changes only B's own organization",
      run: (db, b) => setOrganizationBrandingImages(db, b, { logoMediaId: null }),
      expected: nothing,
    },
  ],
  // The agency functions act on the organization named: B's (or a spare one), never A.
  findAgency: [{ name: 'finds B only', run: (db, b) => findAgency(db, b), expected: isB() }],
  updateAgency: [
    {
      name: "changes only B's own organization",
      run: (db, b) =>
        updateAgency(db, b, {
          name: 'B renamed',
          slug: `b-${uniqueSuffix()}`,
          ownerName: 'B Owner',
          contactEmail: 'b@example.test',
          subscriptionTier: 'starter',
          status: 'active',
        }),
      expected: isB(),
    },
  ],
  setAgencyStatus: [
    {
      name: "changes only B's own organization",
      run: (db, b) => setAgencyStatus(db, b, 'active'),
      expected: isB(),
    },
  ],
  setAgencyApproval: [
    {
      name: "changes only B's own organization",
      run: (db, b) => setAgencyApproval(db, b, 'approved'),
      expected: isB(),
    },
  ],
  deleteAgency: [
    {
      name: 'deletes only the organization named (a spare one, B is needed after)',
      run: async (db) => {
        const spare = await makeOrganization()
        return (await deleteAgency(db, spare.id))?.id === spare.id
      },
      expected: (value) => expect(value).toBe(true),
    },
  ],
  insertOutboxEmail: [
    {
      name: 'writes to B only',
      run: (db, b) =>
        insertOutboxEmail(db, b, { to: 'b@example.test', subject: 'B', html: 'B', text: 'B' }),
      // B's new email (its id); A's checksum shows nothing of A changed.
      expected: (value, threw) => expect([typeof value, threw]).toEqual(['string', false]),
    },
  ],
  findOutboxEmail: [
    {
      name: "finds none of A's emails",
      run: (db, b, a) => findOutboxEmail(db, b, a.outboxId),
      expected: nothing,
    },
  ],
  listOutboxLinksTo: [
    {
      name: "finds none of A's emails with a lead's link",
      run: (db, b, a) => listOutboxLinksTo(db, b, a.user.email, 'lead-data'),
      expected: nothing,
    },
  ],
  deleteOutboxEmails: [
    {
      name: "deletes none of A's emails",
      run: (db, b, a) => deleteOutboxEmails(db, b, [a.outboxId]),
      expected: (value) => expect(value).toBe(0),
    },
  ],
  markOutboxEmailSent: [
    {
      name: "marks none of A's emails",
      run: (db, b, a) => markOutboxEmailSent(db, b, a.outboxId, 'provider-id', 'x@example.test'),
      expected: nothing,
    },
  ],
  findSendingDomain: [
    {
      name: "finds none of A's sending domain",
      run: (db, b) => findSendingDomain(db, b),
      expected: nothing,
    },
  ],
  findVerifiedSenderAddress: [
    {
      name: "never answers A's verified address",
      run: (db, b) => findVerifiedSenderAddress(db, b),
      expected: nothing,
    },
  ],
  reserveSendingDomain: [
    {
      name: "cannot take A's domain",
      run: (db, b, a) => reserveSendingDomain(db, b, a.sendingDomain, 'x'),
      expected: (_value, threw) => expect(threw).toBe(true),
    },
  ],
  recordSendingDomainState: [
    {
      name: "changes nothing of A's registration",
      run: (db, b, a) =>
        recordSendingDomainState(db, b, a.providerDomainId, {
          status: 'failed',
          records: [],
          verifiedAt: null,
          lostAt: new Date(),
          checkedAt: new Date(),
        }),
      expected: (value) => expect(value).toBe(false),
    },
  ],
  completeSendingDomainRegistration: [
    {
      // A's domain made to wait on the provider again for the call, so only the organization
      // filter stands between it and B's completion; then put back exactly as it was.
      name: "completes nothing of A's registration",
      run: async (db, b, a) => {
        const ofA = eq(sendingDomains.organizationId, a.organization.id)
        const [before] = await db.select().from(sendingDomains).where(ofA)
        if (!before) throw new Error('A has no sending domain')
        await db.update(sendingDomains).set({ status: REGISTERING }).where(ofA)
        await completeSendingDomainRegistration(db, b, 'taken-over', { status: 'x', records: [] })
        const [after] = await db
          .select({ providerDomainId: sendingDomains.providerDomainId })
          .from(sendingDomains)
          .where(ofA)
        await db
          .update(sendingDomains)
          .set({ status: before.status, updatedAt: before.updatedAt })
          .where(ofA)
        return after?.providerDomainId
      },
      expected: (value) => expect(value).toBe(a.providerDomainId),
    },
  ],
  deleteSendingDomain: [
    { name: "deletes none of A's", run: (db, b) => deleteSendingDomain(db, b), expected: nothing },
  ],
  deleteUnverifiedSendingDomain: [
    {
      // A's registration made unverified for the call, so only the organization filter stands
      // between it and B's delete; then put back exactly as it was.
      name: "deletes none of A's unverified registration",
      run: async (db, b, a) => {
        const ofA = eq(sendingDomains.organizationId, a.organization.id)
        const [before] = await db.select().from(sendingDomains).where(ofA)
        await db.update(sendingDomains).set({ verifiedAt: null }).where(ofA)
        const deleted = await deleteUnverifiedSendingDomain(db, b, a.providerDomainId)
        if (before) {
          await db
            .update(sendingDomains)
            .set({ verifiedAt: before.verifiedAt, updatedAt: before.updatedAt })
            .where(ofA)
        }
        return deleted
      },
      expected: nothing,
    },
  ],
  recordOutboxEmailFailure: [
    {
      name: "records nothing on A's emails",
      run: (db, b, a) => recordOutboxEmailFailure(db, b, a.outboxId, 'x', true),
      expected: nothing,
    },
  ],
  findApiSettings: [
    {
      name: "finds none of A's settings",
      run: (db, b, a) => findApiSettings(db, b, a.user.id),
      expected: nothing,
    },
  ],
  saveApiSettings: [
    {
      name: "writes no settings for A's user",
      run: (db, b, a) =>
        saveApiSettings(db, b, a.user.id, {
          sealedKey: null,
          keyLast4: null,
          locationId: null,
          enabled: false,
          validatedAt: null,
        }),
      expected: (_value, threw) => expect(threw).toBe(true),
    },
  ],
  setCrmEnabled: [
    {
      name: "switches nothing of A's",
      run: (db, b, a) => setCrmEnabled(db, b, a.user.id, false, 'hubspot'),
      expected: nothing,
    },
  ],
  saveHubspotSettings: [
    {
      name: "writes no HubSpot token for A's user",
      run: (db, b, a) =>
        saveHubspotSettings(db, b, a.user.id, {
          sealedToken: 'v1.sealed.for.b',
          tokenLast4: 'BBBB',
          enabled: true,
          validatedAt: null,
          provider: 'hubspot',
        }),
      expected: (_value, threw) => expect(threw).toBe(true),
    },
  ],
  saveSalesforceSettings: [
    {
      name: "writes no Salesforce credentials for A's user",
      run: (db, b, a) =>
        saveSalesforceSettings(db, b, a.user.id, {
          instanceUrl: 'https://b.my.salesforce.com',
          clientId: 'b',
          sealedSecret: 'v1.sealed.for.b',
          secretLast4: 'BBBB',
          enabled: true,
          validatedAt: null,
          provider: 'salesforce',
        }),
      expected: (_value, threw) => expect(threw).toBe(true),
    },
  ],
  resealCrmSecrets: [
    {
      name: "reseals none of A's secrets",
      run: (db, b, a) =>
        resealCrmSecrets(db, b, a.user.id, { gohighlevelApiKeyEncrypted: 'v1.sealed.for.b' }),
      expected: nothing,
    },
  ],
  insertCrmSync: [
    {
      name: "adds no sync for A's contact",
      run: (db, b, a) => insertCrmSync(db, b, a.user.id, a.crmContactId),
      expected: (_value, threw) => expect(threw).toBe(true),
    },
  ],
  findCrmSync: [
    {
      name: "finds none of A's syncs",
      run: (db, b, a) => findCrmSync(db, b, a.crmContactId),
      expected: nothing,
    },
  ],
  markCrmSynced: [
    {
      name: "marks none of A's syncs",
      run: (db, b, a) => markCrmSynced(db, b, a.crmContactId, 'crm-1'),
      expected: nothing,
    },
  ],
  recordCrmContactId: [
    {
      name: "records no CRM id on A's syncs",
      run: (db, b, a) => recordCrmContactId(db, b, a.crmContactId, 'crm-b', 'hubspot'),
      expected: nothing,
    },
  ],
  recordCrmSyncFailure: [
    {
      name: "records nothing on A's syncs",
      run: (db, b, a) => recordCrmSyncFailure(db, b, a.crmContactId, 'x', false),
      expected: nothing,
    },
  ],
  resetFailedCrmSync: [
    {
      name: "resets none of A's failed syncs",
      run: async (db, b, a) =>
        (await resetFailedCrmSync(db, b, a.user.id, a.crmContactId)) ? 'reset' : undefined,
      expected: nothing,
    },
  ],
  listCrmSyncs: [
    {
      name: "lists none of A's syncs",
      run: (db, b, a) => listCrmSyncs(db, b, a.user.id),
      expected: nothing,
    },
  ],
  findContactForSync: [
    {
      name: "finds none of A's contacts",
      run: (db, b, a) => findContactForSync(db, b, a.crmContactId),
      expected: nothing,
    },
  ],
  listOutboxForOrganization: [
    {
      name: "lists none of A's emails",
      run: async (db, b) =>
        (await listOutboxForOrganization(db, b)).filter((e) => e.subject === 'For A only'),
      expected: nothing,
    },
  ],
  insertPasswordResetToken: [
    {
      name: "retires no token of A's",
      run: (db, b, a) => insertPasswordResetToken(db, b, a.user.id, `new-${uniqueSuffix()}`),
      expected: (_value, threw) => expect(threw).toBe(true),
    },
  ],
  findUsableResetToken: [
    {
      name: "accepts no token of A's",
      run: (db, b, a) => findUsableResetToken(db, b, a.tokenHash),
      expected: nothing,
    },
  ],
  consumeResetToken: [
    {
      name: "consumes no token of A's",
      run: (db, b, a) => consumeResetToken(db, b, a.tokenHash),
      expected: nothing,
    },
  ],
  insertEmailConfirmationToken: [
    {
      name: "retires no token of A's",
      run: (db, b, a) =>
        insertEmailConfirmationToken(db, b, a.user.id, a.user.email, `new-${uniqueSuffix()}`),
      expected: (_value, threw) => expect(threw).toBe(true),
    },
  ],
  retireEmailConfirmationTokens: [
    {
      name: "deletes no token of A's",
      run: (db, b, a) => retireEmailConfirmationTokens(db, b, a.user.id),
      expected: nothing,
    },
  ],
  findUsableConfirmationToken: [
    {
      name: "accepts no token of A's",
      run: (db, b, a) => findUsableConfirmationToken(db, b, a.confirmationHash),
      expected: nothing,
    },
  ],
  consumeConfirmationToken: [
    {
      name: "consumes no token of A's",
      run: (db, b, a) => consumeConfirmationToken(db, b, a.confirmationHash),
      expected: nothing,
    },
  ],
  markEmailConfirmed: [
    {
      name: "confirms no email of A's",
      run: (db, b, a) => markEmailConfirmed(db, b, a.user.id, a.user.email),
      expected: nothing,
    },
  ],
  insertSession: [
    {
      name: "makes no session for A's user",
      run: (db, b, a) =>
        insertSession(db, b, {
          id: `s-${uniqueSuffix()}`,
          userId: a.user.id,
          expiresAt: new Date(),
          twoFactorVerified: true,
        }),
      expected: (_value, threw) => expect(threw).toBe(true),
    },
  ],
  findSessionWithUser: [
    {
      name: "finds no session of A's",
      run: (db, b, a) => findSessionWithUser(db, b, a.sessionId),
      expected: nothing,
    },
  ],
  extendSession: [
    {
      name: "extends no session of A's",
      run: (db, b, a) => extendSession(db, b, a.sessionId, new Date(Date.now() + 1e10)),
      expected: nothing,
    },
  ],
  deleteSession: [
    {
      name: "ends no session of A's",
      run: (db, b, a) => deleteSession(db, b, a.sessionId),
      expected: nothing,
    },
  ],
  deleteUserSessions: [
    {
      name: "ends no session of A's user",
      run: (db, b, a) => deleteUserSessions(db, b, a.user.id),
      expected: nothing,
    },
  ],
  setTwoFactor: [
    {
      name: "gives A's user no authenticator",
      run: (db, b, a) =>
        setTwoFactor(db, b, a.user.id, { totpKeySealed: 'sealed', recoveryCodeHashes: ['h'] }),
      expected: nothing,
    },
  ],
  setRecoveryCodes: [
    {
      name: "replaces no recovery code of A's user",
      run: (db, b, a) => setRecoveryCodes(db, b, a.user.id, ['h']),
      expected: nothing,
    },
  ],
  clearTwoFactor: [
    {
      name: "turns off no authenticator of A's user",
      run: (db, b, a) => clearTwoFactor(db, b, a.user.id),
      expected: nothing,
    },
  ],
  consumeRecoveryCode: [
    {
      name: "uses no recovery code of A's user",
      run: (db, b, a) => consumeRecoveryCode(db, b, a.user.id, 'a-recovery-hash'),
      expected: (value) => expect(value).toBe(false),
    },
  ],
  findBillingAccount: [
    {
      name: "finds no billing account of A's user",
      run: (db, b, a) => findBillingAccount(db, b, a.user.id),
      expected: nothing,
    },
  ],
  findAgencyBillingAccount: [
    {
      name: "finds no agency billing account of A's",
      run: (db, b) => findAgencyBillingAccount(db, b),
      expected: nothing,
    },
  ],
  lockBillingAccount: [
    {
      name: "locks no billing account of A's by its id",
      run: (db, b, a) => lockBillingAccount(db, b, a.seatBilling.id),
      expected: nothing,
    },
  ],
  lockBillingAccountOfCustomer: [
    {
      name: "finds no billing account of A's Stripe customer",
      run: (db, b, a) => lockBillingAccountOfCustomer(db, b, a.stripeCustomerId),
      expected: nothing,
    },
  ],
  saveBillingSubscription: [
    {
      name: "gives A's account no subscription",
      run: (db, b, a) =>
        saveBillingSubscription(db, b, a.seatBilling.id, {
          stripeSubscriptionId: 'sub_intruder',
          plan: 'free',
          status: 'canceled',
          graceEndsAt: null,
        }),
      expected: nothing,
    },
  ],
  hasOtherLiveAgencyPro: [
    {
      name: "sees no account of A's",
      run: (db, b) => hasOtherLiveAgencyPro(db, b, '00000000-0000-0000-0000-000000000000'),
      expected: (value) => expect(value).toBe(false),
    },
  ],
  markSubscriptionRead: [
    {
      name: "dates no read of A's account",
      run: (db, b, a) => markSubscriptionRead(db, b, a.seatBilling.id, new Date(Date.now() + 1e9)),
      expected: nothing,
    },
  ],
  saveBillingCustomer: [
    {
      name: "gives A's user no customer",
      run: (db, b, a) => saveBillingCustomer(db, b, { seatUserId: a.user.id }, 'cus_intruder'),
      expected: (_value, threw) => expect(threw).toBe(true),
    },
  ],
  insertStripeEvent: [
    {
      name: "takes no event id of A's (a replay under B is ignored)",
      run: (db, b, a) =>
        insertStripeEvent(db, b, {
          id: a.stripeEventId,
          type: 'customer.subscription.deleted',
          data: { userId: a.user.id },
          occurredAt: new Date(),
        }),
      expected: (value) => expect(value).toBe(false),
    },
  ],
  findUnhandledStripeEvent: [
    {
      name: "finds none of A's Stripe events",
      run: (db, b, a) => findUnhandledStripeEvent(db, b, a.stripeEventId),
      expected: nothing,
    },
  ],
  markStripeEventHandled: [
    {
      name: "marks none of A's Stripe events handled",
      run: (db, b, a) => markStripeEventHandled(db, b, a.stripeEventId),
      expected: nothing,
    },
  ],
  listPasskeys: [
    {
      name: "lists none of A's passkeys",
      run: (db, b, a) => listPasskeys(db, b, a.user.id),
      expected: nothing,
    },
  ],
  insertPasskey: [
    {
      name: "adds no passkey to A's user",
      run: (db, b, a) =>
        insertPasskey(db, b, a.user.id, {
          credentialId: `new-${uniqueSuffix()}`,
          publicKey: Buffer.from([4]),
          counter: 0,
          transports: [],
          name: 'Intruder',
        }),
      expected: (_value, threw) => expect(threw).toBe(true),
    },
  ],
  findUserPasskey: [
    {
      name: "finds none of A's passkeys",
      run: (db, b, a) => findUserPasskey(db, b, a.user.id, a.passkeyCredentialId),
      expected: nothing,
    },
  ],
  recordPasskeyUse: [
    {
      name: "moves no counter of A's",
      run: (db, b, a) => recordPasskeyUse(db, b, a.passkey.id, 99),
      expected: nothing,
    },
  ],
  renamePasskey: [
    {
      name: "renames no passkey of A's",
      run: (db, b, a) => renamePasskey(db, b, a.user.id, a.passkey.id, 'Taken'),
      expected: (value) => expect(value).toBe(false),
    },
  ],
  deletePasskey: [
    {
      name: "removes no passkey of A's",
      run: (db, b, a) => deletePasskey(db, b, a.user.id, a.passkey.id),
      expected: nothing,
    },
  ],
  setSessionChallenge: [
    {
      name: "puts no challenge on A's session",
      run: (db, b, a) => setSessionChallenge(db, b, a.sessionId, 'x', new Date(Date.now() + 1e6)),
      expected: nothing,
    },
  ],
  consumeSessionChallenge: [
    {
      name: "uses no challenge of A's session",
      run: (db, b, a) => consumeSessionChallenge(db, b, a.sessionId, 'authenticate:a-challenge'),
      expected: (value) => expect(value).toBe(false),
    },
  ],
  markSessionTwoFactorVerified: [
    {
      name: "verifies no session of A's",
      run: (db, b, a) => markSessionTwoFactorVerified(db, b, a.sessionId),
      expected: nothing,
    },
  ],
  markSessionEnrolmentEmailConfirmed: [
    {
      name: "confirms no enrolment email on A's session",
      run: (db, b, a) => markSessionEnrolmentEmailConfirmed(db, b, a.sessionId),
      expected: nothing,
    },
  ],
  isSessionChallengeLive: [
    {
      name: "finds no live challenge of A's session",
      run: (db, b) => isSessionChallengeLive(db, b, 'authenticate:a-challenge'),
      expected: (value) => expect(value).toBe(false),
    },
  ],
  ...Object.fromEntries(
    (
      [
        [
          'countCards',
          // B's own card (cardOfB) counts in its organization's scope.
          async (db, b, scope) =>
            (await countCards(db, b, scope)) - (scope.kind === 'organization' ? 1 : 0),
          0,
        ],
        [
          'countContactsByWeek',
          (db, b, scope) => countContactsByWeek(db, b, scope, new Date()),
          { current: 0, previous: 0 },
        ],
        [
          'countViewsByWeek',
          (db, b, scope) => countViewsByWeek(db, b, scope, new Date()),
          { current: 0, previous: 0 },
        ],
        [
          'countViewsBySourcePerDay',
          async (db, b, scope) =>
            (await countViewsBySourcePerDay(db, b, scope, new Date())).filter(
              (day) => day.views > 0 || Object.keys(day.sources).length > 0,
            ),
          [],
        ],
      ] as [string, (db: Queryable, b: string, scope: StatsScope) => Promise<unknown>, unknown][]
    ).map(([fn, count, none]) => [
      fn,
      (['user', 'assigned', 'organization'] as const).map((kind) => ({
        name: `counts nothing of A's for the ${kind} scope`,
        run: (db: Queryable, b: string, a: TenantA) =>
          count(
            db,
            b,
            kind === 'user'
              ? { kind, userId: a.user.id }
              : kind === 'assigned'
                ? { kind, teamAdminId: a.teamAdmin.id }
                : { kind },
          ),
        expected: (value: unknown) => expect(value).toEqual(none),
      })),
    ]),
  ),
  listCardScans: [
    {
      name: "lists none of the views of A's cards",
      run: (db, b, a) => listCardScans(db, b, a.user.id),
      expected: nothing,
    },
  ],
  listOrganizationTeams: [
    {
      name: "lists none of A's teams",
      // B has a team of its own (see findTeamWithPlan): only A's must be missing.
      run: async (db, b, a) =>
        (await listOrganizationTeams(db, b)).filter((team) => team.id === a.team.id),
      expected: nothing,
    },
  ],
  listOrganizationTeamsPage: [
    {
      name: "lists none of A's teams on B's API pages",
      // B has a team of its own (see findTeamWithPlan): only A's must be missing.
      run: async (db, b, a) =>
        (await listOrganizationTeamsPage(db, b, { limit: 200 })).filter(
          (team) => team.id === a.team.id,
        ),
      expected: nothing,
    },
  ],
  listAssignedEndUsers: [
    {
      name: "lists none of A's assigned end users, searched or not",
      run: async (db, b, a) => [
        ...(await listAssignedEndUsers(db, b, a.teamAdmin.id)),
        ...(await listAssignedEndUsers(db, b, a.teamAdmin.id, 'assigned')),
      ],
      expected: nothing,
    },
  ],
  selectAssignedEndUserIds: [
    {
      name: "selects none of A's assigned end users",
      run: (db, b, a) => selectAssignedEndUserIds(db, b, a.teamAdmin.id),
      expected: nothing,
    },
  ],
  countAssignedEndUsers: [
    {
      name: "counts none of A's assigned end users",
      run: (db, b, a) => countAssignedEndUsers(db, b, a.teamAdmin.id),
      expected: (value) => expect(value).toBe(0),
    },
  ],
  endUserFigures: [
    {
      name: "counts and lists none of A's cards, contacts, views, card changes or teammates",
      run: (db, b, a) => endUserFigures(db, b, a.user.id, new Date()),
      expected: (value) =>
        expect(value).toEqual({
          cards: 0,
          contacts: { current: 0, previous: 0 },
          views: { current: 0, previous: 0 },
          activity: [],
          teamMembers: 0,
          inTeam: false,
        }),
    },
  ],
  listOrganizationActivity: [
    {
      name: "lists none of A's accounts or cards (B's own may show)",
      run: async (db, b, a) => {
        const mine = [a.user.id, a.second.id, a.teamAdmin.id, a.card.id, a.otherCard.id]
        return (await listOrganizationActivity(db, b, 100)).filter(
          (item) => mine.includes(item.id) || item.subject?.includes(a.user.lastName),
        )
      },
      expected: nothing,
    },
  ],
  listAssignedEndUsersActivity: [
    {
      name: "lists nothing of A's team member's end users, their cards, views or contacts",
      run: (db, b, a) => listAssignedEndUsersActivity(db, b, a.teamAdmin.id, 100),
      expected: nothing,
    },
  ],
  countUserViewsBySourcePerDay: [
    {
      name: "counts none of the views of A's user's cards, by source or in all",
      run: async (db, b, a) =>
        (await countUserViewsBySourcePerDay(db, b, a.user.id, new Date())).filter(
          (day) => day.views > 0 || Object.keys(day.sources).length > 0,
        ),
      expected: nothing,
    },
  ],
  countCardViewsBySource: [
    {
      name: "lists no card of A's with its views by source",
      run: (db, b, a) => countCardViewsBySource(db, b, a.user.id, new Date()),
      expected: nothing,
    },
  ],
  countOrganizationPeople: [
    {
      name: "counts none of A's people",
      run: (db, b) => countOrganizationPeople(db, b),
      expected: (value) => expect(value).toEqual({ endUsers: 1, teamMembers: 0 }),
    },
  ],
  getUserPreferences: [
    {
      name: "reads none of A's preferences",
      run: (db, b, a) => getUserPreferences(db, b, a.user.id),
      expected: (value) => expect(value).toEqual({}),
    },
  ],
  getOrganizationPreferences: [
    {
      name: "reads none of A's organization settings",
      run: (db, b) => getOrganizationPreferences(db, b),
      expected: (value) => expect(value).toEqual({}),
    },
  ],
  saveOrganizationPreferences: [
    {
      name: "merges none of A's settings and changes none of A's",
      run: async (db, b) => {
        await saveOrganizationPreferences(db, b, { autoApprove: true })
        return getOrganizationPreferences(db, b)
      },
      expected: (value) => expect(value).toEqual({ autoApprove: true }),
    },
  ],
  findDomainRow: [
    {
      name: "reads B's domain row, not A's",
      run: async (db, b) => (await findDomainRow(db, b))?.token ?? null,
      expected: (value) => expect(value).toBeNull(),
    },
  ],
  isDomainTaken: [
    {
      name: 'does not count B itself as another holder',
      run: async (db, b) => {
        await setCustomDomain(db, b, 'b-isolation.example.test', 'token-b')
        const taken = await isDomainTaken(db, 'b-isolation.example.test', b)
        await setCustomDomain(db, b, null, null)
        return taken
      },
      expected: (value) => expect(value).toBe(false),
    },
  ],
  setCustomDomain: [
    {
      name: 'sets B only',
      run: async (db, b, a) => {
        await setCustomDomain(db, b, 'b-set.example.test', 'token-b')
        const ofA = (await findDomainRow(db, a.organization.id))?.domain
        await setCustomDomain(db, b, null, null)
        return ofA
      },
      expected: (value) => expect(value).not.toBe('b-set.example.test'),
    },
  ],
  recordDomainCheck: [
    {
      // Given A's pending claim's own domain and token, so only the organization filter stands
      // between B's check and A's claim; the claim is ended again afterwards.
      name: "records nothing on A's claim, even given its domain and token",
      run: async (db, b, a) => {
        await setCustomDomain(db, a.organization.id, 'a-domain.example.test', 'token-a')
        const recorded = await recordDomainCheck(
          db,
          b,
          { domain: 'a-domain.example.test', token: 'token-a' },
          { verifiedAt: new Date(), lostAt: null, checkedAt: new Date() },
        )
        const verifiedAt = (await findDomainRow(db, a.organization.id))?.verifiedAt
        await setCustomDomain(db, a.organization.id, null, null)
        return { recorded, verifiedAt }
      },
      expected: (value) => expect(value).toEqual({ recorded: false, verifiedAt: null }),
    },
  ],
  releaseDomainClaim: [
    {
      name: "releases nothing of A's claim",
      run: async (db, b, a) => {
        await setCustomDomain(db, a.organization.id, 'a-claim.example.test', 'token-a')
        const released = await releaseDomainClaim(db, b, {
          domain: 'a-claim.example.test',
          token: 'token-a',
        })
        const kept = (await findDomainRow(db, a.organization.id))?.domain
        await setCustomDomain(db, a.organization.id, null, null)
        return { released, kept }
      },
      expected: (value) => expect(value).toEqual({ released: false, kept: 'a-claim.example.test' }),
    },
  ],
  // By design this one changes other organizations' rows: the pending claims B's verification
  // beat. It must never end A's verified claim, nor a claim on another name.
  releaseClaimsBeatenBy: [
    {
      name: "ends none of A's verified claim or claims on other names",
      run: async (db, b, a) => {
        await setCustomDomain(db, a.organization.id, 'a-verified.example.test', 'token-a')
        await recordDomainCheck(
          db,
          a.organization.id,
          { domain: 'a-verified.example.test', token: 'token-a' },
          { verifiedAt: new Date(), lostAt: null, checkedAt: new Date() },
        )
        const beaten = [
          ...(await releaseClaimsBeatenBy(db, b, 'a-verified.example.test')),
          ...(await releaseClaimsBeatenBy(db, b, 'b-only.example.test')),
        ]
        const kept = (await findDomainRow(db, a.organization.id))?.domain
        await setCustomDomain(db, a.organization.id, null, null)
        return { beaten, kept }
      },
      expected: (value) => expect(value).toEqual({ beaten: [], kept: 'a-verified.example.test' }),
    },
  ],
  // SAML (ADR 090): B's calls name A's provider and A's pending request.
  insertSamlProvider: [
    {
      name: "adds B's provider only, none of A's",
      run: async (db, b, a) => {
        const added = await insertSamlProvider(db, b, samlValues('B only'))
        const ofA = (await samlProvidersOf(db, a.organization.id)).filter((row) => row === 'B only')
        // B is left as it was, for the cases that list B's providers.
        await deleteSsoProvider(db, b, added.id)
        return ofA
      },
      expected: nothing,
    },
  ],
  updateSamlProvider: [
    {
      name: "changes no provider of A's",
      run: (db, b) => updateSamlProvider(db, b, samlA.providerId, samlValues('Renamed by B')),
      expected: nothing,
    },
  ],
  rememberSamlRequest: [
    {
      name: "deletes none of A's requests, and cannot file one under A's provider",
      run: async (db, b, a) => {
        const { providerId, requestId } = samlA
        const filed = await attempt(() =>
          rememberSamlRequest(db, b, {
            id: `_b-${uniqueSuffix()}`,
            providerId,
            createdAt: new Date(),
            staleBefore: new Date(Date.now() + 60_000),
          }),
        )
        return {
          threw: filed.threw,
          kept: await findSamlRequestCreatedAt(db, a.organization.id, providerId, requestId),
        }
      },
      expected: (value) => expect(value).toMatchObject({ threw: true, kept: expect.any(Date) }),
    },
  ],
  findSamlRequestCreatedAt: [
    {
      name: "finds none of A's requests",
      run: async (db, b) => findSamlRequestCreatedAt(db, b, samlA.providerId, samlA.requestId),
      expected: (value) => expect(value).toBeNull(),
    },
  ],
  consumeSamlRequest: [
    {
      name: "consumes none of A's requests",
      run: async (db, b, a) => {
        const { providerId, requestId } = samlA
        const consumed = await consumeSamlRequest(db, b, providerId, {
          id: requestId,
          sentAfter: new Date(0),
        })
        return {
          consumed,
          kept: await findSamlRequestCreatedAt(db, a.organization.id, providerId, requestId),
        }
      },
      expected: (value) => expect(value).toMatchObject({ consumed: false, kept: expect.any(Date) }),
    },
  ],
  findOrganizationBranding: [
    {
      name: "reads B's branding, not A's",
      run: async (db, b) => {
        const [own] = await db
          .select({ name: organizations.name })
          .from(organizations)
          .where(eq(organizations.id, b))
        return { read: (await findOrganizationBranding(db, b))?.name, own: own?.name }
      },
      expected: (value) => {
        const { read, own } = value as { read?: string; own?: string }
        expect(own).toBeTruthy()
        expect(read).toBe(own)
      },
    },
  ],
  updateOrganizationBranding: [
    {
      name: 'changes B only',
      run: async (db, b, a) => {
        await updateOrganizationBranding(db, b, {
          name: 'B rebranded',
          primaryColor: '#111111',
          secondaryColor: '#222222',
          whiteLabelActive: true,
        })
        return (await findOrganizationBranding(db, a.organization.id))?.name
      },
      expected: (value) => expect(value).not.toBe('B rebranded'),
    },
  ],
  renameOrganization: [
    {
      name: 'renames B only',
      run: (db, b) => renameOrganization(db, b, 'B renamed'),
      expected: nothing,
    },
  ],
  findContactEmail: [
    {
      name: "reads B's contact email, not A's",
      run: async (db, b) => {
        const [own] = await db
          .select({ contactEmail: organizations.contactEmail })
          .from(organizations)
          .where(eq(organizations.id, b))
        return { read: await findContactEmail(db, b), own: own?.contactEmail ?? null }
      },
      expected: (value) => {
        const { read, own } = value as { read: string | null; own: string | null }
        expect(read).toBe(own)
      },
    },
  ],
  setSubscriptionTier: [
    {
      name: "changes A's tier from B's transaction only through A's own id (B's is left as is)",
      run: async (db, b, a) => {
        const [before] = await db
          .select({ tier: organizations.subscriptionTier })
          .from(organizations)
          .where(eq(organizations.id, a.organization.id))
        const wrote = await setSubscriptionTier(db, b, 'enterprise', 'enterprise')
        const [after] = await db
          .select({ tier: organizations.subscriptionTier })
          .from(organizations)
          .where(eq(organizations.id, a.organization.id))
        return { wrote, same: before?.tier === after?.tier }
      },
      expected: (value) => expect((value as { same: boolean }).same).toBe(true),
    },
  ],
  findSubscriptionTier: [
    {
      name: "reads B's plan, not A's",
      // B's tier is whatever the cases above left it at (updateAgency sets 'starter').
      run: async (db, b) => {
        const [own] = await db
          .select({ tier: organizations.subscriptionTier })
          .from(organizations)
          .where(eq(organizations.id, b))
        return { read: await findSubscriptionTier(db, b), own: own?.tier }
      },
      expected: (value) => {
        const { read, own } = value as { read: string; own: string }
        expect(read).toBe(own)
      },
    },
  ],
  setUserPreference: [
    {
      name: "writes no preference for A's user",
      run: (db, b, a) => setUserPreference(db, b, a.user.id, 'theme', 'light'),
      expected: (_value, threw) => expect(threw).toBe(true),
    },
  ],
  createUser: [
    {
      name: "writes to B only, even with A's email",
      run: async (db, b, a) => {
        const user = await createUser(db, b, {
          email: a.user.email,
          passwordHash: 'not-a-password-hash',
        })
        return user.organizationId === b ? undefined : user
      },
      expected: nothing,
    },
  ],
  findUserByEmail: [
    {
      name: "finds no user of A's by email",
      run: (db, b, a) => findUserByEmail(db, b, a.second.email),
      expected: nothing,
    },
  ],
  findUserById: [
    {
      name: "finds no user of A's by id",
      run: (db, b, a) => findUserById(db, b, a.user.id),
      expected: nothing,
    },
  ],
  countUserAccountsForOrganization: [
    {
      // By A's name: the createUser case gives B an account with A's email.
      name: "counts none of A's accounts, even searched by A's name",
      run: (db, b, a) => countUserAccountsForOrganization(db, b, a.user.lastName),
      expected: (value) => expect(value).toBe(0),
    },
  ],
  listUserAccountsForOrganization: [
    {
      name: "lists none of A's accounts",
      run: async (db, b, a) =>
        (await listUserAccountsForOrganization(db, b, '', { limit: 100, offset: 0 })).filter(
          (row) => row.organizationId === a.organization.id,
        ),
      expected: nothing,
    },
    {
      name: "finds none of A's accounts by A's name",
      run: (db, b, a) =>
        listUserAccountsForOrganization(db, b, a.user.lastName, { limit: 100, offset: 0 }),
      expected: nothing,
    },
  ],
  setUserPassword: [
    {
      name: "changes no password of A's",
      run: async (db, b, a) => setUserPassword(db, b, a.user.id, await hashPassword('taken-over')),
      expected: nothing,
    },
  ],
  updateProfile: [
    {
      name: "changes no profile of A's",
      run: (db, b, a) => updateProfile(db, b, a.user.id, { firstName: 'Taken' }),
      expected: nothing,
    },
  ],
  recordAudit: [
    {
      name: 'writes to B only',
      run: (db, b) => recordAudit(db, b, { actorUserId: null, action: 'x', entityType: 'y' }),
      expected: nothing,
    },
  ],
  recordAccountAudit: [
    {
      // Not A's user: an event of B naming A's user would show in B's lists of that user.
      name: 'writes to B only',
      run: (db, b) => recordAccountAudit(db, b, '00000000-0000-4000-8000-000000000000', 'x'),
      expected: nothing,
    },
  ],
  recordOrganizationAudit: [
    {
      name: 'writes to B only',
      run: (db, b) => recordOrganizationAudit(db, b, null, 'x'),
      expected: nothing,
    },
  ],
  recordTeamAudit: [
    {
      // Not A's user nor team, for the same reason as recordAccountAudit's.
      name: 'writes to B only',
      run: (db, b) =>
        recordTeamAudit(
          db,
          b,
          '00000000-0000-4000-8000-000000000000',
          '00000000-0000-4000-8000-000000000002',
          'x',
        ),
      expected: nothing,
    },
  ],
  recordCardAudit: [
    {
      // Not A's user nor card, for the same reason as recordAccountAudit's.
      name: 'writes to B only',
      run: (db, b) =>
        recordCardAudit(
          db,
          b,
          '00000000-0000-4000-8000-000000000000',
          '00000000-0000-4000-8000-000000000001',
          'x',
        ),
      expected: nothing,
    },
  ],
  listAuditEvents: [
    {
      name: "lists none of A's events, whatever the filter",
      run: async (db, b, a) => {
        const all = { category: '', actor: '', includeReads: true, limit: 500, offset: 0 }
        const rows = [
          ...(await listAuditEvents(db, b, all)),
          ...(await listAuditEvents(db, b, { ...all, actor: a.user.email })),
        ]
        return rows.filter((row) => row.organizationName === a.organization.name)
      },
      expected: nothing,
    },
  ],
  listActivityForUser: [
    {
      name: "lists none of A's activity",
      run: (db, b, a) => listActivityForUser(db, b, a.user.id),
      expected: nothing,
    },
  ],
  setUserPlan: [
    {
      name: "changes no plan of A's",
      run: (db, b, a) => setUserPlan(db, b, a.user.id, 'team_pro', 'team_basic'),
      expected: nothing,
    },
  ],
  setMemberPlan: [
    {
      name: "changes no team member plan of A's",
      run: (db, b, a) => setMemberPlan(db, b, a.teamAdmin.id, 'team_member_basic'),
      expected: nothing,
    },
  ],
  countUsersWithRoles: [
    {
      name: "counts none of A's accounts",
      run: async (db, b) => {
        const [own] = await db
          .select({ n: count() })
          .from(users)
          .where(and(eq(users.organizationId, b), eq(users.role, 'team_admin')))
        return { read: await countUsersWithRoles(db, b, ['team_admin']), own: own?.n }
      },
      expected: (value) => {
        const { read, own } = value as { read: number; own: number }
        expect(read).toBe(own)
      },
    },
  ],
  countStaff: [
    {
      name: "counts none of A's staff, the platform's or an agency's",
      run: async (db, b) => [
        await countStaff(db, b),
        await countStaff(db, b, ['agency_admin', 'agency_member', 'team_admin']),
      ],
      expected: (value) => expect(value).toEqual([0, 0]),
    },
  ],
  listStaff: [
    {
      name: "lists none of A's staff",
      run: (db, b) => listStaff(db, b, { search: '', role: null }),
      expected: nothing,
    },
    {
      name: "lists none of A's agency staff",
      run: (db, b) =>
        listStaff(db, b, { search: '', role: null }, ['agency_admin', 'agency_member']),
      expected: nothing,
    },
  ],
  listOrganizationEndUsers: [
    {
      // B's own end user may be listed: none of A's may.
      name: "lists none of A's end users, by search or by A's team member",
      run: async (db, b, a) => {
        const rows = [
          ...(await listOrganizationEndUsers(
            db,
            b,
            { search: '', status: null, assignedToUserId: null },
            100,
          )),
          ...(await listOrganizationEndUsers(
            db,
            b,
            { search: 'assigned', status: 'active', assignedToUserId: a.teamAdmin.id },
            100,
          )),
        ]
        return rows.filter((row) => row.organizationId !== b)
      },
      expected: nothing,
    },
    {
      name: "lists nobody assigned to A's team member",
      run: (db, b, a) =>
        listOrganizationEndUsers(
          db,
          b,
          { search: '', status: null, assignedToUserId: a.teamAdmin.id },
          100,
        ),
      expected: nothing,
    },
  ],
  countOrganizationEndUsers: [
    {
      name: "counts none of A's end users",
      run: (db, b, a) =>
        countOrganizationEndUsers(db, b, {
          search: '',
          status: null,
          assignedToUserId: a.teamAdmin.id,
        }),
      expected: (value) => expect(value).toBe(0),
    },
  ],
  countAnnouncementRecipients: [
    {
      name: "counts none of A's opted-in end users",
      run: (db, b) => countAnnouncementRecipients(db, b),
      expected: (value) => expect(value).toBe(0),
    },
  ],
  listAnnouncementRecipients: [
    {
      name: "lists none of A's opted-in end users",
      run: (db, b) => listAnnouncementRecipients(db, b, null, 100),
      expected: nothing,
    },
  ],
  insertAnnouncement: [
    {
      name: 'writes only in B (A is unchanged)',
      run: (db, b, a) =>
        insertAnnouncement(db, b, { sentByUserId: a.user.id, subject: 'x', body: 'x' }),
      expected: (value, threw) => {
        expect(threw).toBe(false)
        expect((value as { organizationId: string }).organizationId).not.toBe(a.organization.id)
      },
    },
  ],
  findAnnouncement: [
    {
      name: "finds no announcement of A's",
      run: (db, b, a) => findAnnouncement(db, b, a.announcement.id),
      expected: nothing,
    },
  ],
  listAnnouncements: [
    {
      name: "lists none of A's announcements",
      // B's own (insertAnnouncement's case) may be there; A's never.
      run: async (db, b, a) =>
        (await listAnnouncements(db, b)).filter((row) => row.id === a.announcement.id),
      expected: nothing,
    },
  ],
  recordAnnouncementProgress: [
    {
      name: "moves no announcement of A's on",
      run: (db, b, a) =>
        recordAnnouncementProgress(db, b, a.announcement.id, { cursor: a.user.id, queued: 5 }),
      expected: nothing,
    },
  ],
  finishAnnouncement: [
    {
      name: "finishes no announcement of A's",
      run: (db, b, a) => finishAnnouncement(db, b, a.announcement.id, 'failed'),
      expected: nothing,
    },
  ],
  listTemplates: [
    {
      name: "lists none of A's card templates",
      run: async (db, b, a) =>
        (await listTemplates(db, b)).filter((row) => row.template.id === a.template.id),
      expected: nothing,
    },
  ],
  findTemplate: [
    {
      name: "finds no card template of A's",
      run: (db, b, a) => findTemplate(db, b, a.template.id),
      expected: nothing,
    },
  ],
  organizationHasTeam: [
    {
      name: "does not count A's team as B's",
      run: (db, b, a) => organizationHasTeam(db, b, a.team.id),
      expected: (value) => expect(value).toBe(false),
    },
  ],
  insertTemplate: [
    {
      name: "cannot put a template on A's team",
      run: (db, b, a) => insertTemplate(db, b, { name: 'x', teamId: a.team.id }),
      expected: (_value, threw) => expect(threw).toBe(true),
    },
  ],
  updateTemplate: [
    {
      name: "changes no card template of A's",
      run: (db, b, a) => updateTemplate(db, b, a.template.id, { name: 'Taken', company: 'x' }),
      expected: nothing,
    },
  ],
  deleteTemplate: [
    {
      name: "deletes no card template of A's",
      run: (db, b, a) => deleteTemplate(db, b, a.template.id),
      expected: nothing,
    },
  ],
  findTemplateForUser: [
    {
      name: "finds no template for A's team member",
      run: (db, b, a) => findTemplateForUser(db, b, a.assigned.id),
      expected: nothing,
    },
  ],
  listCardsToApply: [
    {
      name: "lists none of A's cards for A's template",
      run: (db, b, a) => listCardsToApply(db, b, a.template.id),
      expected: nothing,
    },
  ],
  setCardsTemplate: [
    {
      name: "frees none of A's cards from their template",
      run: (db, b, a) => setCardsTemplate(db, b, [a.card.id], null),
      expected: (value) => expect(value).toBe(0),
    },
  ],
  listOwnerCards: [
    {
      name: "lists none of A's user's cards",
      run: (db, b, a) => listOwnerCards(db, b, a.user.id),
      expected: nothing,
    },
  ],
  listTemplateCards: [
    {
      name: "lists none of the cards that follow A's template",
      run: (db, b, a) => listTemplateCards(db, b, a.template.id),
      expected: nothing,
    },
  ],
  findTemplateOfCard: [
    {
      name: "finds no template of A's card",
      run: (db, b, a) => findTemplateOfCard(db, b, a.card.id),
      expected: nothing,
    },
  ],
  listTeamAdmins: [
    {
      name: "lists none of A's team members",
      run: (db, b) => listTeamAdmins(db, b),
      expected: nothing,
    },
  ],
  lockSuperAdmins: [
    {
      name: "locks and counts none of A's super admins",
      run: (db, b) => db.transaction((tx) => lockSuperAdmins(tx, b)),
      expected: nothing,
    },
  ],
  listActiveUserIdsWithRoles: [
    {
      name: "lists none of A's agency admins",
      run: (db, b) => listActiveUserIdsWithRoles(db, b, ['agency_admin', 'super_admin']),
      expected: nothing,
    },
  ],
  insertApiKey: [
    {
      name: "makes no key of B in the name of A's user",
      run: (db, b, a) =>
        insertApiKey(db, b, {
          name: 'X',
          scopes: [],
          keyHash: 'api-b',
          lastFour: 'wxyz',
          expiresAt: null,
          createdByUserId: a.user.id,
        }),
      // The composite foreign key refuses B's row for A's user.
      expected: (_value, threw) => expect(threw).toBe(true),
    },
  ],
  listApiKeys: [
    { name: "lists none of A's keys", run: (db, b) => listApiKeys(db, b), expected: nothing },
  ],
  findUsableApiKey: [
    {
      name: "accepts no key of A's by hash",
      run: (db, b, a) => findUsableApiKey(db, b, a.apiKey.keyHash),
      expected: nothing,
    },
  ],
  markApiKeyUsed: [
    {
      name: "marks no key of A's as used",
      run: (db, b, a) => markApiKeyUsed(db, b, a.apiKey.id, '203.0.113.9'),
      expected: nothing,
    },
  ],
  revokeApiKeyRow: [
    {
      name: "revokes no key of A's",
      run: (db, b, a) => revokeApiKeyRow(db, b, a.apiKey.id),
      expected: nothing,
    },
  ],
  findIdempotentAnswer: [
    {
      name: "replays none of A's answers",
      run: (db, b, a) => findIdempotentAnswer(db, b, a.idempotencyKey),
      expected: nothing,
    },
  ],
  saveIdempotentAnswer: [
    {
      name: "keeps no answer of B under A's key",
      run: (db, b, a) =>
        saveIdempotentAnswer(db, b, {
          idempotencyKey: a.idempotencyKey,
          apiKeyId: a.apiKey.id,
          method: 'POST',
          path: '/x',
          requestHash: 'h',
          status: 201,
          response: null,
        }),
      // B's row may not name A's key (composite foreign key).
      expected: (_value, threw) => expect(threw).toBe(true),
    },
  ],
  deleteIdempotentAnswersBefore: [
    {
      name: "forgets none of A's answers",
      run: (db, b) => deleteIdempotentAnswersBefore(db, b, new Date(Date.now() + 60_000)),
      expected: nothing,
    },
  ],
  listOrganizationCards: [
    {
      name: "lists none of A's cards (B's own alone)",
      run: async (db, b) =>
        (await listOrganizationCards(db, b, { limit: 50 })).map((card) => card.id),
      expected: (value) => expect(value).toEqual([cardOfB.id]),
    },
  ],
  findOrganizationCard: [
    {
      name: "finds no card of A's",
      run: (db, b, a) => findOrganizationCard(db, b, a.card.id),
      expected: nothing,
    },
  ],
  listOrganizationContacts: [
    {
      name: "lists none of A's contacts or leads",
      run: (db, b) => listOrganizationContacts(db, b, { limit: 50 }),
      expected: nothing,
    },
  ],
  findOrganizationContact: [
    {
      name: "finds no contact of A's",
      run: (db, b, a) => findOrganizationContact(db, b, a.leadContactId),
      expected: nothing,
    },
  ],
  deleteOrganizationContact: [
    {
      name: "deletes no contact of A's",
      run: (db, b, a) => deleteOrganizationContact(db, b, a.leadContactId),
      expected: nothing,
    },
  ],
  listOrganizationUsers: [
    {
      name: "lists none of A's users",
      // B has its own people: none of them is A's.
      run: async (db, b, a) =>
        (await listOrganizationUsers(db, b, { limit: 200 })).filter((row) => row.id === a.user.id),
      expected: nothing,
    },
  ],
  findOrganizationTeam: [
    {
      name: "finds no team of A's",
      run: (db, b, a) => findOrganizationTeam(db, b, a.team.id),
      expected: nothing,
    },
  ],
  countCardActivityPerDay: [
    {
      name: "counts nothing of A's card",
      run: (db, b, a) =>
        countCardActivityPerDay(db, b, a.card.id, new Date(0), new Date(Date.now() + 86_400_000)),
      expected: nothing,
    },
  ],
  insertScimToken: [
    {
      name: "makes no token of B in the name of A's user",
      run: (db, b, a) =>
        insertScimToken(db, b, {
          name: 'X',
          tokenHash: 'scim-b',
          lastFour: 'wxyz',
          createdByUserId: a.user.id,
        }),
      // The composite foreign key refuses B's row for A's user.
      expected: (_value, threw) => expect(threw).toBe(true),
    },
  ],
  listScimTokens: [
    { name: "lists none of A's tokens", run: (db, b) => listScimTokens(db, b), expected: nothing },
  ],
  findScimToken: [
    {
      name: "finds no token of A's by id",
      run: (db, b, a) => findScimToken(db, b, a.scimToken.id),
      expected: nothing,
    },
  ],
  findUsableScimToken: [
    {
      name: "accepts no token of A's by hash",
      run: (db, b, a) => findUsableScimToken(db, b, a.scimToken.tokenHash),
      expected: nothing,
    },
  ],
  markScimTokenUsed: [
    {
      name: "marks no token of A's as used",
      run: (db, b, a) => markScimTokenUsed(db, b, a.scimToken.id),
      expected: nothing,
    },
  ],
  endScimToken: [
    {
      name: "revokes no token of A's",
      run: (db, b, a) => endScimToken(db, b, a.scimToken.id, { revokedAt: new Date() }),
      expected: nothing,
    },
  ],
  recordScimEvent: [
    {
      name: "logs nothing of B under A's token",
      run: (db, b, a) =>
        recordScimEvent(db, b, { tokenId: a.scimToken.id, method: 'GET', path: '/', status: 200 }),
      expected: (_value, threw) => expect(threw).toBe(true),
    },
  ],
  listScimEvents: [
    {
      name: "lists none of A's provisioning log",
      run: (db, b) => listScimEvents(db, b, { status: 'all', limit: 10, offset: 0 }),
      expected: nothing,
    },
  ],
  countScimEvents: [
    {
      name: "counts none of A's provisioning log",
      run: (db, b) => countScimEvents(db, b, 'all'),
      expected: (value) => expect(value).toBe(0),
    },
  ],
  listDirectoryUsers: [
    {
      name: "finds none of A's people by userName",
      run: (db, b, a) =>
        listDirectoryUsers(
          db,
          b,
          { attribute: 'userName', value: a.user.email },
          { offset: 0, limit: 10 },
        ),
      // B may hold an account under A's address (another case makes one): only B's own.
      expected: (value) =>
        expect(
          (value as { organizationId: string }[]).filter((row) => row.organizationId !== b),
        ).toEqual([]),
    },
    {
      name: "finds none of A's people by externalId",
      run: (db, b, a) =>
        listDirectoryUsers(
          db,
          b,
          { attribute: 'externalId', value: a.externalId },
          { offset: 0, limit: 10 },
        ),
      expected: nothing,
    },
  ],
  countDirectoryUsers: [
    {
      name: "counts none of A's people",
      run: (db, b, a) => countDirectoryUsers(db, b, { attribute: 'id', value: a.user.id }),
      expected: (value) => expect(value).toBe(0),
    },
  ],
  listDirectoryManagedUsers: [
    {
      name: "lists none of A's directory-managed people",
      run: (db, b) => listDirectoryManagedUsers(db, b),
      expected: nothing,
    },
  ],
  findDirectoryUsers: [
    {
      name: "finds none of A's people by id or external id",
      run: (db, b, a) =>
        findDirectoryUsers(db, b, { ids: [a.user.id], externalIds: [a.externalId] }),
      expected: nothing,
    },
  ],
  listDirectoryTeams: [
    {
      name: "finds none of A's directory teams by name",
      run: (db, b, a) =>
        listDirectoryTeams(
          db,
          b,
          { attribute: 'displayName', value: a.directoryTeam.name },
          { offset: 0, limit: 10 },
        ),
      expected: nothing,
    },
  ],
  countDirectoryTeams: [
    {
      name: "counts none of A's directory teams",
      run: (db, b) => countDirectoryTeams(db, b, null),
      expected: (value) => expect(value).toBe(0),
    },
  ],
  findDirectoryTeam: [
    {
      name: "finds no directory team of A's",
      run: (db, b, a) => findDirectoryTeam(db, b, a.directoryTeam.id),
      expected: nothing,
    },
  ],
  insertDirectoryTeam: [
    {
      name: "makes B's own team, whatever A's external ids",
      run: (db, b, a) =>
        insertDirectoryTeam(db, b, { name: 'B team', externalId: a.directoryTeam.externalId }),
      expected: (value) => expect((value as { organizationId: string }).organizationId).toBe(b),
    },
  ],
  updateDirectoryTeam: [
    {
      name: "renames no directory team of A's",
      run: (db, b, a) => updateDirectoryTeam(db, b, a.directoryTeam.id, { name: 'Stolen' }),
      expected: nothing,
    },
  ],
  listDirectoryTeamMemberIds: [
    {
      name: "lists none of A's team members",
      run: (db, b, a) => listDirectoryTeamMemberIds(db, b, a.directoryTeam.id),
      expected: nothing,
    },
  ],
  removeDirectoryTeamMembers: [
    {
      name: "removes no member of A's team",
      run: (db, b, a) => removeDirectoryTeamMembers(db, b, a.directoryTeam.id, [a.user.id]),
      expected: (value) => expect(value).toBe(0),
    },
  ],
  insertPlanRequest: [
    {
      name: "makes no plan request of A's user in B",
      run: (db, b, a) => insertPlanRequest(db, b, a.user.id, 'team_basic'),
      // The composite foreign key refuses B's row for A's user.
      expected: (_value, threw) => expect(threw).toBe(true),
    },
  ],
  findPendingPlanRequest: [
    {
      name: "finds none of A's user's requests",
      run: (db, b, a) => findPendingPlanRequest(db, b, a.user.id),
      expected: nothing,
    },
  ],
  listPendingPlanRequests: [
    {
      name: "lists none of A's requests",
      run: (db, b) => listPendingPlanRequests(db, b),
      expected: nothing,
    },
  ],
  countPendingPlanRequests: [
    {
      name: "counts none of A's requests",
      run: (db, b) => countPendingPlanRequests(db, b),
      expected: (value) => expect(value).toBe(0),
    },
  ],
  decidePlanRequest: [
    {
      name: "grants none of A's requests by id",
      run: (db, b, a) => decidePlanRequest(db, b, a.planRequest.id, 'granted', a.user.id),
      expected: nothing,
    },
  ],
  withdrawPlanRequest: [
    {
      name: "withdraws none of A's user's requests",
      run: (db, b, a) => withdrawPlanRequest(db, b, a.user.id),
      expected: nothing,
    },
  ],
  lockActiveAgencyAdmins: [
    {
      name: "locks and counts none of A's agency admins",
      run: (db, b) => db.transaction((tx) => lockActiveAgencyAdmins(tx, b)),
      expected: nothing,
    },
  ],
  unassignEndUsersFrom: [
    {
      name: "unassigns no end user from A's team member",
      run: (db, b, a) => unassignEndUsersFrom(db, b, a.teamAdmin.id),
      expected: (value) => expect(value).toBe(0),
    },
  ],
  updateAccount: [
    {
      name: "changes no account of A's",
      run: (db, b, a) => updateAccount(db, b, a.staff.id, { role: 'end_user', status: 'inactive' }),
      expected: nothing,
    },
    {
      name: "assigns no end user of A's",
      run: (db, b, a) => updateAccount(db, b, a.user.id, { assignedToUserId: a.teamAdmin.id }),
      expected: nothing,
    },
  ],
  deleteAccount: [
    {
      name: "deletes no account of A's",
      run: (db, b, a) => deleteAccount(db, b, a.user.id),
      expected: (value) => expect(value).toBe(false),
    },
  ],
  markSignedIn: [
    {
      name: "marks no account of A's",
      run: (db, b, a) => markSignedIn(db, b, a.user.id, new Date()),
      expected: nothing,
    },
  ],
  listTeamsForUser: [
    {
      name: "lists none of A's teams",
      run: (db, b, a) => listTeamsForUser(db, b, a.user.id),
      expected: nothing,
    },
  ],
  createTeamWithAdmin: [
    {
      name: "makes no team for A's user",
      run: (db, b, a) => createTeamWithAdmin(db, b, a.user.id, { name: 'X', description: '' }),
      // The composite foreign key refuses a team of B created by A's user.
      expected: (_value, threw) => expect(threw).toBe(true),
    },
  ],
  updateTeam: [
    {
      name: "changes no team of A's",
      run: (db, b, a) => updateTeam(db, b, a.team.id, { name: 'Taken over', description: '' }),
      expected: nothing,
    },
  ],
  deleteTeam: [
    {
      name: "deletes no team of A's",
      run: (db, b, a) => deleteTeam(db, b, a.team.id),
      expected: (value) => expect(value).toBe(false),
    },
  ],
  findTeamWithPlan: [
    {
      name: "finds no team of A's",
      run: (db, b, a) => findTeamWithPlan(db, b, a.team.id),
      expected: nothing,
    },
    {
      name: "finds no team of A's, locked",
      run: (db, b, a) => db.transaction((tx) => findTeamWithPlan(tx, b, a.team.id, { lock: true })),
      expected: nothing,
    },
    {
      // The foreign key refuses such a row; were one there, the plan read must still be B's.
      name: "reads no plan of A's user for a team of B that names A's user as its creator",
      run: (db, b) => findTeamWithPlan(db, b, corruptTeamOfB),
      expected: (value) => expect(value).toMatchObject({ id: corruptTeamOfB, plan: 'free' }),
    },
  ],
  findTeamMemberByEmail: [
    {
      name: "finds no member of A's team by A's address",
      run: (db, b, a) => findTeamMemberByEmail(db, b, a.team.id, a.user.email),
      expected: nothing,
    },
  ],
  findMembership: [
    {
      name: "finds no membership of A's",
      run: (db, b, a) => findMembership(db, b, a.team.id, a.user.id),
      expected: nothing,
    },
  ],
  sharesTeam: [
    {
      name: "finds no team of A's shared",
      // A's user is in A's team (with itself): asked under B, that team does not count.
      run: (db, b, a) => sharesTeam(db, b, a.user.id, a.user.id),
      expected: (value) => expect(value).toBe(false),
    },
  ],
  listTeamMembers: [
    {
      name: "lists none of A's members",
      run: (db, b, a) => listTeamMembers(db, b, a.team.id),
      expected: nothing,
    },
  ],
  findTeamMember: [
    {
      name: "finds no member of A's",
      run: (db, b, a) => findTeamMember(db, b, a.team.id, a.member.id),
      expected: nothing,
    },
  ],
  addTeamMember: [
    {
      name: "adds nobody to A's team",
      run: (db, b, a) => addTeamMember(db, b, a.team.id, a.second.id, 'admin'),
      // The composite foreign keys refuse a member row of B for A's team and user.
      expected: (_value, threw) => expect(threw).toBe(true),
    },
  ],
  setTeamMemberRole: [
    {
      name: "changes no role of A's members",
      run: (db, b, a) => setTeamMemberRole(db, b, a.team.id, a.member.id, 'admin'),
      expected: (value) => expect(value).toBe(false),
    },
  ],
  removeTeamMember: [
    {
      name: "removes no member of A's",
      run: (db, b, a) => removeTeamMember(db, b, a.team.id, a.member.id),
      expected: (value) => expect(value).toBe(false),
    },
  ],
  countTeamAdmins: [
    {
      name: "counts none of A's admins",
      run: (db, b, a) => countTeamAdmins(db, b, a.team.id),
      expected: (value) => expect(value).toBe(0),
    },
  ],
  countTeamSeats: [
    {
      name: "counts none of A's members or invitations",
      run: (db, b, a) => countTeamSeats(db, b, a.team.id),
      expected: (value) => expect(value).toEqual({ members: 0, pendingInvitations: 0 }),
    },
    {
      name: "counts none of A's, leaving out another invitation",
      run: (db, b, a) => countTeamSeats(db, b, a.team.id, '00000000-0000-4000-8000-000000000000'),
      expected: (value) => expect(value).toEqual({ members: 0, pendingInvitations: 0 }),
    },
  ],
  insertInvitation: [
    {
      name: "replaces no invitation of A's (and invites nobody to A's team)",
      run: (db, b, a) =>
        insertInvitation(db, b, {
          teamId: a.team.id,
          email: a.inviteeEmail,
          role: 'admin',
          tokenHash: `new-${uniqueSuffix()}`,
          invitedByUserId: a.user.id,
        }),
      expected: (_value, threw) => expect(threw).toBe(true),
    },
  ],
  findPendingInvitationForEmail: [
    {
      name: "finds no invitation of A's",
      run: (db, b, a) => findPendingInvitationForEmail(db, b, a.team.id, a.inviteeEmail),
      expected: nothing,
    },
  ],
  listPendingInvitations: [
    {
      name: "lists none of A's invitations",
      run: (db, b, a) => listPendingInvitations(db, b, a.team.id),
      expected: nothing,
    },
  ],
  findPendingInvitationByTokenHash: [
    {
      name: "finds no invitation of A's by its token",
      run: (db, b, a) => findPendingInvitationByTokenHash(db, b, a.invitationHash),
      expected: nothing,
    },
  ],
  setInvitationStatus: [
    {
      name: "answers no invitation of A's",
      run: (db, b, a) => setInvitationStatus(db, b, a.invitation.id, 'accepted'),
      expected: (value) => expect(value).toBe(false),
    },
  ],
  deleteInvitation: [
    {
      name: "cancels no invitation of A's",
      run: (db, b, a) => deleteInvitation(db, b, a.team.id, a.invitation.id),
      expected: nothing,
    },
  ],
  findOrCreateWalletPass: [
    {
      name: "makes no pass of A's card in B",
      run: (db, b, a) => findOrCreateWalletPass(db, b, a.card.id, null, 'hash-b'),
      // The composite foreign key refuses B's pass for A's card.
      expected: (_value, threw) => expect(threw).toBe(true),
    },
  ],
  findWalletPass: [
    {
      name: "finds no pass of A's",
      run: (db, b, a) => findWalletPass(db, b, a.walletPass.id),
      expected: nothing,
    },
  ],
  listWalletPasses: [
    {
      name: "lists no pass of A's card",
      run: (db, b, a) => listWalletPasses(db, b, { cardId: a.card.id }),
      expected: nothing,
    },
    {
      name: "lists no pass of A's owner",
      run: (db, b, a) => listWalletPasses(db, b, { ownerId: a.user.id }),
      expected: nothing,
    },
  ],
  recordWalletPassContent: [
    {
      name: "makes no new version of A's pass",
      run: (db, b, a) => recordWalletPassContent(db, b, a.walletPass.id, 'hash-b'),
      expected: nothing,
    },
  ],
  markWalletPassPushed: [
    {
      name: "marks no pass of A's as pushed",
      run: (db, b, a) => markWalletPassPushed(db, b, a.walletPass.id, a.walletPass.updatedAt),
      expected: nothing,
    },
  ],
  registerWalletDevice: [
    {
      name: "registers no device for A's pass in B, nor changes A's push token",
      run: (db, b, a) => registerWalletDevice(db, b, a.walletPass.id, a.walletDevice, 'push-b'),
      expected: (_value, threw) => expect(threw).toBe(true),
    },
  ],
  unregisterWalletDevice: [
    {
      name: "unregisters no device of A's",
      run: (db, b, a) => unregisterWalletDevice(db, b, a.walletPass.id, a.walletDevice),
      expected: (value) => expect(value).toBe(false),
    },
  ],
  listDevicePassesUpdatedSince: [
    {
      name: "lists no pass A's device registered for",
      run: (db, b, a) => listDevicePassesUpdatedSince(db, b, a.walletDevice, null),
      expected: nothing,
    },
  ],
  listPassPushTokens: [
    {
      name: "gives no push token of A's devices",
      run: (db, b, a) => listPassPushTokens(db, b, a.walletPass.id),
      expected: nothing,
    },
  ],
  forgetPushToken: [
    {
      name: "forgets no push token of A's",
      run: (db, b) => forgetPushToken(db, b, 'push-a'),
      expected: nothing,
    },
  ],
  listSsoProviders: [
    {
      name: "lists none of A's providers",
      run: (db, b) => listSsoProviders(db, b),
      expected: nothing,
    },
  ],
  findSsoProvider: [
    {
      name: "finds no provider of A's by id",
      run: (db, b, a) => findSsoProvider(db, b, a.ssoProvider.id),
      expected: nothing,
    },
  ],
  insertOidcProvider: [
    {
      name: "adds B's own provider, nothing of A's",
      run: (db, b) => insertOidcProvider(db, b, ssoProviderValues),
      expected: (value) => expect((value as { organizationId: string }).organizationId).toBe(b),
    },
  ],
  updateOidcProvider: [
    {
      name: "changes no provider of A's",
      run: (db, b, a) =>
        updateOidcProvider(db, b, a.ssoProvider.id, { ...ssoProviderValues, displayName: 'B' }),
      expected: nothing,
    },
  ],
  deleteSsoProvider: [
    {
      name: "deletes no provider of A's",
      run: (db, b, a) => deleteSsoProvider(db, b, a.ssoProvider.id),
      expected: (value) => expect(value).toBe(false),
    },
  ],
  listSsoDomains: [
    { name: "lists none of A's domains", run: (db, b) => listSsoDomains(db, b), expected: nothing },
  ],
  findSsoDomain: [
    {
      name: "finds no domain of A's by id",
      run: (db, b, a) => findSsoDomain(db, b, a.ssoDomain.id),
      expected: nothing,
    },
  ],
  insertSsoDomain: [
    {
      name: "claims no domain in B for A's provider",
      run: (db, b, a) =>
        insertSsoDomain(db, b, { providerId: a.ssoProvider.id, domain: 'x.b.test', token: 't' }),
      // The composite foreign key refuses B's row for A's provider.
      expected: (_value, threw) => expect(threw).toBe(true),
    },
  ],
  recordSsoDomainCheck: [
    {
      name: "records no check of A's domain",
      run: (db, b, a) =>
        recordSsoDomainCheck(db, b, {
          domainId: a.ssoDomain.id,
          token: a.ssoDomain.token,
          verifiedAt: null,
          checkedAt: new Date(),
        }),
      expected: nothing,
    },
  ],
  setSsoDomainEnforced: [
    {
      name: "turns off no enforcement of A's",
      run: (db, b, a) => setSsoDomainEnforced(db, b, a.ssoDomain.id, false),
      expected: nothing,
    },
  ],
  deleteSsoDomain: [
    {
      name: "deletes no domain of A's",
      run: (db, b, a) => deleteSsoDomain(db, b, a.ssoDomain.id),
      expected: (value) => expect(value).toBe(false),
    },
  ],
  hasSsoSignIn: [
    {
      name: "does not count A's verified domain",
      run: (db, b) => hasSsoSignIn(db, b),
      expected: (value) => expect(value).toBe(false),
    },
  ],
  findVerifiedSsoDomain: [
    {
      name: "finds no verified claim of A's on its domain",
      run: (db, b, a) => findVerifiedSsoDomain(db, b, a.ssoDomain.domain),
      expected: nothing,
    },
  ],
}

let a: TenantA
let b: string
/** A's SAML provider and a request it has yet to answer (ADR 090). */
let samlA: Awaited<ReturnType<typeof samlOfA>>
/** A team of B whose creator column names A's user: a row only a bypassed foreign key allows. */
let corruptTeamOfB: string
/** B's card and its owner, which a slug row of A's names (slugOfAOnCardOfB). */
let cardOfB: { id: string; userId: string }
let slugOfAOnCardOfB: string

beforeAll(async () => {
  const db = getDb()
  a = await seedTenantA(db)
  samlA = await samlOfA(db, a)
  const organization = await makeOrganization()
  b = organization.id
  const userOfB = await createUser(db, b, {
    email: `b-${uniqueSuffix()}@example.test`,
    passwordHash: 'not-a-password-hash',
  })
  // A slug of A's naming a card of B's: a row only a bypassed foreign key allows. A lookup of
  // B's cards' slugs that trusted the card's organization alone would list it.
  cardOfB = {
    userId: userOfB.id,
    id: (await createCard(db, b, userOfB.id, { firstName: 'Bea', lastName: 'Bee' })).id,
  }
  slugOfAOnCardOfB = `a-on-b-${uniqueSuffix()}`
  await db.transaction(async (tx) => {
    await tx.execute(sql`set local session_replication_role = replica`)
    await tx
      .insert(cardSlugs)
      .values({ organizationId: a.organization.id, cardId: cardOfB.id, slug: slugOfAOnCardOfB })
  })
  // B holds the image A also has, so the by-hash lookups have a row of each to choose from.
  await storeMedia(db, b, png(a.sharedImage))
  // Foreign keys are triggers: in replica mode they do not fire, so the row can point across.
  corruptTeamOfB = await db.transaction(async (tx) => {
    await tx.execute(sql`set local session_replication_role = replica`)
    const [team] = await tx
      .insert(teams)
      .values({ organizationId: b, name: 'Corrupt', createdByUserId: a.user.id })
      .returning({ id: teams.id })
    if (!team) throw new Error('team insert returned nothing')
    return team.id
  })
})

describe('model functions with the wrong organization, outside row-level security', () => {
  test("the owner connection sees both tenants (so only the code's filter is tested)", async () => {
    const seen = await getDb().execute(
      sql`select count(distinct organization_id)::int as n from media
          where organization_id in (${a.organization.id}, ${b})`,
    )
    const [row] = rowsOf<{ n: number }>(seen)
    expect(row?.n).toBe(2)
  })

  // A's checksum, taken again only after a call that wrote a row (tests/checksum.ts counts the
  // rows written per table): a call that wrote none changed nothing of A's. Most calls only read,
  // and two checksums of every table for each of the 390 cases were most of this file's time.
  let writesSince: Awaited<ReturnType<typeof installWriteCounter>> | undefined
  let unchanged: Record<string, string> | undefined
  for (const [fn, list] of Object.entries(cases)) {
    for (const { name, run, expected } of list) {
      test(`${fn} ${name}`, async () => {
        writesSince ??= await installWriteCounter()
        const before = unchanged ?? (await databaseChecksum({ organizationId: a.organization.id }))
        // Known again only once this case has passed.
        unchanged = undefined
        const writesBefore = await writesSince()
        const { value, threw } = await attempt(() => run(getDb(), b, a))
        expected(value, threw)
        // Counts the call queued (a save, a view: ADR 082) are written first, as the checksum does.
        await flushCardEvents()
        if (JSON.stringify(await writesSince()) !== JSON.stringify(writesBefore)) {
          expect(await databaseChecksum({ organizationId: a.organization.id })).toEqual(before)
        }
        unchanged = before
      })
    }
  }

  test('every model function that takes an organization id has a case here', async () => {
    const dir = path.resolve('app/models')
    const missing: string[] = []
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.server.ts'))) {
      const module = (await import(/* @vite-ignore */ path.join(dir, file))) as Record<
        string,
        unknown
      >
      for (const [name, value] of Object.entries(module)) {
        if (typeof value !== 'function') continue
        const params = value.toString().split(')')[0] ?? ''
        if (params.includes('organizationId') && !(name in cases)) missing.push(`${file}: ${name}`)
      }
    }
    expect(missing).toEqual([])
  })
})
