// The whole product's schema. Every table that belongs to a tenant carries
// `organization_id` with a foreign key and an index, and children reference
// their parent through the composite key (organization_id, id) so that a row
// can never point at another organization's parent.
import { sql } from 'drizzle-orm'
import {
  type AnyPgColumn,
  bigint,
  boolean,
  check,
  customType,
  foreignKey,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core'

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
})

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow()
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow()
const organizationId = () =>
  uuid('organization_id')
    .notNull()
    .references((): AnyPgColumn => organizations.id, { onDelete: 'cascade' })

export const organizationKind = pgEnum('organization_kind', ['platform', 'agency'])
export const organizationStatus = pgEnum('organization_status', ['active', 'inactive', 'pending'])
export const approvalStatus = pgEnum('approval_status', ['approved', 'pending', 'rejected'])
export const subscriptionTier = pgEnum('subscription_tier', [
  'free',
  'starter',
  'professional',
  'enterprise',
])
export const userRole = pgEnum('user_role', [
  'super_admin',
  'super_admin_team',
  'agency_admin',
  'agency_member',
  'team_admin',
  'end_user',
])
// Where a card view came from (app/utils/view-sources.ts, ADR 039); wallet, signature and
// background are reserved for the next surfaces, so adding them needs no migration.
export const viewSource = pgEnum('view_source', [
  'direct',
  'qr',
  'nfc',
  'link',
  'share',
  'vcard',
  'wallet',
  'signature',
  'background',
])
export const phoneType = pgEnum('phone_type', ['mobile', 'work'])
// Issue 41 point 6 (ADR 083): the video a card shows is one of these players' ids, never a URL.
export const videoProvider = pgEnum('video_provider', ['youtube', 'vimeo'])
export const cardLinkKind = pgEnum('card_link_kind', [
  'linkedin',
  'x',
  'instagram',
  'facebook',
  'github',
  'youtube',
  'tiktok',
  'whatsapp',
  'booking',
  'custom',
])
export const userStatus = pgEnum('user_status', ['active', 'inactive'])
export const userPlan = pgEnum('user_plan', ['free', 'team_basic', 'team_pro'])
// A team member's (team_admin's) own plan: how many end users may be assigned to them (ADR 051,
// app/billing/plan-limits.ts). Granted by the Stripe webhook jobs or an agency admin.
export const memberPlan = pgEnum('member_plan', ['free', 'team_member_basic'])
export const teamRole = pgEnum('team_role', ['admin', 'manager', 'member', 'viewer'])
export const invitationStatus = pgEnum('invitation_status', [
  'pending',
  'accepted',
  'declined',
  'expired',
])
export const backgroundKind = pgEnum('background_kind', ['color', 'gradient', 'image'])
export const contactSource = pgEnum('contact_source', [
  'connect',
  'lead',
  'saved',
  'manual',
  'scan',
])
export const emailState = pgEnum('email_state', ['queued', 'sent', 'failed'])
export const crmSyncState = pgEnum('crm_sync_state', ['pending', 'synced', 'failed'])
// The CRMs new contacts can be forwarded to (ADR 094): one connected at a time per user.
export const crmProvider = pgEnum('crm_provider', ['gohighlevel', 'hubspot', 'salesforce'])
export const jobState = pgEnum('job_state', ['queued', 'running', 'done', 'dead'])

export const organizations = pgTable(
  'organizations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    slug: text('slug').notNull().unique(),
    name: text('name').notNull(),
    kind: organizationKind('kind').notNull().default('agency'),
    status: organizationStatus('status').notNull().default('active'),
    approvalStatus: approvalStatus('approval_status').notNull().default('approved'),
    subscriptionTier: subscriptionTier('subscription_tier').notNull().default('free'),
    ownerName: text('owner_name'),
    contactEmail: text('contact_email'),
    // Custom domain: only a verified one is ever resolved to this tenant. Several agencies may
    // claim the same name while it is pending; one verified claim at most (ADR 031).
    customDomain: text('custom_domain'),
    customDomainVerificationToken: text('custom_domain_verification_token'),
    // When this claim was made: a pending claim expires (DOMAIN_CLAIM_DAYS).
    customDomainClaimedAt: timestamp('custom_domain_claimed_at', { withTimezone: true }),
    customDomainVerifiedAt: timestamp('custom_domain_verified_at', { withTimezone: true }),
    // The last DNS check, and when a verified domain's record went missing (misconfigured).
    customDomainCheckedAt: timestamp('custom_domain_checked_at', { withTimezone: true }),
    customDomainLostAt: timestamp('custom_domain_lost_at', { withTimezone: true }),
    // Branding: colours are validated hex (#rrggbb) on write; images are media rows.
    primaryColor: text('primary_color').notNull().default('#3b82f6'),
    secondaryColor: text('secondary_color').notNull().default('#10b981'),
    logoMediaId: uuid('logo_media_id'),
    faviconMediaId: uuid('favicon_media_id'),
    whiteLabelActive: boolean('white_label_active').notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('organizations_kind_idx').on(t.kind),
    // The background re-check takes the oldest-checked custom domains first.
    index('organizations_domain_check_idx')
      .on(t.customDomainCheckedAt)
      .where(sql`${t.customDomain} is not null`),
    // A domain serves one agency: the one whose claim is verified. Pending claims of the same
    // name may coexist (whoever proves it first takes it), so the index is on verified ones.
    uniqueIndex('organizations_verified_custom_domain')
      .on(t.customDomain)
      .where(sql`${t.customDomainVerifiedAt} is not null`),
    index('organizations_custom_domain_idx').on(t.customDomain),
    // There is exactly one platform; the root domain resolves to it.
    uniqueIndex('organizations_one_platform').on(t.kind).where(sql`${t.kind} = 'platform'`),
    // Branding images must be the organization's own media.
    foreignKey({
      name: 'organizations_logo_media_fk',
      columns: [t.id, t.logoMediaId],
      foreignColumns: [media.organizationId, media.id],
    }),
    foreignKey({
      name: 'organizations_favicon_media_fk',
      columns: [t.id, t.faviconMediaId],
      foreignColumns: [media.organizationId, media.id],
    }),
  ],
)

export const media = pgTable(
  'media',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: organizationId(),
    // SHA-256 of the encoded bytes: the same image is stored once per tenant.
    hash: text('hash').notNull(),
    ext: text('ext').notNull(),
    contentType: text('content_type').notNull(),
    purpose: text('purpose').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    byteSize: integer('byte_size').notNull(),
    data: bytea('data').notNull(),
    // Who uploaded it first (the per-user quota); no foreign key: a deleted user's uploads still
    // count against the tenant until they are swept.
    uploadedBy: uuid('uploaded_by'),
    // Set by each upload of these bytes, cleared (migration 0013's trigger) when a row first
    // references it: until then the uploader's form shows it for a short while (ADR 029).
    pendingSince: timestamp('pending_since', { withTimezone: true }),
    // When the sweep first found nothing referencing it; deleted once that is a grace old.
    unreferencedSince: timestamp('unreferenced_since', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    unique('media_org_id_key').on(t.organizationId, t.id),
    uniqueIndex('media_org_hash_key').on(t.organizationId, t.hash),
    index('media_org_idx').on(t.organizationId),
    index('media_org_uploader_idx').on(t.organizationId, t.uploadedBy),
  ],
)

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: organizationId(),
    // Stored lower-cased: one account per email per organization.
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    role: userRole('role').notNull().default('end_user'),
    status: userStatus('status').notNull().default('active'),
    plan: userPlan('plan').notNull().default('free'),
    memberPlan: memberPlan('member_plan').notNull().default('free'),
    firstName: text('first_name').notNull().default(''),
    lastName: text('last_name').notNull().default(''),
    workEmail: text('work_email').notNull().default(''),
    phoneNumber: text('phone_number').notNull().default(''),
    company: text('company').notNull().default(''),
    jobTitle: text('job_title').notNull().default(''),
    website: text('website').notNull().default(''),
    logoMediaId: uuid('logo_media_id'),
    profilePictureMediaId: uuid('profile_picture_media_id'),
    // The team member (team_admin) an end user is assigned to, within the organization.
    assignedToUserId: uuid('assigned_to_user_id'),
    onboardingStep: integer('onboarding_step').notNull().default(1),
    // Set when the owner opened the link of the sign-up confirmation email; sign-in does not wait for it.
    emailConfirmedAt: timestamp('email_confirmed_at', { withTimezone: true }),
    onboardingCompletedAt: timestamp('onboarding_completed_at', { withTimezone: true }),
    lastActiveAt: timestamp('last_active_at', { withTimezone: true }),
    // A staff account's title (roles doc §3: Team Lead, Administrator, ...); null for others.
    staffTitle: text('staff_title'),
    // The account's name link, `/card/{link_slug}` (ADR 027): "{first}-{last}" of the account's
    // own name, claimed by the first account of the organization to carry that name and kept
    // until it is renamed; null while another account holds it. Set only by the trigger of
    // migration 0011, never by the app, so no card title or card name can take it.
    linkSlug: text('link_slug'),
    // When the password was last set (sign-up, reset, change): password rotation (ADR 045) asks
    // for a new one once it is older than 90 days.
    passwordChangedAt: timestamp('password_changed_at', { withTimezone: true })
      .notNull()
      .defaultNow(),
    // The authenticator app's TOTP key, sealed with APP_SECRET (app/utils/secret-box.server.ts):
    // a backup alone never yields a code. Null while the account has no authenticator.
    totpKeySealed: text('totp_key_sealed'),
    // SHA-256 of each unused recovery code; a used one is removed in the same statement that
    // accepts it, so it works once (ADR 045).
    recoveryCodeHashes: text('recovery_code_hashes').array().notNull().default(sql`'{}'::text[]`),
    // The identity provider's id for the person (SCIM `externalId`, issue 42 point 2, ADR 089):
    // unique within the organization, null for accounts the directory does not manage.
    externalId: text('external_id'),
    // What the directory says beyond the name (SCIM enterprise extension, phones, office address),
    // written only by SCIM; validated by app/validation/scim.ts before every write.
    directory: jsonb('directory').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    unique('users_org_id_key').on(t.organizationId, t.id),
    uniqueIndex('users_org_external_id_key')
      .on(t.organizationId, t.externalId)
      .where(sql`${t.externalId} is not null`),
    uniqueIndex('users_org_email_key').on(t.organizationId, t.email),
    uniqueIndex('users_org_link_slug_key').on(t.organizationId, t.linkSlug),
    index('users_org_role_idx').on(t.organizationId, t.role),
    // Whether an image is still used (the media route, the sweep) is asked by media id.
    index('users_logo_media_idx').on(t.logoMediaId).where(sql`${t.logoMediaId} is not null`),
    index('users_profile_picture_media_idx')
      .on(t.profilePictureMediaId)
      .where(sql`${t.profilePictureMediaId} is not null`),
    foreignKey({
      name: 'users_logo_media_fk',
      columns: [t.organizationId, t.logoMediaId],
      foreignColumns: [media.organizationId, media.id],
    }),
    foreignKey({
      name: 'users_profile_picture_media_fk',
      columns: [t.organizationId, t.profilePictureMediaId],
      foreignColumns: [media.organizationId, media.id],
    }),
    foreignKey({
      name: 'users_assigned_to_fk',
      columns: [t.organizationId, t.assignedToUserId],
      foreignColumns: [t.organizationId, t.id],
    }).onDelete('set null'),
  ],
)

export const sessions = pgTable(
  'sessions',
  {
    // SHA-256 (hex) of the session token; the token itself is never stored.
    id: text('id').primaryKey(),
    organizationId: organizationId(),
    userId: uuid('user_id').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    // Lucia's two-factor guide: false while the sign-in's second step (code, recovery code or
    // enrolment) is still owed; the one guard sends such a session to that step (ADR 045).
    twoFactorVerified: boolean('two_factor_verified').notNull().default(false),
    // A passkey ceremony's challenge (ADR 045, Passkeys): '<purpose>:<challenge>', bound to this
    // session, cleared by the one statement that uses it, refused after its expiry.
    webauthnChallenge: text('webauthn_challenge'),
    webauthnChallengeExpiresAt: timestamp('webauthn_challenge_expires_at', { withTimezone: true }),
    // True once this session opened the emailed link that lets an account with no second factor
    // enrol one at the sign-in step (ADR 054): the password alone never picks the second factor.
    enrolmentEmailConfirmed: boolean('enrolment_email_confirmed').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    unique('sessions_org_id_key').on(t.organizationId, t.id),
    index('sessions_org_idx').on(t.organizationId),
    index('sessions_user_idx').on(t.userId),
    foreignKey({
      name: 'sessions_user_fk',
      columns: [t.organizationId, t.userId],
      foreignColumns: [users.organizationId, users.id],
    }).onDelete('cascade'),
  ],
)

// Passkeys (WebAuthn) as a second way to pass the sign-in's second step (ADR 045, Passkeys).
// The credential id is base64url as the browser sends it; the public key is COSE bytes.
export const passkeys = pgTable(
  'passkeys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: organizationId(),
    userId: uuid('user_id').notNull(),
    credentialId: text('credential_id').notNull(),
    publicKey: bytea('public_key').notNull(),
    counter: bigint('counter', { mode: 'number' }).notNull().default(0),
    transports: text('transports').array().notNull().default(sql`'{}'::text[]`),
    name: text('name').notNull(),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  (t) => [
    unique('passkeys_org_id_key').on(t.organizationId, t.id),
    unique('passkeys_org_credential_key').on(t.organizationId, t.credentialId),
    index('passkeys_org_user_idx').on(t.organizationId, t.userId),
    foreignKey({
      name: 'passkeys_user_fk',
      columns: [t.organizationId, t.userId],
      foreignColumns: [users.organizationId, users.id],
    }).onDelete('cascade'),
  ],
)

// A Stripe customer and its subscription (issue 31 point 5, ADR 051), held by what the plan is
// for (ADR 055): the organization itself (user_id null: Agency Pro, one per agency, whichever
// admin clicked and whether or not they stay), or a seat (user_id: the account whose own plan it
// is, a team plan on users.plan or Team Member Basic on users.member_plan). The plan is written
// only by the webhook jobs; a failed payment keeps it until grace_ends_at, then Free (rows stay).
export const billingStatus = pgEnum('billing_status', ['active', 'past_due', 'canceled'])

export const billingAccounts = pgTable(
  'billing_accounts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: organizationId(),
    /** The seat whose plan this pays for; null: the organization's own account. */
    userId: uuid('user_id'),
    stripeCustomerId: text('stripe_customer_id').notNull(),
    stripeSubscriptionId: text('stripe_subscription_id'),
    // Any plan Stripe sells (a team plan, Agency Pro, Team Member Basic) or 'free'.
    plan: text('plan')
      .$type<'free' | 'team_basic' | 'team_pro' | 'agency_pro' | 'team_member_basic'>()
      .notNull()
      .default('free'),
    status: billingStatus('status').notNull().default('active'),
    graceEndsAt: timestamp('grace_ends_at', { withTimezone: true }),
    /**
     * When the subscription state last applied was read from Stripe (outside any transaction):
     * a read older than this one is stale and changes nothing, whichever job finishes last.
     */
    subscriptionReadAt: timestamp('subscription_read_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    unique('billing_accounts_org_id_key').on(t.organizationId, t.id),
    unique('billing_accounts_org_user_key').on(t.organizationId, t.userId),
    uniqueIndex('billing_accounts_one_per_organization')
      .on(t.organizationId)
      .where(sql`${t.userId} is null`),
    // Events are matched to an account by their customer: one account per customer.
    unique('billing_accounts_org_customer_key').on(t.organizationId, t.stripeCustomerId),
    foreignKey({
      name: 'billing_accounts_user_fk',
      columns: [t.organizationId, t.userId],
      foreignColumns: [users.organizationId, users.id],
    }).onDelete('cascade'),
  ],
)

// Every verified Stripe event, by Stripe's id: a replay conflicts on the key and is ignored.
// Only the fields the handlers read are kept (no customer address or card at rest).
export const stripeEvents = pgTable(
  'stripe_events',
  {
    id: text('id').primaryKey(),
    organizationId: organizationId(),
    type: text('type').notNull(),
    data: jsonb('data').$type<Record<string, string>>().notNull(),
    /** When Stripe made the event (its `created`): the clock of the grace period. */
    occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull(),
    handledAt: timestamp('handled_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    unique('stripe_events_org_id_key').on(t.organizationId, t.id),
    index('stripe_events_org_idx').on(t.organizationId),
  ],
)

export const passwordResetTokens = pgTable(
  'password_reset_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: organizationId(),
    userId: uuid('user_id').notNull(),
    tokenHash: text('token_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    unique('password_reset_tokens_org_id_key').on(t.organizationId, t.id),
    // Looked up on the tenant's host, so per organization (a distributed table's keys hold it).
    unique('password_reset_tokens_org_token_hash_key').on(t.organizationId, t.tokenHash),
    index('password_reset_tokens_org_idx').on(t.organizationId),
    foreignKey({
      name: 'password_reset_tokens_user_fk',
      columns: [t.organizationId, t.userId],
      foreignColumns: [users.organizationId, users.id],
    }).onDelete('cascade'),
  ],
)

// Single-use sign-up confirmation links: only the SHA-256 of the token is stored (24 h).
export const emailConfirmationTokens = pgTable(
  'email_confirmation_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: organizationId(),
    userId: uuid('user_id').notNull(),
    // The address the link confirms: a link sent before an email change confirms nothing after it.
    email: text('email').notNull(),
    tokenHash: text('token_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    unique('email_confirmation_tokens_org_id_key').on(t.organizationId, t.id),
    unique('email_confirmation_tokens_org_token_hash_key').on(t.organizationId, t.tokenHash),
    index('email_confirmation_tokens_org_idx').on(t.organizationId),
    foreignKey({
      name: 'email_confirmation_tokens_user_fk',
      columns: [t.organizationId, t.userId],
      foreignColumns: [users.organizationId, users.id],
    }).onDelete('cascade'),
  ],
)

export const digitalCards = pgTable(
  'digital_cards',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: organizationId(),
    userId: uuid('user_id').notNull(),
    title: text('title').notNull(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    email: text('email').notNull().default(''),
    workEmail: text('work_email').notNull().default(''),
    phoneNumber: text('phone_number').notNull().default(''),
    company: text('company').notNull().default(''),
    jobTitle: text('job_title').notNull().default(''),
    department: text('department').notNull().default(''),
    website: text('website').notNull().default(''),
    logoMediaId: uuid('logo_media_id'),
    profilePictureMediaId: uuid('profile_picture_media_id'),
    // A background is a validated hex colour, a preset gradient id, or a media row: never CSS.
    backgroundKind: backgroundKind('background_kind').notNull().default('color'),
    backgroundValue: text('background_value').notNull().default('#ffffff'),
    backgroundMediaId: uuid('background_media_id'),
    // Issue 41 point 6 (ADR 083): a cover image across the card page's top, and a video shown as
    // a facade; the video is stored as its provider and id (app/validation/card-video.ts), both
    // or neither.
    coverMediaId: uuid('cover_media_id'),
    videoProvider: videoProvider('video_provider'),
    videoId: text('video_id'),
    isDefault: boolean('is_default').notNull().default(false),
    cardType: text('card_type').notNull().default('personal'),
    noindex: boolean('noindex').notNull().default(false),
    // Issue 28: what a card holds beyond the spec's fields. Limits and kinds are checked by
    // app/validation/card-details.ts; the columns only keep what it let through.
    bio: text('bio').notNull().default(''),
    pronouns: text('pronouns').notNull().default(''),
    phoneType: phoneType('phone_type').notNull().default('mobile'),
    phone2: text('phone2').notNull().default(''),
    phone2Type: phoneType('phone2_type').notNull().default('work'),
    addressStreet: text('address_street').notNull().default(''),
    addressCity: text('address_city').notNull().default(''),
    addressRegion: text('address_region').notNull().default(''),
    addressPostalCode: text('address_postal_code').notNull().default(''),
    addressCountry: text('address_country').notNull().default(''),
    // Issue 31: the agency template the card follows (ADR 048); its locked fields are the
    // template's. Cleared when the template goes (migration 0024: ON DELETE SET NULL of this column).
    templateId: uuid('template_id'),
    // Issue 43 (ADR 095): an archived card is kept with its analytics, links and short link but
    // shows nothing on any surface (the card gate) until its owner or the agency restores it.
    // Never the default card.
    archivedAt: timestamp('archived_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    unique('digital_cards_org_id_key').on(t.organizationId, t.id),
    check(
      'digital_cards_archived_not_default',
      sql`not (${t.isDefault} and ${t.archivedAt} is not null)`,
    ),
    index('digital_cards_org_template_idx')
      .on(t.organizationId, t.templateId)
      .where(sql`${t.templateId} is not null`),
    foreignKey({
      name: 'digital_cards_template_fk',
      columns: [t.organizationId, t.templateId],
      foreignColumns: [cardTemplates.organizationId, cardTemplates.id],
    }),
    index('digital_cards_org_user_idx').on(t.organizationId, t.userId),
    // Exactly one default card per user is kept by the model; at most one by the database.
    uniqueIndex('digital_cards_one_default_per_user')
      .on(t.organizationId, t.userId)
      .where(sql`${t.isDefault}`),
    // Whether an image is still used (the media route, the sweep) is asked by media id.
    index('digital_cards_logo_media_idx')
      .on(t.logoMediaId)
      .where(sql`${t.logoMediaId} is not null`),
    index('digital_cards_profile_picture_media_idx')
      .on(t.profilePictureMediaId)
      .where(sql`${t.profilePictureMediaId} is not null`),
    index('digital_cards_background_media_idx')
      .on(t.backgroundMediaId)
      .where(sql`${t.backgroundMediaId} is not null`),
    index('digital_cards_cover_media_idx')
      .on(t.coverMediaId)
      .where(sql`${t.coverMediaId} is not null`),
    check('digital_cards_video_whole', sql`(${t.videoProvider} is null) = (${t.videoId} is null)`),
    foreignKey({
      name: 'digital_cards_user_fk',
      columns: [t.organizationId, t.userId],
      foreignColumns: [users.organizationId, users.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'digital_cards_logo_media_fk',
      columns: [t.organizationId, t.logoMediaId],
      foreignColumns: [media.organizationId, media.id],
    }),
    foreignKey({
      name: 'digital_cards_profile_picture_media_fk',
      columns: [t.organizationId, t.profilePictureMediaId],
      foreignColumns: [media.organizationId, media.id],
    }),
    foreignKey({
      name: 'digital_cards_background_media_fk',
      columns: [t.organizationId, t.backgroundMediaId],
      foreignColumns: [media.organizationId, media.id],
    }),
    foreignKey({
      name: 'digital_cards_cover_media_fk',
      columns: [t.organizationId, t.coverMediaId],
      foreignColumns: [media.organizationId, media.id],
    }),
  ],
)

/** How a template holds one field of its cards (ADR 048): the template's value, kept or a start. */
export type TemplateFieldMode = 'locked' | 'required' | 'free'

// An agency's card template (issue 31 point 1, ADR 048): what the cards of its end users start
// with and, for locked fields, keep. One default per agency (`team_id` null) and at most one per
// team; a team's template wins over the default. `modes` maps each field (background, logo,
// company, website, address, links) to its mode; the rules live in app/templates/.
export const cardTemplates = pgTable(
  'card_templates',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: organizationId(),
    name: text('name').notNull(),
    teamId: uuid('team_id'),
    backgroundKind: backgroundKind('background_kind').notNull().default('color'),
    backgroundValue: text('background_value').notNull().default('#ffffff'),
    // The logo is the agency's own (Branding), or none: no second image to manage (ADR 048).
    useAgencyLogo: boolean('use_agency_logo').notNull().default(false),
    company: text('company').notNull().default(''),
    website: text('website').notNull().default(''),
    addressStreet: text('address_street').notNull().default(''),
    addressCity: text('address_city').notNull().default(''),
    addressRegion: text('address_region').notNull().default(''),
    addressPostalCode: text('address_postal_code').notNull().default(''),
    addressCountry: text('address_country').notNull().default(''),
    links: jsonb('links')
      .$type<{ kind: string; label: string; url: string }[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    modes: jsonb('modes')
      .$type<Record<string, TemplateFieldMode>>()
      .notNull()
      .default(sql`'{}'::jsonb`),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    unique('card_templates_org_id_key').on(t.organizationId, t.id),
    // One agency default, and one template per team.
    uniqueIndex('card_templates_one_default').on(t.organizationId).where(sql`${t.teamId} is null`),
    uniqueIndex('card_templates_one_per_team')
      .on(t.organizationId, t.teamId)
      .where(sql`${t.teamId} is not null`),
    foreignKey({
      name: 'card_templates_team_fk',
      columns: [t.organizationId, t.teamId],
      foreignColumns: [teams.organizationId, teams.id],
    }).onDelete('cascade'),
  ],
)

/** A card's links in the owner's order (issue 28); the kinds are app/validation/card-details.ts's. */
export const cardLinks = pgTable(
  'card_links',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: organizationId(),
    cardId: uuid('card_id').notNull(),
    position: integer('position').notNull(),
    kind: cardLinkKind('kind').notNull(),
    label: text('label').notNull().default(''),
    url: text('url').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    unique('card_links_org_id_key').on(t.organizationId, t.id),
    // The card page reads a card's links in order: this is that lookup, and one link per place.
    unique('card_links_org_card_position_key').on(t.organizationId, t.cardId, t.position),
    foreignKey({
      name: 'card_links_card_fk',
      columns: [t.organizationId, t.cardId],
      foreignColumns: [digitalCards.organizationId, digitalCards.id],
    }).onDelete('cascade'),
  ],
)

// A card's short links (`/c/{slug}`, ADR 039): one current slug per card, and the ones it had
// before, kept (retired) so their links still lead to it. A slug is unique within its
// organization, current or retired; another organization may hold the same one.
export const cardSlugs = pgTable(
  'card_slugs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: organizationId(),
    cardId: uuid('card_id').notNull(),
    slug: text('slug').notNull(),
    createdAt: createdAt(),
    // Set when the card took another slug; the link then redirects to the current one.
    retiredAt: timestamp('retired_at', { withTimezone: true }),
  },
  (t) => [
    unique('card_slugs_org_id_key').on(t.organizationId, t.id),
    uniqueIndex('card_slugs_org_slug_key').on(t.organizationId, t.slug),
    uniqueIndex('card_slugs_one_current_per_card')
      .on(t.organizationId, t.cardId)
      .where(sql`${t.retiredAt} is null`),
    index('card_slugs_org_card_idx').on(t.organizationId, t.cardId),
    foreignKey({
      name: 'card_slugs_card_fk',
      columns: [t.organizationId, t.cardId],
      foreignColumns: [digitalCards.organizationId, digitalCards.id],
    }).onDelete('cascade'),
  ],
)

// Whose card a departed person's links forward to (issue 31, ADR 049): one row per account
// whose seat the agency handed over. While the account is inactive, every link to its cards
// redirects to the successor's card (when the successor is active and has one); otherwise the
// agency's default forwarding answers. A row goes with either account (cascade): the default
// then answers.
export const seatSuccessors = pgTable(
  'seat_successors',
  {
    organizationId: organizationId(),
    userId: uuid('user_id').notNull(),
    successorId: uuid('successor_id').notNull(),
    handedOverByUserId: uuid('handed_over_by_user_id'),
    handedOverAt: timestamp('handed_over_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'seat_successors_pkey', columns: [t.organizationId, t.userId] }),
    index('seat_successors_org_successor_idx').on(t.organizationId, t.successorId),
    check('seat_successors_not_self', sql`${t.userId} <> ${t.successorId}`),
    foreignKey({
      name: 'seat_successors_user_fk',
      columns: [t.organizationId, t.userId],
      foreignColumns: [users.organizationId, users.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'seat_successors_successor_fk',
      columns: [t.organizationId, t.successorId],
      foreignColumns: [users.organizationId, users.id],
    }).onDelete('cascade'),
  ],
)

// "Delete my account" (issue 31 point 4, ADR 053): one row per account whose owner asked for
// its deletion, with when it goes. Signing in before then deletes the row (the deletion is
// cancelled); the job queued for `scheduled_for` deletes the account only while the row is
// there and due. The row goes with the account (cascade).
export const accountDeletions = pgTable(
  'account_deletions',
  {
    organizationId: organizationId(),
    userId: uuid('user_id').notNull(),
    requestedAt: timestamp('requested_at', { withTimezone: true }).notNull().defaultNow(),
    scheduledFor: timestamp('scheduled_for', { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ name: 'account_deletions_pkey', columns: [t.organizationId, t.userId] }),
    foreignKey({
      name: 'account_deletions_user_fk',
      columns: [t.organizationId, t.userId],
      foreignColumns: [users.organizationId, users.id],
    }).onDelete('cascade'),
  ],
)

// How many times what a person's own pages show has changed (ADR 109): bumped by triggers on the
// tables those pages read (migration 0055), read with the session. The signed-in page cache keys
// a stored page by it, so a write to any of them retires the pages it could change.
export const userDataVersions = pgTable(
  'user_data_versions',
  {
    organizationId: organizationId(),
    userId: uuid('user_id').notNull(),
    version: bigint('version', { mode: 'number' }).notNull().default(1),
  },
  (t) => [
    primaryKey({ name: 'user_data_versions_pkey', columns: [t.organizationId, t.userId] }),
    foreignKey({
      name: 'user_data_versions_user_fk',
      columns: [t.organizationId, t.userId],
      foreignColumns: [users.organizationId, users.id],
    }).onDelete('cascade'),
  ],
)

// The addresses of a deleted agency account's public cards (ADR 053, amending ADR 049's note):
// a card id, a short link slug (current or retired) or a name link, with the successor the
// agency chose, if any. Only what routing needs: no name, no card, no owner id. The card gate
// consults it when no live card answers an address, so a live card that takes a slug or name
// link later (once `held_until` has passed) wins. Kept until the agency goes (cascade).
export const departedAddresses = pgTable(
  'departed_addresses',
  {
    organizationId: organizationId(),
    kind: text('kind').$type<'card' | 'slug' | 'name'>().notNull(),
    // A card id, or a slug or name link in lower case.
    address: text('address').notNull(),
    // No foreign key: a successor deleted later leaves the agency's default to answer.
    successorId: uuid('successor_id'),
    departedAt: timestamp('departed_at', { withTimezone: true }).notNull().defaultNow(),
    // Until when nobody may claim the slug or name link again (issue 39 point 3, ADR 058): the
    // departure plus DEPARTED_LINK_QUARANTINE_DAYS, so the link keeps forwarding to the agency's
    // choice. A new card steps over it, a chosen short link is refused, and the name-link
    // trigger (migration 0033) gives it to no account before then.
    heldUntil: timestamp('held_until', { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ name: 'departed_addresses_pkey', columns: [t.organizationId, t.kind, t.address] }),
    check('departed_addresses_kind', sql`${t.kind} in ('card', 'slug', 'name')`),
  ],
)

// Apple Wallet passes of cards (issue 29, ADR 042): one per card and viewer (null: anyone
// signed out), so an update reaches a device only while the gate still shows that viewer the
// card. The serial number is the id. No authentication token is stored: each is derived from
// APP_SECRET and the serial (app/wallet/pass-token.server.ts).
export const walletPasses = pgTable(
  'wallet_passes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: organizationId(),
    cardId: uuid('card_id').notNull(),
    viewerId: uuid('viewer_id'),
    // What the pass shows, hashed: a refresh that finds the same hash changes and pushes nothing.
    contentHash: text('content_hash').notNull(),
    // The pass's Last-Modified and update tag, whole seconds (HTTP dates have no more), and
    // strictly increasing on every change (see bumpWalletPass).
    updatedAt: timestamp('updated_at', { withTimezone: true })
      .notNull()
      .default(sql`date_trunc('second', now())`),
    // Changed and not yet announced to every registered device: the refresh job pushes again.
    pushPending: boolean('push_pending').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    unique('wallet_passes_org_id_key').on(t.organizationId, t.id),
    uniqueIndex('wallet_passes_one_per_viewer')
      .on(t.organizationId, t.cardId, t.viewerId)
      .where(sql`${t.viewerId} is not null`),
    uniqueIndex('wallet_passes_one_anonymous')
      .on(t.organizationId, t.cardId)
      .where(sql`${t.viewerId} is null`),
    // A card's passes, for the refresh job and the change trigger's lookup on every card write.
    index('wallet_passes_org_card_idx').on(t.organizationId, t.cardId),
    foreignKey({
      name: 'wallet_passes_card_fk',
      columns: [t.organizationId, t.cardId],
      foreignColumns: [digitalCards.organizationId, digitalCards.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'wallet_passes_viewer_fk',
      columns: [t.organizationId, t.viewerId],
      foreignColumns: [users.organizationId, users.id],
    }).onDelete('cascade'),
  ],
)

// A device that added a pass and asked for its updates (Apple's PassKit web service): its
// push token is where APNs reaches it.
export const walletRegistrations = pgTable(
  'wallet_registrations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: organizationId(),
    passId: uuid('pass_id').notNull(),
    deviceLibraryId: text('device_library_id').notNull(),
    pushToken: text('push_token').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    unique('wallet_registrations_org_id_key').on(t.organizationId, t.id),
    uniqueIndex('wallet_registrations_pass_device_key').on(
      t.organizationId,
      t.passId,
      t.deviceLibraryId,
    ),
    index('wallet_registrations_device_idx').on(t.organizationId, t.deviceLibraryId),
    foreignKey({
      name: 'wallet_registrations_pass_fk',
      columns: [t.organizationId, t.passId],
      foreignColumns: [walletPasses.organizationId, walletPasses.id],
    }).onDelete('cascade'),
  ],
)

// The cards whose Google Wallet object exists or may exist (issue 29, ADR 043): a row is added
// when the card's save link is issued, so a card edit patches only objects someone may hold. The
// object's id is derived from the card's (issuer.card-{id}), never secret.
export const googleWalletObjects = pgTable(
  'google_wallet_objects',
  {
    organizationId: organizationId(),
    cardId: uuid('card_id').notNull(),
    objectId: text('object_id').notNull(),
    createdAt: createdAt(),
    // The last patch Google accepted; null until one was.
    patchedAt: timestamp('patched_at', { withTimezone: true }),
    // SHA-256 of the object Google last accepted: a change that alters nothing on it (a bio, a
    // link) sends nothing. Null until a patch was accepted.
    contentHash: text('content_hash'),
  },
  (t) => [
    primaryKey({ name: 'google_wallet_objects_pkey', columns: [t.organizationId, t.cardId] }),
    foreignKey({
      name: 'google_wallet_objects_card_fk',
      columns: [t.organizationId, t.cardId],
      foreignColumns: [digitalCards.organizationId, digitalCards.id],
    }).onDelete('cascade'),
  ],
)

// An agency's consent text for its lead forms (ADR 050): every save is a new version and old
// versions stay, so a lead's consent always names the exact words it agreed to. The newest
// version is the one shown; an empty body means the forms ask for no consent.
export const consentTexts = pgTable(
  'consent_texts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: organizationId(),
    version: integer('version').notNull(),
    body: text('body').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    unique('consent_texts_org_version_key').on(t.organizationId, t.version),
    unique('consent_texts_org_id_key').on(t.organizationId, t.id),
  ],
)

export const contacts = pgTable(
  'contacts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: organizationId(),
    userId: uuid('user_id').notNull(),
    fullName: text('full_name').notNull(),
    email: text('email').notNull().default(''),
    phoneNumber: text('phone_number').notNull().default(''),
    company: text('company').notNull().default(''),
    jobTitle: text('job_title').notNull().default(''),
    note: text('note').notNull().default(''),
    source: contactSource('source').notNull().default('manual'),
    sourceCardId: uuid('source_card_id'),
    // A lead's consent (ADR 050): the version of the agency's text it agreed to, when, and the
    // page it was on; null for contacts that came any other way or before a text was set.
    consentTextId: uuid('consent_text_id'),
    consentGivenAt: timestamp('consent_given_at', { withTimezone: true }),
    consentPage: text('consent_page'),
    // The SHA-256 of the token in the lead's receipt link (see or delete their data); never
    // the token (ADR 028).
    dataTokenHash: text('data_token_hash'),
    // Marked by its owner as their own (issue 31, ADR 049): stays with them when the agency
    // hands their seat over to a successor; every other contact is the company's.
    personal: boolean('personal').notNull().default(false),
    createdAt: createdAt(),
    // Issue 43 (ADR 092): when the row last changed, for the REST API's `updated_since` and its
    // cursor; a trigger (migration 0043) sets it on every update, whoever writes.
    updatedAt: updatedAt(),
  },
  (t) => [
    index('contacts_org_user_created_idx').on(t.organizationId, t.userId, t.createdAt),
    index('contacts_org_updated_idx').on(t.organizationId, t.updatedAt, t.id),
    unique('contacts_org_id_key').on(t.organizationId, t.id),
    uniqueIndex('contacts_data_token_hash_idx')
      .on(t.organizationId, t.dataTokenHash)
      .where(sql`${t.dataTokenHash} is not null`),
    foreignKey({
      name: 'contacts_consent_text_fk',
      columns: [t.organizationId, t.consentTextId],
      foreignColumns: [consentTexts.organizationId, consentTexts.id],
    }),
    foreignKey({
      name: 'contacts_user_fk',
      columns: [t.organizationId, t.userId],
      foreignColumns: [users.organizationId, users.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'contacts_source_card_fk',
      columns: [t.organizationId, t.sourceCardId],
      foreignColumns: [digitalCards.organizationId, digitalCards.id],
    }).onDelete('set null'),
  ],
)

export const cardViews = pgTable(
  'card_views',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: organizationId(),
    cardId: uuid('card_id').notNull(),
    // A keyed hash of the visitor (IP and user agent) for de-duplication; never the raw IP.
    visitorHash: text('visitor_hash').notNull(),
    // mobile, tablet or desktop, from the user agent at the time (views before it: unknown).
    deviceClass: text('device_class').notNull().default('unknown'),
    // The channel whose marked link was opened; unmarked (and views before sources): direct.
    source: viewSource('source').notNull().default('direct'),
    viewedAt: timestamp('viewed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique('card_views_org_id_key').on(t.organizationId, t.id),
    index('card_views_org_card_viewed_idx').on(t.organizationId, t.cardId, t.viewedAt),
    // A visitor's views (the hash is keyed by the card too): the repeat check of every recorded
    // view reads this visitor's entries, not every view of the card in the last half hour.
    index('card_views_org_visitor_idx').on(t.organizationId, t.visitorHash, t.viewedAt),
    foreignKey({
      name: 'card_views_card_fk',
      columns: [t.organizationId, t.cardId],
      foreignColumns: [digitalCards.organizationId, digitalCards.id],
    }).onDelete('cascade'),
  ],
)

// Views per card and UTC hour, kept by statement-level triggers on card_views (migration 0009):
// the dashboards sum these instead of counting every view, and count raw views only in the
// hours their windows cut (docs/decisions/010-dashboard-statistics.md).
export const cardViewHours = pgTable(
  'card_view_hours',
  {
    organizationId: organizationId(),
    cardId: uuid('card_id').notNull(),
    hour: timestamp('hour', { withTimezone: true }).notNull(),
    // Per source (ADR 039): a card's hour holds a row for each source seen in it.
    source: viewSource('source').notNull().default('direct'),
    views: integer('views').notNull().default(0),
  },
  (t) => [
    primaryKey({
      name: 'card_view_hours_pk',
      columns: [t.organizationId, t.cardId, t.hour, t.source],
    }),
    foreignKey({
      name: 'card_view_hours_card_fk',
      columns: [t.organizationId, t.cardId],
      foreignColumns: [digitalCards.organizationId, digitalCards.id],
    }).onDelete('cascade'),
  ],
)

// What a visitor did on a card besides looking at it (issue 41 point 8, ADR 082), per card,
// UTC hour, source and kind, in the style of card_view_hours: vCard downloads, wallet passes,
// taps on each link, lead forms and connects. Written in batches off the request path
// (app/cards/event-batcher.server.ts); no per-visitor row is kept.
export const cardEventKind = pgEnum('card_event_kind', [
  'vcard',
  'wallet',
  'link',
  'lead',
  'connect',
])

export const cardEventHours = pgTable(
  'card_event_hours',
  {
    organizationId: organizationId(),
    cardId: uuid('card_id').notNull(),
    hour: timestamp('hour', { withTimezone: true }).notNull(),
    source: viewSource('source').notNull().default('direct'),
    kind: cardEventKind('kind').notNull(),
    // The tapped link's id for kind 'link', '' otherwise: part of the key, so not null. Kept as
    // text, not a foreign key: a removed link's taps still count in the card's totals.
    linkId: text('link_id').notNull().default(''),
    count: integer('count').notNull().default(0),
  },
  (t) => [
    primaryKey({
      name: 'card_event_hours_pk',
      columns: [t.organizationId, t.cardId, t.hour, t.source, t.kind, t.linkId],
    }),
    // The analytics screens read an organization's hours in a range.
    index('card_event_hours_org_hour_idx').on(t.organizationId, t.hour),
    foreignKey({
      name: 'card_event_hours_card_fk',
      columns: [t.organizationId, t.cardId],
      foreignColumns: [digitalCards.organizationId, digitalCards.id],
    }).onDelete('cascade'),
  ],
)

export const apiSettings = pgTable(
  'api_settings',
  {
    organizationId: organizationId(),
    userId: uuid('user_id').notNull(),
    // Encrypted with APP_SECRET; never returned to the browser in full.
    gohighlevelApiKeyEncrypted: text('gohighlevel_api_key_encrypted'),
    // The key's last four characters: all the page ever shows of it again.
    gohighlevelApiKeyLast4: text('gohighlevel_api_key_last4'),
    // The GoHighLevel sub-account (location) the contacts go to; not a secret.
    gohighlevelLocationId: text('gohighlevel_location_id'),
    // Which CRM new contacts go to (ADR 094); each CRM keeps its own credentials below, so
    // switching back needs no new key, and a deletion still reaches the CRM that holds a contact.
    crmProvider: crmProvider('crm_provider').notNull().default('gohighlevel'),
    // HubSpot: a private app's access token, sealed like the GoHighLevel key.
    hubspotTokenEncrypted: text('hubspot_token_encrypted'),
    hubspotTokenLast4: text('hubspot_token_last4'),
    // Salesforce: the org's My Domain URL and a connected app's client id (neither a secret),
    // and its client secret, sealed (OAuth 2.0 client credentials flow).
    salesforceInstanceUrl: text('salesforce_instance_url'),
    salesforceClientId: text('salesforce_client_id'),
    salesforceClientSecretEncrypted: text('salesforce_client_secret_encrypted'),
    salesforceClientSecretLast4: text('salesforce_client_secret_last4'),
    enabled: boolean('enabled').notNull().default(false),
    validatedAt: timestamp('validated_at', { withTimezone: true }),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ name: 'api_settings_pk', columns: [t.organizationId, t.userId] }),
    foreignKey({
      name: 'api_settings_user_fk',
      columns: [t.organizationId, t.userId],
      foreignColumns: [users.organizationId, users.id],
    }).onDelete('cascade'),
  ],
)

export const teams = pgTable(
  'teams',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: organizationId(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    createdByUserId: uuid('created_by_user_id'),
    // The directory group this team mirrors (SCIM `externalId`, ADR 089); null for teams people made.
    externalId: text('external_id'),
    // True for a team the directory made (a SCIM group): only SCIM renames or removes it.
    fromDirectory: boolean('from_directory').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    unique('teams_org_id_key').on(t.organizationId, t.id),
    uniqueIndex('teams_org_external_id_key')
      .on(t.organizationId, t.externalId)
      .where(sql`${t.externalId} is not null`),
    index('teams_org_idx').on(t.organizationId),
    foreignKey({
      name: 'teams_created_by_fk',
      columns: [t.organizationId, t.createdByUserId],
      foreignColumns: [users.organizationId, users.id],
    }).onDelete('set null'),
  ],
)

export const teamMembers = pgTable(
  'team_members',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: organizationId(),
    teamId: uuid('team_id').notNull(),
    userId: uuid('user_id').notNull(),
    role: teamRole('role').notNull().default('member'),
    createdAt: createdAt(),
  },
  (t) => [
    unique('team_members_org_id_key').on(t.organizationId, t.id),
    unique('team_members_org_team_user_key').on(t.organizationId, t.teamId, t.userId),
    index('team_members_org_user_idx').on(t.organizationId, t.userId),
    foreignKey({
      name: 'team_members_team_fk',
      columns: [t.organizationId, t.teamId],
      foreignColumns: [teams.organizationId, teams.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'team_members_user_fk',
      columns: [t.organizationId, t.userId],
      foreignColumns: [users.organizationId, users.id],
    }).onDelete('cascade'),
  ],
)

export const teamInvitations = pgTable(
  'team_invitations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: organizationId(),
    teamId: uuid('team_id').notNull(),
    email: text('email').notNull(),
    role: teamRole('role').notNull().default('member'),
    tokenHash: text('token_hash').notNull(),
    invitedByUserId: uuid('invited_by_user_id'),
    status: invitationStatus('status').notNull().default('pending'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    unique('team_invitations_org_id_key').on(t.organizationId, t.id),
    unique('team_invitations_org_token_hash_key').on(t.organizationId, t.tokenHash),
    index('team_invitations_org_team_idx').on(t.organizationId, t.teamId),
    // One pending invitation per address and team: inviting again replaces it.
    uniqueIndex('team_invitations_pending_email_key')
      .on(t.organizationId, t.teamId, t.email)
      .where(sql`${t.status} = 'pending'`),
    foreignKey({
      name: 'team_invitations_team_fk',
      columns: [t.organizationId, t.teamId],
      foreignColumns: [teams.organizationId, teams.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'team_invitations_invited_by_fk',
      columns: [t.organizationId, t.invitedByUserId],
      foreignColumns: [users.organizationId, users.id],
    }).onDelete('set null'),
  ],
)

export const auditEvents = pgTable(
  'audit_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: organizationId(),
    actorUserId: uuid('actor_user_id'),
    action: text('action').notNull(),
    entityType: text('entity_type').notNull(),
    entityId: text('entity_id'),
    metadata: jsonb('metadata').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
  },
  (t) => [
    unique('audit_events_org_id_key').on(t.organizationId, t.id),
    index('audit_events_org_created_idx').on(t.organizationId, t.createdAt),
    // A user's own events, newest first (the end user's recent activity).
    index('audit_events_org_actor_created_idx').on(t.organizationId, t.actorUserId, t.createdAt),
  ],
)

export const userSettings = pgTable(
  'user_settings',
  {
    organizationId: organizationId(),
    userId: uuid('user_id').notNull(),
    // Validated by the settings zod schemas before every write.
    preferences: jsonb('preferences').$type<Record<string, unknown>>().notNull().default({}),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ name: 'user_settings_pk', columns: [t.organizationId, t.userId] }),
    foreignKey({
      name: 'user_settings_user_fk',
      columns: [t.organizationId, t.userId],
      foreignColumns: [users.organizationId, users.id],
    }).onDelete('cascade'),
  ],
)

export const organizationSettings = pgTable('organization_settings', {
  organizationId: organizationId().primaryKey(),
  preferences: jsonb('preferences').$type<Record<string, unknown>>().notNull().default({}),
  updatedAt: updatedAt(),
})

// One row: settings of the whole platform. The product name is the platform organization's name.
export const platformSettings = pgTable('platform_settings', {
  id: integer('id').primaryKey().default(1),
  platformUrl: text('platform_url').notNull().default(''),
  maintenanceMode: boolean('maintenance_mode').notNull().default(false),
  sessionTimeoutMinutes: integer('session_timeout_minutes').notNull().default(60),
  requireTwoFactorForAdmins: boolean('require_two_factor_for_admins').notNull().default(true),
  passwordRotation: boolean('password_rotation').notNull().default(false),
  updatedAt: updatedAt(),
})

export const emailOutbox = pgTable(
  'email_outbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: organizationId(),
    toAddress: text('to_address').notNull(),
    subject: text('subject').notNull(),
    html: text('html').notNull(),
    text: text('text').notNull(),
    // Extra message headers (List-Unsubscribe and List-Unsubscribe-Post on notifications).
    headers: jsonb('headers').$type<Record<string, string>>().notNull().default({}),
    // How to re-derive each token the email's links carry (ADR 028). The subject, bodies and
    // headers above hold each token's marker instead of the token: the mailer puts the tokens
    // back at delivery, so no usable link is ever at rest here or in a backup.
    secrets: jsonb('secrets').$type<OutboxSecret[]>().notNull().default([]),
    // Files sent with the email (a followed card's new vCard, ADR 102), their content in base64.
    attachments: jsonb('attachments').$type<OutboxAttachment[]>().notNull().default([]),
    // Set when a provider (Resend) accepted the message.
    providerMessageId: text('provider_message_id'),
    // queued until the job queue's worker delivers it (to Resend, or kept here without one).
    state: emailState('state').notNull().default('queued'),
    // The sender's display name (the tenant's brand, as the email shows it).
    fromName: text('from_name'),
    // The address it left from, decided at delivery: the agency's verified sending domain or the
    // platform's address (ADR 026). Null until delivered.
    fromAddress: text('from_address'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    unique('email_outbox_org_id_key').on(t.organizationId, t.id),
    index('email_outbox_org_created_idx').on(t.organizationId, t.createdAt),
  ],
)

// Announcements an agency admin writes to its end users (issue 30 point 2, ADR 046): sent only
// to those who opted in (Email Notifications and Marketing Communications on). The send queues
// one `announcement.send` job; the job fans out one email per recipient in batches, each batch
// committing with `cursor` (the last user id queued), so a crash resumes where it stopped and
// nobody gets it twice. `recipient_count` is how many were queued so far.
export const announcementStatus = pgEnum('announcement_status', [
  'queued',
  'sending',
  'sent',
  'failed',
])

export const announcements = pgTable(
  'announcements',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: organizationId(),
    // The admin who sent it; kept when their account goes (the history still lists it).
    sentByUserId: uuid('sent_by_user_id'),
    subject: text('subject').notNull(),
    body: text('body').notNull(),
    status: announcementStatus('status').notNull().default('queued'),
    recipientCount: integer('recipient_count').notNull().default(0),
    cursor: uuid('cursor'),
    createdAt: createdAt(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    unique('announcements_org_id_key').on(t.organizationId, t.id),
    index('announcements_org_created_idx').on(t.organizationId, t.createdAt),
  ],
)

/** One token of an outbox email: where it stands in the stored text, and how to derive it. */
export type OutboxAttachment = { filename: string; contentType: string; content: string }

export type OutboxSecret = { marker: string } & (
  | { kind: 'link'; purpose: string; seed: string }
  | { kind: 'unsubscribe'; userId: string; purpose: string }
  | { kind: 'follow-stop'; followerId: string }
)

export type SendingDomainRecord = {
  /** What the record is for, as the provider names it: SPF, DKIM, ... */
  record: string
  type: string
  name: string
  value: string
  ttl: string
  priority?: number
  status: string
}

// An agency's email sending domain (issue 17, ADR 026): registered with the email provider
// (Resend's domains API), which returns the DNS records to publish and says when they verify.
// One per organization; a domain belongs to one organization.
export const sendingDomains = pgTable(
  'sending_domains',
  {
    organizationId: organizationId().primaryKey(),
    domain: text('domain').notNull().unique(),
    // The part before the @ of the address emails leave from.
    senderLocalPart: text('sender_local_part').notNull().default('hello'),
    providerDomainId: text('provider_domain_id').notNull(),
    // The provider's status: not_started, pending, verified, failed, partially_verified, ...
    status: text('status').notNull(),
    records: jsonb('records').$type<SendingDomainRecord[]>().notNull().default([]),
    // Set while the provider says verified; lostAt when a verified domain stopped verifying.
    verifiedAt: timestamp('verified_at', { withTimezone: true }),
    lostAt: timestamp('lost_at', { withTimezone: true }),
    checkedAt: timestamp('checked_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('sending_domains_checked_idx').on(t.checkedAt)],
)

// Each new contact of a user whose CRM integration is on, and how its forwarding went: one row
// per contact, so a job that runs twice finds the CRM's contact id and creates nothing more.
export const crmSyncs = pgTable(
  'crm_syncs',
  {
    organizationId: organizationId(),
    contactId: uuid('contact_id').notNull(),
    userId: uuid('user_id').notNull(),
    state: crmSyncState('state').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    // The CRM the contact goes to, and once sent the one holding crm_contact_id (ADR 094).
    provider: crmProvider('provider').notNull().default('gohighlevel'),
    crmContactId: text('crm_contact_id'),
    lastError: text('last_error'),
    syncedAt: timestamp('synced_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ name: 'crm_syncs_pk', columns: [t.organizationId, t.contactId] }),
    index('crm_syncs_org_user_updated_idx').on(t.organizationId, t.userId, t.updatedAt),
    foreignKey({
      name: 'crm_syncs_contact_fk',
      columns: [t.organizationId, t.contactId],
      foreignColumns: [contacts.organizationId, contacts.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'crm_syncs_user_fk',
      columns: [t.organizationId, t.userId],
      foreignColumns: [users.organizationId, users.id],
    }).onDelete('cascade'),
  ],
)

// The durable job queue (app/jobs, ADR 019): work that must survive a crash and must not hold up
// a request. Not a tenant table: the worker claims jobs of every organization, and a job's own
// work then runs inside its organization's scope. Payloads carry ids, never personal data.
export const jobs = pgTable(
  'jobs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    payload: jsonb('payload').$type<Record<string, string>>().notNull().default({}),
    organizationId: uuid('organization_id').references(() => organizations.id, {
      onDelete: 'cascade',
    }),
    // At most one job per key, ever: enqueueing the same work twice adds nothing.
    idempotencyKey: text('idempotency_key'),
    state: jobState('state').notNull().default('queued'),
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull().default(5),
    runAt: timestamp('run_at', { withTimezone: true }).notNull().defaultNow(),
    // A running job whose lease has passed (its process died) is claimed again.
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    lastError: text('last_error'),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('jobs_idempotency_key_idx').on(t.idempotencyKey),
    index('jobs_due_idx').on(t.runAt).where(sql`${t.state} in ('queued', 'running')`),
  ],
)

// A person's "Download my data" (issue 31 point 4, ADR 052): one row per export, its zip in
// `zip` once built. One queued or running export per person at a time (the partial unique
// index), so a second press queues nothing. A ready export is deleted when `expires_at` passes
// (the hourly media sweep). The table's rows are left out of backups (a copy of data the backup
// already holds, which must not outlive its 7 days there).
export const dataExportState = pgEnum('data_export_state', ['queued', 'running', 'ready', 'failed'])

export const dataExports = pgTable(
  'data_exports',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: organizationId(),
    userId: uuid('user_id').notNull(),
    state: dataExportState('state').notNull().default('queued'),
    // 0 to 100 while it runs; what the profile's progress bar shows.
    progress: integer('progress').notNull().default(0),
    zip: bytea('zip'),
    byteSize: integer('byte_size'),
    // Why it failed, in words for the person (never a stack or a query).
    error: text('error'),
    createdAt: createdAt(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
  },
  (t) => [
    unique('data_exports_org_id_key').on(t.organizationId, t.id),
    index('data_exports_org_user_created_idx').on(t.organizationId, t.userId, t.createdAt),
    uniqueIndex('data_exports_one_pending_per_user')
      .on(t.organizationId, t.userId)
      .where(sql`${t.state} in ('queued', 'running')`),
    index('data_exports_org_expires_idx')
      .on(t.organizationId, t.expiresAt)
      .where(sql`${t.expiresAt} is not null`),
    foreignKey({
      name: 'data_exports_user_fk',
      columns: [t.organizationId, t.userId],
      foreignColumns: [users.organizationId, users.id],
    }).onDelete('cascade'),
  ],
)

// A paid plan asked for where nobody pays online (issue 41 point 4, ADR 079): without a payment
// provider the upgrade is a request the agency's admins grant or decline. One pending request per
// person (the partial unique index); a decided one stays as the record of who decided and when.
export const planRequestPlan = pgEnum('plan_request_plan', [
  'team_basic',
  'team_pro',
  'team_member_basic',
])
export const planRequestStatus = pgEnum('plan_request_status', [
  'pending',
  'granted',
  'declined',
  'withdrawn',
])

export const planRequests = pgTable(
  'plan_requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: organizationId(),
    userId: uuid('user_id').notNull(),
    plan: planRequestPlan('plan').notNull(),
    status: planRequestStatus('status').notNull().default('pending'),
    createdAt: createdAt(),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    // Who granted or declined it; null once that admin's account is gone (the decision stays).
    decidedBy: uuid('decided_by'),
  },
  (t) => [
    unique('plan_requests_org_id_key').on(t.organizationId, t.id),
    uniqueIndex('plan_requests_one_pending_per_user')
      .on(t.organizationId, t.userId)
      .where(sql`${t.status} = 'pending'`),
    index('plan_requests_org_status_created_idx').on(t.organizationId, t.status, t.createdAt),
    foreignKey({
      name: 'plan_requests_user_fk',
      columns: [t.organizationId, t.userId],
      foreignColumns: [users.organizationId, users.id],
    }).onDelete('cascade'),
  ],
)

// Single sign-on per agency (issue 42 point 1, ADR 088). A provider is OIDC today; SAML's
// columns come with it later, so the OIDC ones are nullable and `kind` says which apply.
export const ssoProviderKind = pgEnum('sso_provider_kind', ['oidc', 'saml'])

export const ssoProviders = pgTable(
  'sso_providers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: organizationId(),
    kind: ssoProviderKind('kind').notNull().default('oidc'),
    displayName: text('display_name').notNull(),
    // OIDC: the issuer (or its discovery document's URL), the client id and its secret, sealed
    // with APP_SECRET (app/utils/secret-box.server.ts); null for a SAML provider.
    issuerUrl: text('issuer_url'),
    clientId: text('client_id'),
    clientSecretSealed: text('client_secret_sealed'),
    // SAML: what the IdP's metadata said (its entity id, the redirect binding's sign-in URL, its
    // signing certificates as base64 bodies) and the metadata's URL when it was given by URL;
    // null for an OIDC provider.
    samlEntityId: text('saml_entity_id'),
    samlSsoUrl: text('saml_sso_url'),
    samlCertificates: text('saml_certificates').array(),
    samlMetadataUrl: text('saml_metadata_url'),
    // The role of an account made at its first sign-in (just in time), chosen by the admin.
    jitRole: userRole('jit_role').notNull().default('end_user'),
    enabled: boolean('enabled').notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    unique('sso_providers_org_id_key').on(t.organizationId, t.id),
    check(
      'sso_providers_oidc_fields',
      sql`${t.kind} <> 'oidc' or (${t.issuerUrl} is not null and ${t.clientId} is not null and ${t.clientSecretSealed} is not null)`,
    ),
    check(
      'sso_providers_saml_fields',
      sql`${t.kind} <> 'saml' or (${t.samlEntityId} is not null and ${t.samlSsoUrl} is not null and cardinality(${t.samlCertificates}) > 0)`,
    ),
  ],
)

// The SAML AuthnRequests sent and not yet answered (issue 42, ADR 090): an answer consumes its
// request, so a response replayed within its validity window finds nothing. Rows older than a
// sign-in's lifetime are deleted as new ones are written.
export const ssoSamlRequests = pgTable(
  'sso_saml_requests',
  {
    // The AuthnRequest's ID (node-saml's random "_" + 40 hex digits): not a secret, sent in the
    // clear to the IdP and back.
    id: text('id').primaryKey(),
    organizationId: organizationId(),
    providerId: uuid('provider_id').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    unique('sso_saml_requests_org_id_key').on(t.organizationId, t.id),
    index('sso_saml_requests_org_created_idx').on(t.organizationId, t.createdAt),
    foreignKey({
      name: 'sso_saml_requests_provider_fk',
      columns: [t.organizationId, t.providerId],
      foreignColumns: [ssoProviders.organizationId, ssoProviders.id],
    }).onDelete('cascade'),
  ],
)

// An email domain an agency claims for its provider, proven by a DNS TXT record. Any agency may
// claim a name; only one may hold it verified (the partial unique index), as custom domains.
export const ssoDomains = pgTable(
  'sso_domains',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: organizationId(),
    providerId: uuid('provider_id').notNull(),
    domain: text('domain').notNull(),
    // The TXT record's token (app/sso/sso-domains.server.ts says the record).
    token: text('token').notNull(),
    verifiedAt: timestamp('verified_at', { withTimezone: true }),
    // Password sign-in and reset refused for its addresses, break-glass admins aside.
    enforced: boolean('enforced').notNull().default(false),
    checkedAt: timestamp('checked_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    unique('sso_domains_org_id_key').on(t.organizationId, t.id),
    uniqueIndex('sso_domains_org_domain_key').on(t.organizationId, t.domain),
    uniqueIndex('sso_domains_verified_domain').on(t.domain).where(sql`${t.verifiedAt} is not null`),
    index('sso_domains_org_provider_idx').on(t.organizationId, t.providerId),
    foreignKey({
      name: 'sso_domains_provider_fk',
      columns: [t.organizationId, t.providerId],
      foreignColumns: [ssoProviders.organizationId, ssoProviders.id],
    }).onDelete('cascade'),
  ],
)

// SCIM 2.0 directory sync (issue 42 point 2, ADR 089). A bearer token an agency admin made for
// the agency's identity provider: only its SHA-256 is kept, with its last four characters for
// the list. A rotated token keeps working until `expiresAt` (the overlap the admin chose).
export const scimTokens = pgTable(
  'scim_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: organizationId(),
    name: text('name').notNull(),
    // SHA-256 (hex) of the token; the token itself is shown once and never stored.
    tokenHash: text('token_hash').notNull(),
    lastFour: text('last_four').notNull(),
    createdByUserId: uuid('created_by_user_id'),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  (t) => [
    unique('scim_tokens_org_id_key').on(t.organizationId, t.id),
    uniqueIndex('scim_tokens_org_hash_key').on(t.organizationId, t.tokenHash),
    index('scim_tokens_org_created_idx').on(t.organizationId, t.createdAt),
    foreignKey({
      name: 'scim_tokens_created_by_fk',
      columns: [t.organizationId, t.createdByUserId],
      foreignColumns: [users.organizationId, users.id],
    }).onDelete('set null'),
  ],
)

// The provisioning log: one row per SCIM call, what came (secrets redacted), what changed, the
// error. The admin reads it on /dashboard/agency/scim.
export const scimEvents = pgTable(
  'scim_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: organizationId(),
    tokenId: uuid('token_id'),
    method: text('method').notNull(),
    path: text('path').notNull(),
    resourceType: text('resource_type'),
    resourceId: text('resource_id'),
    status: integer('status').notNull(),
    request: jsonb('request').$type<unknown>(),
    changes: jsonb('changes').$type<Record<string, unknown>>().notNull().default({}),
    error: text('error'),
    createdAt: createdAt(),
  },
  (t) => [
    unique('scim_events_org_id_key').on(t.organizationId, t.id),
    index('scim_events_org_created_idx').on(t.organizationId, t.createdAt),
    index('scim_events_org_status_created_idx').on(t.organizationId, t.status, t.createdAt),
    foreignKey({
      name: 'scim_events_token_fk',
      columns: [t.organizationId, t.tokenId],
      foreignColumns: [scimTokens.organizationId, scimTokens.id],
    }).onDelete('set null'),
  ],
)

// Webhooks per the Standard Webhooks specification (issue 43 point 3, ADR 093). An agency's
// endpoint subscribes to event types; its signing secret (`whsec_…`) is sealed at rest (signing
// needs it back), and during a rotation the previous one signs too until `previous_secret_until`.
// `failing_since` is the first failed attempt since the last success: an endpoint failing for
// days is disabled (`disabled_at`) and the admins are emailed.
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: organizationId(),
    url: text('url').notNull(),
    description: text('description').notNull().default(''),
    eventTypes: text('event_types').array().notNull().default(sql`'{}'::text[]`),
    secretSealed: text('secret_sealed').notNull(),
    previousSecretSealed: text('previous_secret_sealed'),
    previousSecretUntil: timestamp('previous_secret_until', { withTimezone: true }),
    disabledAt: timestamp('disabled_at', { withTimezone: true }),
    disabledReason: text('disabled_reason'),
    failingSince: timestamp('failing_since', { withTimezone: true }),
    lastSuccessAt: timestamp('last_success_at', { withTimezone: true }),
    createdByUserId: uuid('created_by_user_id'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    unique('webhook_endpoints_org_id_key').on(t.organizationId, t.id),
    index('webhook_endpoints_org_created_idx').on(t.organizationId, t.createdAt),
    foreignKey({
      name: 'webhook_endpoints_created_by_fk',
      columns: [t.organizationId, t.createdByUserId],
      foreignColumns: [users.organizationId, users.id],
    }).onDelete('set null'),
  ],
)

// One event as it happened (the transactional outbox): written in the fact's transaction, only
// when an endpoint of the agency subscribes to its type. `payload` is the body every endpoint
// gets ({ type, timestamp, data }); its id is the `webhook-id` header. `dedupe_key` keeps an
// hourly digest to one event per hour.
export const webhookMessages = pgTable(
  'webhook_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: organizationId(),
    eventType: text('event_type').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    dedupeKey: text('dedupe_key'),
    createdAt: createdAt(),
  },
  (t) => [
    unique('webhook_messages_org_id_key').on(t.organizationId, t.id),
    uniqueIndex('webhook_messages_org_dedupe_key')
      .on(t.organizationId, t.dedupeKey)
      .where(sql`${t.dedupeKey} is not null`),
    index('webhook_messages_org_created_idx').on(t.organizationId, t.createdAt),
  ],
)

// One message to one endpoint: pending until an attempt succeeds, failed when its retries (up
// to three days) ran out or the endpoint was disabled.
export const webhookDeliveryStatus = pgEnum('webhook_delivery_status', [
  'pending',
  'succeeded',
  'failed',
])

export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: organizationId(),
    endpointId: uuid('endpoint_id').notNull(),
    messageId: uuid('message_id').notNull(),
    status: webhookDeliveryStatus('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    unique('webhook_deliveries_org_id_key').on(t.organizationId, t.id),
    index('webhook_deliveries_org_endpoint_created_idx').on(
      t.organizationId,
      t.endpointId,
      t.createdAt,
    ),
    foreignKey({
      name: 'webhook_deliveries_endpoint_fk',
      columns: [t.organizationId, t.endpointId],
      foreignColumns: [webhookEndpoints.organizationId, webhookEndpoints.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'webhook_deliveries_message_fk',
      columns: [t.organizationId, t.messageId],
      foreignColumns: [webhookMessages.organizationId, webhookMessages.id],
    }).onDelete('cascade'),
  ],
)

// The delivery log: one row per attempt (status, time, duration, response body size, error).
export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: organizationId(),
    deliveryId: uuid('delivery_id').notNull(),
    attemptedAt: timestamp('attempted_at', { withTimezone: true }).notNull().defaultNow(),
    durationMs: integer('duration_ms').notNull().default(0),
    statusCode: integer('status_code'),
    responseBytes: integer('response_bytes'),
    error: text('error'),
    manual: boolean('manual').notNull().default(false),
  },
  (t) => [
    unique('webhook_attempts_org_id_key').on(t.organizationId, t.id),
    index('webhook_attempts_org_delivery_idx').on(t.organizationId, t.deliveryId, t.attemptedAt),
    foreignKey({
      name: 'webhook_attempts_delivery_fk',
      columns: [t.organizationId, t.deliveryId],
      foreignColumns: [webhookDeliveries.organizationId, webhookDeliveries.id],
    }).onDelete('cascade'),
  ],
)

// Where each agency's hourly webhook digests stand (card.viewed, ADR 093): the start of the last
// hour a digest of the type was made for (sent, or found with nothing to send). Each run makes every
// full hour after it, up to three days back, so an hour no process was up to send goes late, not never.
export const webhookDigestCursors = pgTable(
  'webhook_digest_cursors',
  {
    organizationId: organizationId(),
    eventType: text('event_type').notNull(),
    lastHour: timestamp('last_hour', { withTimezone: true }).notNull(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({
      name: 'webhook_digest_cursors_pkey',
      columns: [t.organizationId, t.eventType],
    }),
  ],
)

// Issue 45 point 1 (ADR 102): a recipient who asked, on a card's page, to be told when the card
// changes. Double opt-in: `pending` until the emailed link is opened (only the SHA-256 of its
// token is kept), `confirmed` after, `unsubscribed` once a message's one-click link is used. An
// edit of a watched field (migration 0051's trigger) sets `changed_at` on the card's confirmed
// followers; the digest job sends each one whose change is newer than `last_digest_at`, at most
// one per day. One row per card and address (lower-cased).
export const cardFollowerState = pgEnum('card_follower_state', [
  'pending',
  'confirmed',
  'unsubscribed',
])

export const cardFollowers = pgTable(
  'card_followers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: organizationId(),
    cardId: uuid('card_id').notNull(),
    email: text('email').notNull(),
    state: cardFollowerState('state').notNull().default('pending'),
    confirmTokenHash: text('confirm_token_hash'),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
    changedAt: timestamp('changed_at', { withTimezone: true }),
    lastDigestAt: timestamp('last_digest_at', { withTimezone: true }),
    // When this follower was told the card's owner moved on to a personal card (ADR 103): once.
    movedNoticeAt: timestamp('moved_notice_at', { withTimezone: true }),
    // The language of the card page the follower asked on (ADR 105): their emails are written in
    // it, also the digest and the "has moved" notice a job writes later. A language code of
    // app/validation/languages.ts, checked there before every write.
    language: text('language').notNull().default('en'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    unique('card_followers_org_id_key').on(t.organizationId, t.id),
    unique('card_followers_org_card_email_key').on(t.organizationId, t.cardId, t.email),
    uniqueIndex('card_followers_org_token_key').on(t.organizationId, t.confirmTokenHash),
    foreignKey({
      name: 'card_followers_card_fk',
      columns: [t.organizationId, t.cardId],
      foreignColumns: [digitalCards.organizationId, digitalCards.id],
    }).onDelete('cascade'),
  ],
)

// A personal card offered to a person whose seat is handed over (issue 45 point 2, ADR 103): one
// row per departing account of the agency. The agency keeps only the SHA-256 of the emailed
// claim link's token (cleared once used) and, once claimed, the personal card's public address
// (its slug on the platform's host); never the person's personal email or phone.
export const personalCardOffers = pgTable(
  'personal_card_offers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: organizationId(),
    userId: uuid('user_id').notNull(),
    tokenHash: text('token_hash'),
    offeredByUserId: uuid('offered_by_user_id'),
    offeredAt: timestamp('offered_at', { withTimezone: true }).notNull().defaultNow(),
    claimedAt: timestamp('claimed_at', { withTimezone: true }),
    personalCardSlug: text('personal_card_slug'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    unique('personal_card_offers_org_id_key').on(t.organizationId, t.id),
    unique('personal_card_offers_org_user_key').on(t.organizationId, t.userId),
    uniqueIndex('personal_card_offers_org_token_key').on(t.organizationId, t.tokenHash),
    foreignKey({
      name: 'personal_card_offers_user_fk',
      columns: [t.organizationId, t.userId],
      foreignColumns: [users.organizationId, users.id],
    }).onDelete('cascade'),
  ],
)

// A person's own card on the platform's host (issue 45 point 2, ADR 103): rows of the platform
// organization only, written when a departing person claims an agency's offer. What the person
// typed (their name, personal email and phone) and nothing of the agency; the agency's tenant
// cannot read it (row-level security), it knows only the public address.
export const personalCards = pgTable(
  'personal_cards',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: organizationId(),
    slug: text('slug').notNull(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    email: text('email').notNull().default(''),
    phone: text('phone').notNull().default(''),
    // The emailed link that lets the person edit or remove the card (ADR 106): only the SHA-256
    // of its token, and when it was sent (it works for an hour).
    manageTokenHash: text('manage_token_hash'),
    manageLinkSentAt: timestamp('manage_link_sent_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    unique('personal_cards_org_id_key').on(t.organizationId, t.id),
    unique('personal_cards_org_slug_key').on(t.organizationId, t.slug),
    uniqueIndex('personal_cards_org_manage_token_key').on(t.organizationId, t.manageTokenHash),
  ],
)

// The REST API's keys (issue 43 point 1, ADR 092): the agency's, not the admin's who made them
// (the creator is kept for the list and cleared when that account goes). Only the SHA-256 of the
// key is stored, with its last four characters; the key is shown once.
export const apiKeys = pgTable(
  'api_keys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: organizationId(),
    name: text('name').notNull(),
    // What the key may do, e.g. `cards:read`, `contacts:write` (app/validation/api.ts).
    scopes: jsonb('scopes').$type<string[]>().notNull().default([]),
    // SHA-256 (hex) of the key; the key itself is never stored.
    keyHash: text('key_hash').notNull(),
    lastFour: text('last_four').notNull(),
    createdByUserId: uuid('created_by_user_id'),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    lastUsedIp: text('last_used_ip'),
  },
  (t) => [
    unique('api_keys_org_id_key').on(t.organizationId, t.id),
    uniqueIndex('api_keys_org_hash_key').on(t.organizationId, t.keyHash),
    index('api_keys_org_created_idx').on(t.organizationId, t.createdAt),
    foreignKey({
      name: 'api_keys_created_by_fk',
      columns: [t.organizationId, t.createdByUserId],
      foreignColumns: [users.organizationId, users.id],
    }).onDelete('set null'),
  ],
)

// The first answer to each create sent with an `Idempotency-Key` (ADR 092), per organization
// and key: the same key with the same body gets this answer again, with another body a 422.
export const apiIdempotencyKeys = pgTable(
  'api_idempotency_keys',
  {
    organizationId: organizationId(),
    idempotencyKey: text('idempotency_key').notNull(),
    apiKeyId: uuid('api_key_id'),
    method: text('method').notNull(),
    path: text('path').notNull(),
    // SHA-256 of the request body as sent.
    requestHash: text('request_hash').notNull(),
    status: integer('status').notNull(),
    response: jsonb('response').$type<unknown>(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({
      name: 'api_idempotency_keys_pkey',
      columns: [t.organizationId, t.idempotencyKey],
    }),
    index('api_idempotency_keys_created_idx').on(t.createdAt),
    foreignKey({
      name: 'api_idempotency_keys_key_fk',
      columns: [t.organizationId, t.apiKeyId],
      foreignColumns: [apiKeys.organizationId, apiKeys.id],
    }).onDelete('set null'),
  ],
)

// Fixed-window counters shared by every app instance (sign-in and reset throttling).
export const rateLimits = pgTable('rate_limits', {
  key: text('key').primaryKey(),
  count: integer('count').notNull().default(0),
  resetAt: timestamp('reset_at', { withTimezone: true }).notNull(),
})

export const tenantTables = {
  media,
  users,
  sessions,
  passkeys,
  passwordResetTokens,
  digitalCards,
  cardLinks,
  cardSlugs,
  walletPasses,
  walletRegistrations,
  googleWalletObjects,
  consentTexts,
  contacts,
  cardViews,
  cardViewHours,
  cardEventHours,
  apiSettings,
  crmSyncs,
  teams,
  teamMembers,
  teamInvitations,
  auditEvents,
  userSettings,
  organizationSettings,
  emailOutbox,
  emailConfirmationTokens,
  sendingDomains,
  announcements,
  billingAccounts,
  stripeEvents,
  seatSuccessors,
  cardTemplates,
  accountDeletions,
  userDataVersions,
  departedAddresses,
  dataExports,
  planRequests,
  ssoProviders,
  ssoDomains,
  ssoSamlRequests,
  scimTokens,
  scimEvents,
  webhookEndpoints,
  webhookMessages,
  webhookDeliveries,
  webhookAttempts,
  webhookDigestCursors,
  apiKeys,
  apiIdempotencyKeys,
  cardFollowers,
  personalCardOffers,
  personalCards,
} as const
