import { data, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { getPlatformScope } from '#app/auth/guards.server'
import { Badge } from '#app/components/ui/badge'
import { outboxEntries } from '#app/email/outbox-page.server'
import { getEnv } from '#app/env.server'
import { listOutboxForOrganization, listOutboxForPlatform } from '#app/models/outbox.server'
import { actionAndLoaderHeaders } from '#app/utils/route-headers'
import { withPlatformScope, withTenant } from '#drizzle/db.server'

export const meta: MetaFunction = () => [{ title: 'Email outbox' }]

// On in development, showing the current host's tenant (every tenant for a super admin on
// the platform host); in production only with OUTBOX_PAGE (on by default for the embedded
// demo, off on Postgres: app/env.server.ts), and then only for super admins on the platform's
// own host. Links that carry a
// token show as removed unless the page stands in for the recipient's inbox (ADR 028,
// app/email/outbox-page.server.ts).

export const headers = actionAndLoaderHeaders
export async function loader({ request, context }: LoaderFunctionArgs) {
  const env = getEnv()
  const { tenant, user, platformScope } = await getPlatformScope(request, context)
  const allowed = env.NODE_ENV !== 'production' || (env.OUTBOX_PAGE && platformScope)
  if (!allowed) throw new Response('Not Found', { status: 404 })
  const viewer = { env, tenant, user }
  const emails = platformScope
    ? await withPlatformScope(platformScope, 'email outbox page', async (tx) =>
        outboxEntries(tx, viewer, await listOutboxForPlatform(tx)),
      )
    : await withTenant(tenant.id, async (tx) =>
        outboxEntries(tx, viewer, await listOutboxForOrganization(tx, tenant.id)),
      )
  return data(
    { emails },
    { headers: { 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' } },
  )
}

const STATE_LABELS = { queued: 'Queued', sent: 'Sent', failed: 'Failed' } as const
const STATE_TONES = { queued: 'amber', sent: 'green', failed: 'red' } as const

export default function OutboxPage() {
  const { emails } = useLoaderData<typeof loader>()
  return (
    <main className="mx-auto flex max-w-4xl flex-col gap-6 px-4 py-10">
      <div>
        <h1 className="text-2xl font-semibold">Email outbox</h1>
        <p className="text-sm text-gray-600 dark:text-gray-400">
          Every email the app queued, and how its delivery went. Without RESEND_API_KEY an email is
          delivered here; with it, to Resend.
        </p>
      </div>
      {emails.length === 0 ? (
        <p className="rounded-lg border border-dashed border-gray-300 p-8 text-center text-gray-500 dark:text-gray-400">
          No emails yet.
        </p>
      ) : (
        <ul className="flex flex-col gap-6">
          {emails.map((email) => (
            <li
              key={email.id}
              className="overflow-hidden rounded-xl border border-gray-200 dark:border-gray-800"
              data-testid="outbox-email"
            >
              <div className="flex flex-col gap-1 border-b border-gray-200 p-4 text-sm dark:border-gray-800">
                <div className="flex flex-wrap items-center gap-2">
                  <p className="font-semibold">{email.subject}</p>
                  <span data-testid="outbox-state">
                    <Badge tone={STATE_TONES[email.state]}>{STATE_LABELS[email.state]}</Badge>
                  </span>
                </div>
                {email.state !== 'sent' && email.lastError ? (
                  <p className="text-red-700 dark:text-red-400">
                    {email.attempts} failed {email.attempts === 1 ? 'attempt' : 'attempts'}:{' '}
                    {email.lastError}
                  </p>
                ) : null}
                {email.providerMessageId ? (
                  <p className="text-gray-600 dark:text-gray-400">
                    Resend id <code>{email.providerMessageId}</code>
                  </p>
                ) : null}
                <p>
                  From{' '}
                  <span data-testid="outbox-from">{email.fromName ?? 'the default sender'}</span>
                  {email.fromAddress ? (
                    // Chosen at delivery (ADR 026): the agency's own domain or the platform's.
                    <span data-testid="outbox-from-address"> &lt;{email.fromAddress}&gt;</span>
                  ) : null}{' '}
                  · To <span data-testid="outbox-to">{email.to}</span> · {email.organizationName} ·{' '}
                  {new Date(email.createdAt).toLocaleString()}
                </p>
                <ul className="flex flex-wrap gap-3">
                  {email.links.map(({ href, removed }) => (
                    <li key={href}>
                      {removed ? (
                        // Its token is not stored (ADR 028): only the recipient has this link.
                        <span
                          className="break-all text-gray-500 dark:text-gray-400"
                          data-testid="outbox-removed-link"
                        >
                          {href} (link removed: only its recipient has it)
                        </span>
                      ) : (
                        <a href={href} className="break-all text-brand-text underline">
                          {href}
                        </a>
                      )}
                    </li>
                  ))}
                </ul>
              </div>
              <iframe
                title={email.subject}
                srcDoc={email.html}
                sandbox=""
                className="h-96 w-full bg-white"
              />
              <details className="p-4 text-sm">
                <summary>Plain text</summary>
                <pre className="whitespace-pre-wrap" data-testid="outbox-text">
                  {email.text}
                </pre>
                {Object.keys(email.headers ?? {}).length > 0 ? (
                  <pre className="whitespace-pre-wrap" data-testid="outbox-headers">
                    {Object.entries(email.headers ?? {})
                      .map(([name, value]) => `${name}: ${value}`)
                      .join('\n')}
                  </pre>
                ) : null}
              </details>
            </li>
          ))}
        </ul>
      )}
    </main>
  )
}
