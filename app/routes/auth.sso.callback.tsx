import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { FormMessage } from '#app/components/forms'
import { AuthCard } from '#app/components/layout/auth-card'
import { ssoCallbackLoader } from '#app/sso/sso-route.server'
import { actionAndLoaderHeaders } from '#app/utils/route-headers'

export const meta: MetaFunction = () => [{ title: 'Single sign-on' }]

export const headers = actionAndLoaderHeaders

export const loader = ({ request, context }: LoaderFunctionArgs) =>
  ssoCallbackLoader(request, context)

/** A refused sign-in says why; the admin's test shows what the provider sent. */
export default function SsoCallbackPage() {
  const data = useLoaderData<typeof loader>()
  if (data.kind === 'tested') {
    return (
      <AuthCard
        title="Test connection"
        description={`${data.providerName} signed you in and sent these claims. Nobody was signed in here.`}
      >
        <div className="flex flex-col gap-4">
          <FormMessage tone="info">{data.verdict}</FormMessage>
          <dl className="grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[auto_1fr]">
            {Object.entries(data.claims ?? {}).map(([name, value]) => (
              <div key={name} className="contents">
                <dt className="font-mono font-medium">{name}</dt>
                <dd className="break-all font-mono">
                  {typeof value === 'string' ? value : JSON.stringify(value)}
                </dd>
              </div>
            ))}
          </dl>
          <p className="text-sm text-gray-600 dark:text-gray-400">You can close this window.</p>
        </div>
      </AuthCard>
    )
  }
  return (
    <AuthCard title="Single sign-on failed">
      <div className="flex flex-col gap-4">
        <FormMessage>{data.message}</FormMessage>
        <Link
          to="/auth/sso"
          className="font-medium text-brand-text underline-offset-4 hover:underline"
        >
          Back to Sign in with SSO
        </Link>
      </div>
    </AuthCard>
  )
}
