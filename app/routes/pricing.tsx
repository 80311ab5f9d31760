import {
  data,
  type HeadersFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { Check } from 'lucide-react'
import { priceList } from '#app/billing/price-list'
import { pageCacheHeaders } from '#app/cache/page-cache.server'
import { useRootData } from '#app/components/layout/root-data'
import { Button } from '#app/components/ui/button'
import { TitledSection } from '#app/components/ui/titled-section'
import { requireTenant } from '#app/tenancy/require-tenant.server'

export const meta: MetaFunction = () => [{ title: 'Pricing' }]

// The same list for every visitor of a host (configuration, not the person): page-cacheable.
export async function loader({ context }: LoaderFunctionArgs) {
  const tenant = await requireTenant(context)
  return data(
    { sections: priceList(tenant.kind) },
    { headers: pageCacheHeaders(context, tenant.id) },
  )
}

export const headers: HeadersFunction = ({ loaderHeaders }) => loaderHeaders

export default function Pricing() {
  const { sections } = useLoaderData<typeof loader>()
  const signedIn = Boolean(useRootData()?.user)
  return (
    <main className="mx-auto flex w-full max-w-6xl flex-col gap-12 px-4 py-12">
      <header className="flex flex-col gap-3">
        <h1 className="text-3xl font-bold tracking-tight md:text-4xl">Pricing</h1>
        <p className="text-lg text-gray-600 dark:text-gray-400">
          Prices are in US dollars per month.
        </p>
      </header>
      {sections.map((section) => (
        <TitledSection
          key={section.id}
          id={`pricing-${section.id}`}
          title={section.title}
          className="flex flex-col gap-4"
          titleClassName="text-2xl font-semibold"
        >
          <p className="text-gray-600 dark:text-gray-400">{section.description}</p>
          <ul className="grid gap-4 md:grid-cols-3">
            {section.plans.map((plan) => (
              <li
                key={plan.id}
                className="flex min-w-0 flex-col gap-4 rounded-xl border border-gray-200 p-6 dark:border-gray-800"
              >
                <h3 className="text-lg font-semibold">{plan.name}</h3>
                <p>
                  <span className="text-3xl font-bold">${plan.price}</span>
                  <span className="text-gray-600 dark:text-gray-400">/month</span>
                </p>
                <ul className="flex flex-1 flex-col gap-2 text-sm">
                  {plan.features.map((feature) => (
                    <li key={feature} className="flex gap-2">
                      <Check aria-hidden className="mt-0.5 h-4 w-4 shrink-0 text-brand-text" />
                      <span>{feature}</span>
                    </li>
                  ))}
                </ul>
              </li>
            ))}
          </ul>
        </TitledSection>
      ))}
      <div className="flex flex-wrap gap-3">
        {signedIn ? (
          <Button asChild size="lg">
            <Link to="/">Back to home</Link>
          </Button>
        ) : (
          <Button asChild size="lg">
            <Link to="/auth/register">Get Started</Link>
          </Button>
        )}
      </div>
    </main>
  )
}
