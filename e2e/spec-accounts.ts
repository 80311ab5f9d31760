// Accounts single specs used to create through a form (sign-up, Add Agency) only to sign in as
// them: seeded by e2e/start-server.ts with a session instead (e2e/sessions.ts), each one spec's
// own. The forms themselves stay covered where they are the subject (e2e/accounts.spec.ts signs
// up, e2e/super-admin-agencies.spec.ts adds an agency whose owner sets a password and signs in).
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
}

/** Alpha end users, as a sign-up leaves them: default preferences, no card unless `card`. */
export const SPEC_ACCOUNTS = {
  /** e2e/accounts.spec.ts: the confirmation banner of a fresh sign-up. */
  banner: {
    host: HOSTS.alpha,
    email: 'banner-bo@e2e.test',
    firstName: 'Bo',
    lastName: 'Banner',
    emailConfirmed: false,
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
} as const satisfies Record<string, SpecAccount>

export type SpecAgency = {
  name: string
  slug: string
  host: string
  owner: { email: string; firstName: string; lastName: string }
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
} as const satisfies Record<string, SpecAgency>
