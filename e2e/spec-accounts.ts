// Accounts single specs used to create through a form (sign-up, Add Agency) only to sign in as
// them: seeded by e2e/start-server.ts with a session instead (e2e/sessions.ts), each one spec's
// own. The forms themselves stay covered where they are the subject (e2e/accounts.spec.ts signs
// up, e2e/super-admin-agencies.spec.ts adds an agency whose owner sets a password and signs in).
import type { PaidPlanId } from '#app/validation/plans'
import { HOSTS } from './fixtures'

export type SpecAccount = {
  host: string
  email: string
  firstName: string
  lastName: string
  /** Whether the address is confirmed (a sign-up's is not, and shows the confirmation banner). */
  emailConfirmed: boolean
  /** A card of their own, shared at `/card/{first}-{last}` (lower case). */
  card?: boolean
  /** A plan as the agency's Change Plan leaves it (free unless given). */
  plan?: PaidPlanId
}

/** End users (of Alpha unless `host` says Beta), as a sign-up leaves them: default preferences, no card unless `card`. */
export const SPEC_ACCOUNTS = {
  /** e2e/accounts.spec.ts: the confirmation banner of a fresh sign-up. */
  banner: {
    host: HOSTS.alpha,
    email: 'banner-bo@e2e.test',
    firstName: 'Bo',
    lastName: 'Banner',
    emailConfirmed: false,
  },
  /**
   * e2e/signature.spec.ts: a card owner of Beta, whose verified custom domain the signature's
   * images are built on while she works on Beta's subdomain (issue 41 point 2).
   */
  betaSignature: {
    host: HOSTS.betaSubdomain,
    email: 'sig-bea@e2e.test',
    firstName: 'Bea',
    lastName: 'Signer',
    emailConfirmed: true,
    card: true,
  },
  /** e2e/notifications.spec.ts: a new user's notification preferences. */
  preferences: {
    host: HOSTS.alpha,
    email: 'notify-nell@e2e.test',
    firstName: 'Nell',
    lastName: 'Prefs',
    emailConfirmed: false,
  },
  /** e2e/notifications.spec.ts: the visitor who connects with the card owner. */
  connector: {
    host: HOSTS.alpha,
    email: 'notify-nina@e2e.test',
    firstName: 'Nina',
    lastName: 'Notify',
    emailConfirmed: false,
  },
  /**
   * e2e/notifications.spec.ts: the card owner whose one-click link turns notifications off and
   * leaves them off. Not CARD_OWNER: other specs running beside it (e2e/no-trace.spec.ts) expect
   * Olivia's new-contact email, which an unsubscribed Olivia never gets.
   */
  cardOwner: {
    host: HOSTS.alpha,
    email: 'notify-una@e2e.test',
    firstName: 'Una',
    lastName: 'Notify',
    emailConfirmed: true,
    card: true,
  },
  /**
   * e2e/teams.spec.ts: the owner who is granted a plan, is refused an invitation until she
   * confirms her email (the banner's resend), creates a team and invites.
   */
  teamOwner: {
    host: HOSTS.alpha,
    email: 'team-ann@e2e.test',
    firstName: 'Ann',
    lastName: 'Teamer',
    emailConfirmed: false,
  },
  /** e2e/teams.spec.ts: the Alpha colleague Ann adds, who becomes a manager and invites. */
  teamColleague: {
    host: HOSTS.alpha,
    email: 'team-ben@e2e.test',
    firstName: 'Ben',
    lastName: 'Teamer',
    emailConfirmed: true,
  },
  /** e2e/teams.spec.ts: an owner with Team Pro whose team's invitation is declined. */
  declinedOwner: {
    host: HOSTS.alpha,
    email: 'team-gus@e2e.test',
    firstName: 'Gus',
    lastName: 'Teamer',
    emailConfirmed: true,
    plan: 'team_pro',
  },
  /** e2e/teams.spec.ts: a signed-in account that opens an invitation sent to another address. */
  bystander: {
    host: HOSTS.alpha,
    email: 'team-hana@e2e.test',
    firstName: 'Hana',
    lastName: 'Teamer',
    emailConfirmed: true,
  },
  /**
   * e2e/settings.spec.ts: an owner on Team Basic whose team's Invite Member dialog preselects
   * Alpha's default team role (ADR 015).
   */
  policyOwner: {
    host: HOSTS.alpha,
    email: 'policy-polly@e2e.test',
    firstName: 'Polly',
    lastName: 'Policy',
    emailConfirmed: false,
    plan: 'team_basic',
  },
  /** e2e/cards.spec.ts: a new user who walks the profile wizard, then manages cards. */
  cardWizard: {
    host: HOSTS.alpha,
    email: 'cards-casey@e2e.test',
    firstName: 'Casey',
    lastName: 'Cardmaker',
    emailConfirmed: false,
  },
  /** e2e/cards.spec.ts: a new user whose first card tries every background. */
  cardBackgrounds: {
    host: HOSTS.alpha,
    email: 'cards-cody@e2e.test',
    firstName: 'Cody',
    lastName: 'Cardmaker',
    emailConfirmed: false,
  },
  /** e2e/cards.spec.ts: a new user who opens the editor of a card that does not exist. */
  cardMissing: {
    host: HOSTS.alpha,
    email: 'cards-cal@e2e.test',
    firstName: 'Cal',
    lastName: 'Cardmaker',
    emailConfirmed: false,
  },
  /**
   * e2e/view-sources.spec.ts: a card owner whose card is opened by its QR code and its copied
   * link, then sees both views under their sources.
   */
  viewSources: {
    host: HOSTS.alpha,
    email: 'sources-sam@e2e.test',
    firstName: 'Sam',
    lastName: 'Sources',
    emailConfirmed: true,
    card: true,
  },
  /** e2e/card-details.spec.ts: adds a bio, a second phone, an address and links to a card. */
  cardDetails: {
    host: HOSTS.alpha,
    email: 'details-dana@e2e.test',
    firstName: 'Dana',
    lastName: 'Details',
    emailConfirmed: true,
    card: true,
  },
  /** e2e/short-links.spec.ts: an owner who picks and changes the short link of her card. */
  shortLinker: {
    host: HOSTS.alpha,
    email: 'short-sia@e2e.test',
    firstName: 'Sia',
    lastName: 'Shortlink',
    emailConfirmed: true,
    card: true,
  },
  /**
   * e2e/card-journey.spec.ts (the production project): adds a link, picks a short link that a
   * visitor opens, changes it.
   */
  journey: {
    host: HOSTS.alpha,
    email: 'journey-jo@e2e.test',
    firstName: 'Jo',
    lastName: 'Journey',
    emailConfirmed: true,
    card: true,
  },
  /**
   * e2e/card-journey.spec.ts (the production project): edits a card with its live preview, is
   * asked before leaving unsaved changes, and saves in one step (issue 41 point 5).
   */
  editor: {
    host: HOSTS.alpha,
    email: 'editor-eve@e2e.test',
    firstName: 'Eve',
    lastName: 'Editor',
    emailConfirmed: true,
    card: true,
  },
  /**
   * e2e/plan-requests.spec.ts: asks Alpha's admins for Team Pro where nobody pays online, and
   * is told the answer (issue 41 point 4).
   */
  planRequester: {
    host: HOSTS.alpha,
    email: 'plan-requester-rae@e2e.test',
    firstName: 'Rae',
    lastName: 'Requester',
    emailConfirmed: true,
  },
  /**
   * e2e/billing.spec.ts (the production project): upgrades through the fake Stripe Checkout,
   * then a renewal fails and the plan falls back to Free after the grace period.
   */
  billing: {
    host: HOSTS.alpha,
    email: 'billing-bea@e2e.test',
    firstName: 'Bea',
    lastName: 'Billing',
    emailConfirmed: true,
  },
  /**
   * e2e/data-export.spec.ts (the production project, ADR 052): asks for her data, watches it
   * being prepared by the job worker and downloads the zip.
   */
  dataExport: {
    host: HOSTS.alpha,
    email: 'export-eli@e2e.test',
    firstName: 'Eli',
    lastName: 'Exporter',
    emailConfirmed: true,
    card: true,
  },
  /**
   * e2e/analytics.spec.ts (the production project, ADR 082): her card is opened by its QR link,
   * saved and answered with a lead form; her analytics then show the view, the save and the
   * exchange with their rates, and the CSV says the same.
   */
  analytics: {
    host: HOSTS.alpha,
    email: 'analytics-ada@e2e.test',
    firstName: 'Ada',
    lastName: 'Analytics',
    emailConfirmed: true,
    card: true,
  },
} as const satisfies Record<string, SpecAccount>

export type SpecAgency = {
  name: string
  slug: string
  host: string
  owner: { email: string; firstName: string; lastName: string }
  /** The consent text its lead forms ask for (ADR 050), as its admin's first save leaves it. */
  consentText?: string
  /** End users of the agency, with confirmed emails and default preferences, signed in. */
  endUsers?: readonly {
    email: string
    firstName: string
    lastName: string
    /** A card of their own, at the short link `/c/{first}-{last}` (lower case). */
    card?: boolean
    /** Contacts they gathered, by name and email. */
    contacts?: readonly { fullName: string; email: string }[]
    /** A password, for a spec that signs in through the form (none: nobody can). */
    password?: string
  }[]
}

/**
 * Agencies as the super admin's Add Agency leaves them (default branding, Starter), whose owner
 * has set a password and signed in: one per spec, which may change or deactivate it.
 */
export const SPEC_AGENCIES = {
  /** e2e/agency-branding.spec.ts */
  branding: {
    name: 'Brandly',
    slug: 'brandly',
    host: 'brandly.localhost',
    owner: { email: 'brandly-owner@example.test', firstName: 'Brenda', lastName: 'Brand' },
  },
  /**
   * e2e/super-admin-people.spec.ts: an agency whose owner is its only agency admin, whose
   * demotion the super admin is refused (and which is left as it was).
   */
  solo: {
    name: 'Solo Agency',
    slug: 'solo',
    host: 'solo.localhost',
    owner: { email: 'solo-owner@example.test', firstName: 'Owen', lastName: 'Solo' },
  },
  /**
   * e2e/announcements.spec.ts: an agency of its own, so its announcement reaches exactly the end
   * user who opts in there (and its daily limit is nobody else's): Opal opts in, Ned does not.
   */
  announcer: {
    name: 'Announcer Agency',
    slug: 'announcer',
    host: 'announcer.localhost',
    owner: { email: 'announcer-owner@example.test', firstName: 'Ava', lastName: 'Announcer' },
    endUsers: [
      { email: 'announce-opal@e2e.test', firstName: 'Opal', lastName: 'Optin' },
      { email: 'announce-ned@e2e.test', firstName: 'Ned', lastName: 'Nooptin' },
    ],
  },
  /**
   * e2e/lead-consent.spec.ts (the production project): an agency of its own, so the consent its
   * admin sets asks nothing of the other specs' leads; Cleo's card takes the lead, her CRM hears
   * of its consent and its deletion.
   */
  consenting: {
    name: 'Consenting Agency',
    slug: 'consenting',
    host: 'consenting.localhost',
    owner: { email: 'consenting-owner@example.test', firstName: 'Cora', lastName: 'Consent' },
    endUsers: [
      { email: 'consent-cleo@e2e.test', firstName: 'Cleo', lastName: 'Leads', card: true },
    ],
  },
  /**
   * e2e/card-followers.spec.ts (the production project, ADR 102): a visitor follows Fern's
   * card, and her edit of her title reaches them as a digest with the new vCard.
   */
  following: {
    name: 'Following Agency',
    slug: 'following',
    host: 'following.localhost',
    owner: { email: 'following-owner@example.test', firstName: 'Flo', lastName: 'Following' },
    endUsers: [
      { email: 'follow-fern@e2e.test', firstName: 'Fern', lastName: 'Follow', card: true },
    ],
  },
  /**
   * e2e/personal-cards.spec.ts (the production project, ADR 103): Mira's seat goes to Sid with
   * a personal card offered; she claims it, leaves, and her card's follower is told "has moved".
   */
  moving: {
    name: 'Moving Agency',
    slug: 'moving',
    host: 'moving.localhost',
    owner: { email: 'moving-owner@example.test', firstName: 'Mo', lastName: 'Mover' },
    endUsers: [
      { email: 'move-mira@e2e.test', firstName: 'Mira', lastName: 'Moving', card: true },
      { email: 'move-sid@e2e.test', firstName: 'Sid', lastName: 'Staying', card: true },
    ],
  },
  /**
   * e2e/seat-forwarding.spec.ts (ADR 049): Dora leaves, her seat goes to Sam, and her card links
   * open Sam's card; her company contact becomes his.
   */
  /**
   * e2e/contacts.spec.ts: Coco's contacts on a phone (issue 41 point 12): a lead who consents
   * on her card joins a contact she added by hand; her agency has a consent text of its own.
   */
  contacts: {
    name: 'Contacts Agency',
    slug: 'contactsco',
    host: 'contactsco.localhost',
    owner: { email: 'contactsco-owner@example.test', firstName: 'Cora', lastName: 'Contacts' },
    consentText: 'Contacts Agency may keep my details to get back to me.',
    endUsers: [
      {
        email: 'contacts-coco@e2e.test',
        firstName: 'Coco',
        lastName: 'Collector',
        card: true,
        contacts: [{ fullName: 'Mia Mentor', email: 'mia@mentor.e2e.test' }],
      },
      // e2e/scan-card.spec.ts: reads a paper card into her contacts (issue 45 point 3).
      { email: 'contacts-sid@e2e.test', firstName: 'Sid', lastName: 'Scanner', card: true },
      // e2e/offline.spec.ts: shows his QR code and vCard and captures a lead without a network
      // (issue 45 point 4).
      { email: 'contacts-otto@e2e.test', firstName: 'Otto', lastName: 'Offline', card: true },
    ],
  },
  handover: {
    name: 'Handover Agency',
    slug: 'handover',
    host: 'handover.localhost',
    owner: { email: 'handover-owner@example.test', firstName: 'Hal', lastName: 'Handover' },
    endUsers: [
      {
        email: 'handover-dora@e2e.test',
        firstName: 'Dora',
        lastName: 'Departing',
        card: true,
        contacts: [{ fullName: 'Carla Client', email: 'carla@client.e2e.test' }],
      },
      { email: 'handover-sam@e2e.test', firstName: 'Sam', lastName: 'Successor', card: true },
    ],
  },
  /**
   * e2e/account-deletion.spec.ts (the production project, ADR 053): Lena asks to delete her
   * account, signs in again (which cancels it), asks again, and once the grace period is over her
   * short link answers the agency's forwarding and her password no longer signs in.
   */
  leaver: {
    name: 'Leaver Agency',
    slug: 'leaver',
    host: 'leaver.localhost',
    owner: { email: 'leaver-owner@example.test', firstName: 'Lee', lastName: 'Leaver' },
    endUsers: [
      {
        email: 'leaver-lena@e2e.test',
        firstName: 'Lena',
        lastName: 'Leaving',
        card: true,
        password: 'leaverpass1',
      },
    ],
  },
  /**
   * e2e/card-templates.spec.ts (the production project): the admin locks the company on a
   * template and applies it to Tess's card, whose edit of the company is then kept out.
   */
  /**
   * e2e/scim.spec.ts (issue 42 point 2, ADR 089): its admin makes a SCIM token, a provider's
   * calls create and deactivate a person, and the provisioning log shows them; an agency of its
   * own, so no other spec's people change.
   */
  directory: {
    name: 'Directory Agency',
    slug: 'directory',
    host: 'directory.localhost',
    owner: { email: 'directory-owner@example.test', firstName: 'Dina', lastName: 'Directory' },
    // e2e/scim.spec.ts: the directory takes over Dana's account and her card's title follows it.
    endUsers: [{ email: 'dir-dana@e2e.test', firstName: 'Dana', lastName: 'Deer', card: true }],
  },
  /**
   * e2e/api.spec.ts (issue 43, ADR 092, the production project): its admin makes an API key and
   * a request with it lists the agency's cards; the second agency's key sees none of them.
   */
  integrator: {
    name: 'Integrator Agency',
    slug: 'integrator',
    host: 'integrator.localhost',
    owner: { email: 'integrator-owner@example.test', firstName: 'Ines', lastName: 'Integrator' },
    endUsers: [{ email: 'api-ivy@e2e.test', firstName: 'Ivy', lastName: 'Apicard', card: true }],
  },
  bystander: {
    name: 'Bystander Agency',
    slug: 'bystander',
    host: 'bystander.localhost',
    owner: { email: 'bystander-owner@example.test', firstName: 'Bea', lastName: 'Bystander' },
    endUsers: [{ email: 'api-bo@e2e.test', firstName: 'Bo', lastName: 'Elsewhere', card: true }],
  },
  templater: {
    name: 'Templater Agency',
    slug: 'templater',
    host: 'templater.localhost',
    owner: { email: 'templater-owner@example.test', firstName: 'Tom', lastName: 'Templater' },
    endUsers: [
      { email: 'template-tess@e2e.test', firstName: 'Tess', lastName: 'Template', card: true },
    ],
  },
  /**
   * e2e/billing.spec.ts (the production project): its admin buys Agency Pro through the fake
   * Stripe Checkout on Agency Settings → Billing (ADR 051); nobody else's tier changes.
   */
  /**
   * e2e/sharing.spec.ts (issue 41 point 6, ADR 083): Rita gives her card a cover and a video,
   * and her agency's admin points the card page's "Get your own card" at its own page; an agency
   * of its own, so no other spec's footer changes.
   */
  recipient: {
    name: 'Recipient Agency',
    slug: 'recipient',
    host: 'recipient.localhost',
    owner: { email: 'recipient-owner@example.test', firstName: 'Rory', lastName: 'Recipient' },
    endUsers: [
      { email: 'recipient-rita@e2e.test', firstName: 'Rita', lastName: 'Richcard', card: true },
    ],
  },
  /**
   * e2e/webhooks.spec.ts (issue 43 point 3, ADR 093): its admin subscribes a local receiver to
   * lead.created and a visitor leaves details on Hana's card; an agency of its own, so no other
   * spec's leads are sent anywhere.
   */
  hooked: {
    name: 'Hooked Agency',
    slug: 'hooked',
    host: 'hooked.localhost',
    owner: { email: 'hooked-owner@example.test', firstName: 'Hugo', lastName: 'Hooked' },
    endUsers: [{ email: 'hooked-hana@e2e.test', firstName: 'Hana', lastName: 'Hook', card: true }],
  },
  buyer: {
    name: 'Buyer Agency',
    slug: 'buyer',
    host: 'buyer.localhost',
    owner: { email: 'buyer-owner@example.test', firstName: 'Bill', lastName: 'Buyer' },
  },
} as const satisfies Record<string, SpecAgency>
