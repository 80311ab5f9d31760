// The tenants the end-to-end servers are started with (e2e/start-server.ts).
import { test } from '@playwright/test'

/** The embedded (PGlite) server's port; the production-configuration server uses the next one. */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 3100)
export const E2E_PRODUCTION_PORT = E2E_PORT + 1

/**
 * The port of the server the running test's project targets (its baseURL), so one spec file
 * runs against either server. Call it inside a test or hook, never at a module's top level.
 */
export function e2ePort(): number {
  const baseURL = test.info().project.use.baseURL
  if (!baseURL) throw new Error(`Project ${test.info().project.name} has no baseURL`)
  return Number(new URL(baseURL).port)
}

/** The port of the DNS server a spec may start for the running project's server (custom domains). */
export function dnsPort(): number {
  return e2ePort() + 1000
}

/**
 * The port of the fake GoHighLevel server started beside the running project's server
 * (e2e/start-server.ts, tests/fake-crm.ts); specs drive it with POST /__fake/state.
 */
export function crmPort(): number {
  return e2ePort() + 2000
}

/**
 * The port of the fake Resend (emails and domains API) the running project's server sends
 * through (e2e/start-server.ts, tests/fake-resend.ts): GET /__fake/emails, POST /__fake/state.
 */
export function resendPort(): number {
  return e2ePort() + 3000
}

/**
 * The port of the fake Stripe beside the production-configuration server (e2e/start-server.ts,
 * tests/fake-stripe.ts): its hosted Checkout page, and POST /__fake/fail-invoice for a renewal
 * that fails. The embedded server has no Stripe (its specs see plans granted by admins).
 */
export function stripePort(): number {
  return e2ePort() + 4000
}

/**
 * The port of the fake HubSpot API beside the running project's server (e2e/start-server.ts,
 * tests/fake-hubspot.ts, ADR 094); specs drive it with POST /__fake/state.
 */
export function hubspotPort(): number {
  return e2ePort() + 5000
}

/** The key the e2e servers give their fake Resend. */
export const E2E_RESEND_KEY = 're_e2e_fake_key'

/** Custom domains the specs create: Chromium maps them to this machine (playwright.config.ts). */
export const E2E_DOMAIN_SUFFIX = 'agency-e2e.test'

export const TENANTS = {
  platform: {
    slug: 'platform',
    name: 'E2E Platform',
    primaryColor: '#4f46e5',
    secondaryColor: '#06b6d4',
  },
  alpha: {
    slug: 'alpha',
    name: 'Alpha Agency',
    primaryColor: '#e11d48',
    secondaryColor: '#f59e0b',
  },
  beta: {
    slug: 'beta',
    name: 'Beta Partners',
    primaryColor: '#7c3aed',
    secondaryColor: '#22c55e',
    customDomain: 'cards.beta.test',
  },
} as const

export const urlFor = (host: string, path = '/') => `http://${host}:${e2ePort()}${path}`
export const HOSTS = {
  platform: 'localhost',
  alpha: 'alpha.localhost',
  betaSubdomain: 'beta.localhost',
  betaCustomDomain: TENANTS.beta.customDomain,
}

/**
 * The platform's address for accessibility requests, set when the e2e servers start
 * (e2e/start-server.ts): its accessibility statement names it (ADR 100). No trace of the
 * platform in it: an agency that names none shows it too (no-trace.spec.ts).
 */
export const PLATFORM_ACCESSIBILITY_EMAIL = 'access@help-desk.example.test'

export const SUPER_ADMIN = { email: 'root@e2e.test', password: 'superpass1' }
/** An Alpha user whose password was set 100 days ago (e2e/two-factor.spec.ts, rotation). */
export const OLD_PASSWORD_USER = { email: 'rotation@e2e.test', password: 'rotation-pass-1' }
/** A user of Alpha holding an expired reset token whose raw value the tests know. */
export const EXPIRED_RESET = {
  email: 'expired@e2e.test',
  token: 'expiredexpiredexpiredexpiredexpiredexpiredexpiredexp',
}

/** An Alpha user with a public card, for the sharing tests. */
export const CARD_OWNER = {
  email: 'olivia@e2e.test',
  password: 'ownerpass1',
  firstName: 'Olivia',
  lastName: 'Owner',
  company: 'Widgets, Inc; Ltd',
  jobTitle: 'Chief Sharer',
  phoneNumber: '+1 555 0123',
  website: 'https://widgets.example.test',
}

/** An Alpha user who finished the profile wizard and has no card: the QR screen shows the profile. */
export const PROFILE_ONLY = {
  email: 'pia@e2e.test',
  password: 'profilepass1',
  firstName: 'Pia',
  lastName: 'Profile Only',
  jobTitle: 'Freelance Sharer',
  slug: 'pia-profile-only',
}
