// Sessions made in the database for the seeded accounts, so a spec that is not about signing in
// starts signed in instead of going through the sign-in form (a page load, an argon2 hash and a
// redirect each time). e2e/start-server.ts creates one session per account below, the way a
// sign-in does (app/auth/session.server.ts createSession), and writes it as a Playwright storage
// state; e2e/page-helpers.ts (signedInAs, storageStateOf) hands it to the specs.
//
// A shared session must outlive every spec that uses it: a spec that signs out, changes a
// password or email, resets a password or deactivates its account ends sessions, so it signs in
// through the form as an account of its own, never as one of these.
// Shared sessions last the platform's session timeout (60 minutes) after their last use: the
// server renews them on use once half of it has passed (ADR 014).
import path from 'node:path'
import { CARD_OWNER, HOSTS, PROFILE_ONLY, SUPER_ADMIN } from './fixtures'
import { CRM_USERS, DASHBOARD_USERS, ROLE_USERS, SETTINGS_USERS } from './role-users'
import { SPEC_ACCOUNTS, SPEC_AGENCIES, type SpecAgency } from './spec-accounts'

/** An account seeded by e2e/start-server.ts and the host its organization is served on. */
export type SessionUser = { email: string; host: string }

export const SESSION_USERS: readonly SessionUser[] = [
  { email: SUPER_ADMIN.email, host: HOSTS.platform },
  { email: CARD_OWNER.email, host: HOSTS.alpha },
  { email: PROFILE_ONLY.email, host: HOSTS.alpha },
  ...ROLE_USERS,
  ...Object.values(DASHBOARD_USERS),
  ...Object.values(SETTINGS_USERS),
  ...Object.values(CRM_USERS),
  ...Object.values(SPEC_ACCOUNTS),
  ...(Object.values(SPEC_AGENCIES) as SpecAgency[]).flatMap((agency) => [
    { email: agency.owner.email, host: agency.host },
    ...(agency.endUsers ?? []).map((endUser) => ({ email: endUser.email, host: agency.host })),
  ]),
]

/** The account's entry in SESSION_USERS (the host its session is valid on). */
export function sessionUser(email: string): SessionUser {
  const user = SESSION_USERS.find((candidate) => candidate.email === email)
  if (!user) {
    throw new Error(`${email} has no session: add the account to SESSION_USERS (e2e/sessions.ts)`)
  }
  return user
}

/** The server's cookie (app/auth/session.server.ts sessionCookieName, NODE_ENV=production). */
export const SESSION_COOKIE = '__Host-session'

/**
 * Where the storage state of `email`'s session on the server at `port` is written: one folder
 * per server, so the embedded and production servers (started at once) keep apart. Gitignored.
 */
export function storageStateFile(port: number, email: string) {
  return path.join(import.meta.dirname, '.auth', String(port), `${email}.json`)
}

export function storageStateFolder(port: number) {
  return path.join(import.meta.dirname, '.auth', String(port))
}

/**
 * A Playwright storage state holding only the session cookie, host-only as the server sets it.
 * A browser-session cookie: the server alone decides when the session ends (its row's expiry,
 * renewed on use), so a run longer than the first expiry keeps it.
 */
export function sessionStorageState(host: string, token: string) {
  return {
    cookies: [
      {
        name: SESSION_COOKIE,
        value: token,
        // No leading dot: a host-only cookie, as __Host- requires.
        domain: host,
        path: '/',
        expires: -1,
        httpOnly: true,
        secure: true,
        sameSite: 'Lax' as const,
      },
    ],
    origins: [],
  }
}
