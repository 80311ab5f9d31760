// /email/unsubscribe: the one-click unsubscribe of notification emails (RFC 8058). The signed
// token is the only authority: no session is read, so the POST a mailbox provider sends (no
// cookies, no Origin; server.ts lets exactly this path through its Origin check) works, and a
// forged POST without a valid token changes nothing. GET only shows the page: link scanners
// open every link in an email, and opening must not unsubscribe.
import { type AppLoadContext, data } from '@remix-run/node'
import { readUnsubscribeToken, type UnsubscribePurpose } from '#app/email/unsubscribe-token.server'
import { readPlainForm } from '#app/media/uploads.server'
import { recordAccountAudit } from '#app/models/audit.server'
import { findUserById } from '#app/models/users.server'
import { requireTenant } from '#app/tenancy/require-tenant.server'
import type { Tenant } from '#app/tenancy/tenant.server'
import { type Transaction, withTenant } from '#drizzle/db.server'
import { getNotificationPreferences, saveNotificationPreferences } from './preferences.server'

export const UNSUBSCRIBE_PATH = '/email/unsubscribe'
export const INVALID_UNSUBSCRIBE_MESSAGE =
  'This unsubscribe link is not valid. Open it again from the email, or turn notifications off in your profile.'
export const ONE_CLICK_REQUIRED_MESSAGE =
  'An unsubscribe request must carry List-Unsubscribe=One-Click.'

// The token is in the URL: it must not leak through the Referer header or a shared cache.
const NO_REFERRER = { 'Referrer-Policy': 'no-referrer', 'Cache-Control': 'no-store' }

function tokenOf(request: Request) {
  return new URL(request.url).searchParams.get('token') ?? ''
}

/** The user a token names, when it is ours, for this tenant and a user who still exists. */
async function userForToken(tx: Transaction, tenant: Tenant, token: string) {
  const statement = readUnsubscribeToken(token)
  // Another tenant's token, even a genuine one, is refused on this host.
  if (!statement || statement.organizationId !== tenant.id) return null
  const user = await findUserById(tx, tenant.id, statement.userId)
  return user ? { user, purpose: statement.purpose } : null
}

/** The switch a token's purpose turns off: Email Notifications, or Marketing Communications. */
const SWITCH_OF: Record<UnsubscribePurpose, 'notifications' | 'marketingEmails'> = {
  notifications: 'notifications',
  marketing: 'marketingEmails',
}

const invalid = () =>
  data(
    { status: 'invalid' as const, message: INVALID_UNSUBSCRIBE_MESSAGE },
    { status: 400, headers: NO_REFERRER },
  )

export async function unsubscribeLoader(request: Request, context: AppLoadContext) {
  const tenant = await requireTenant(context)
  const token = tokenOf(request)
  const found = await withTenant(tenant.id, async (tx) => {
    const named = await userForToken(tx, tenant, token)
    if (!named) return null
    const preferences = await getNotificationPreferences(tx, tenant.id, named.user.id)
    return { purpose: named.purpose, on: preferences[SWITCH_OF[named.purpose]] }
  })
  if (!found) return invalid()
  return data(
    { status: 'valid' as const, token, purpose: found.purpose, notificationsOn: found.on },
    { headers: NO_REFERRER },
  )
}

export async function unsubscribeAction(request: Request, context: AppLoadContext) {
  const tenant = await requireTenant(context)
  const token = tokenOf(request)
  const form = await readPlainForm(request)
  const done = await withTenant(tenant.id, async (tx) => {
    const named = await userForToken(tx, tenant, token)
    if (!named) return 'invalid' as const
    const { user, purpose } = named
    // RFC 8058's body: a stray POST to the link (not the one-click request) changes nothing.
    if (form.get('List-Unsubscribe') !== 'One-Click') return 'not-one-click' as const
    const key = SWITCH_OF[purpose]
    const current = await getNotificationPreferences(tx, tenant.id, user.id)
    if (!current[key]) return purpose
    await saveNotificationPreferences(tx, tenant.id, user.id, { [key]: false })
    await recordAccountAudit(
      tx,
      tenant.id,
      user.id,
      purpose === 'marketing' ? 'marketing.unsubscribed' : 'notifications.unsubscribed',
      { via: 'one-click link' },
    )
    return purpose
  })
  if (done === 'invalid') return invalid()
  if (done === 'not-one-click') {
    return data(
      { status: 'invalid' as const, message: ONE_CLICK_REQUIRED_MESSAGE },
      { status: 400, headers: NO_REFERRER },
    )
  }
  return data({ status: 'unsubscribed' as const, purpose: done }, { headers: NO_REFERRER })
}
