// "Sent" means queued (issue 26 point 11): an action that tells the user an email went out
// answers 503 when the database could not take the email, never its success message; and
// forgot-password answers a known and an unknown address alike while it does.
import { eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { setUserPlan } from '#app/models/users.server'
import { action as forgotAction } from '#app/routes/auth.forgot-password'
import { action as registerAction } from '#app/routes/auth.register'
import { action as teamAction } from '#app/routes/dashboard.end-user.team'
import { action as bannerAction } from '#app/routes/resources.email-confirmation'
import { resolveTenant } from '#app/tenancy/tenant.server'
import { getDb, withTenant } from '#drizzle/db.server'
import { emailOutbox, jobs } from '#drizzle/schema'
import {
  contextFor,
  formRequest,
  makeOrganization,
  makeUser,
  sessionCookieFor,
  settle,
  uniqueSuffix,
  withQueueWritesFailing,
  withUnreachableDatabase,
} from '#tests/factories'

let ips = 0
const nextIp = () => `198.51.100.${(ips++ % 200) + 1}`

/** The action's answer, returned or thrown, without running the queue afterwards. */
async function answerOf(run: () => Promise<unknown>) {
  const outcome = await Promise.resolve()
    .then(run)
    .catch((thrown: unknown) => thrown)
  if (!(outcome instanceof Response)) throw outcome
  return outcome
}

const queuedFor = async (organizationId: string) => ({
  jobs: await getDb().select().from(jobs).where(eq(jobs.organizationId, organizationId)),
  emails: await getDb()
    .select()
    .from(emailOutbox)
    .where(eq(emailOutbox.organizationId, organizationId)),
})

async function tenantWithUser(emailConfirmed = true) {
  const organization = await makeOrganization()
  const host = `${organization.slug}.localhost`
  const user = await makeUser(organization.id, {
    email: `known-${uniqueSuffix()}@example.test`,
    ...(emailConfirmed ? {} : { emailConfirmedAt: null }),
  })
  return { organization, host, user }
}

function forgot(host: string, email: string) {
  return answerOf(() =>
    forgotAction({
      request: formRequest(host, '/auth/forgot-password', { email }),
      context: contextFor(host, nextIp()),
      params: {},
    }),
  )
}

describe('forgot password while the database is away', () => {
  test('Postgres unreachable: 503 for a known and an unknown address alike, nothing queued', async () => {
    const { organization, host, user } = await tenantWithUser()
    // The host was served before the outage, so its tenant comes from the cache.
    expect((await resolveTenant(host)).status).toBe('found')
    const known = await withUnreachableDatabase(() => forgot(host, user.email))
    const unknown = await withUnreachableDatabase(() =>
      forgot(host, `nobody-${uniqueSuffix()}@example.test`),
    )
    expect(known.status).toBe(503)
    expect(unknown.status).toBe(503)
    expect(known.headers.get('Set-Cookie')).toBeNull()
    expect(await known.text()).toBe(await unknown.text())
    expect(await queuedFor(organization.id)).toEqual({ jobs: [], emails: [] })
  })
})

describe('every action that says an email went out, with the database dropping as it queues', () => {
  const cases: {
    name: string
    run: () => Promise<{ organizationId: string; answer: () => Promise<Response> }>
  }[] = [
    {
      name: 'forgot password, known address',
      run: async () => {
        const { organization, host, user } = await tenantWithUser()
        return { organizationId: organization.id, answer: () => forgot(host, user.email) }
      },
    },
    {
      name: 'forgot password, unknown address',
      run: async () => {
        const { organization, host } = await tenantWithUser()
        return {
          organizationId: organization.id,
          answer: () => forgot(host, `nobody-${uniqueSuffix()}@example.test`),
        }
      },
    },
    ...(['new', 'taken'] as const).map((kind) => ({
      name: `sign-up, ${kind} address`,
      run: async () => {
        const { organization, host, user } = await tenantWithUser()
        const email = kind === 'taken' ? user.email : `new-${uniqueSuffix()}@example.test`
        const fields = { firstName: 'Nell', lastName: 'New', email, password: 'nell-secret' }
        return {
          organizationId: organization.id,
          answer: () =>
            answerOf(() =>
              registerAction({
                request: formRequest(host, '/auth/register', fields),
                context: contextFor(host, nextIp()),
                params: {},
              }),
            ),
        }
      },
    })),
    {
      name: 'resend the confirmation link',
      run: async () => {
        const { organization, host, user } = await tenantWithUser(false)
        const cookie = await sessionCookieFor(organization.id, user.id)
        return {
          organizationId: organization.id,
          answer: () =>
            answerOf(() =>
              bannerAction({
                request: formRequest(
                  host,
                  '/resources/email-confirmation',
                  { intent: 'resend' },
                  cookie,
                ),
                context: contextFor(host, nextIp()),
                params: {},
              }),
            ),
        }
      },
    },
    {
      name: 'team invitation to an outside address',
      run: async () => {
        const { organization, host, user } = await tenantWithUser()
        await setUserPlanFor(organization.id, user.id)
        const cookie = await sessionCookieFor(organization.id, user.id)
        const team = (fields: Record<string, string>) => () =>
          teamAction({
            request: formRequest(host, '/dashboard/end-user/team', fields, cookie),
            context: contextFor(host, nextIp()),
            params: {},
          })
        const created = await settle(team({ intent: 'create-team', name: 'Outage team' }))
        const teamId = new URL(created.headers.get('Location') ?? '', 'http://x').searchParams.get(
          'team',
        )
        if (!teamId) throw new Error('no team')
        const email = `outsider-${uniqueSuffix()}@example.test`
        return {
          organizationId: organization.id,
          answer: () => answerOf(team({ intent: 'add-member', teamId, email, role: 'member' })),
        }
      },
    },
  ]

  test.each(cases)('$name: 503, no success message, nothing queued', async ({ run }) => {
    const { organizationId, answer } = await run()
    const before = await queuedFor(organizationId)
    const response = await withQueueWritesFailing(answer)
    expect(response.status).toBe(503)
    // No redirect carrying a toast ("sent", "created", "check your email").
    expect(response).not.toHaveRedirect()
    await expect(response).not.toSendToast()
    expect(await queuedFor(organizationId)).toEqual(before)
  })
})

async function setUserPlanFor(organizationId: string, userId: string) {
  await withTenant(organizationId, (tx) =>
    setUserPlan(tx, organizationId, userId, 'free', 'team_pro'),
  )
}
