// The billing section (ADR 051) of the team page's plans view and of the settings screens'
// Billing tabs: the plan Stripe says is paid for, its payment state, the masked card and the
// invoices; Update Billing Info and View Invoices open Stripe's portal.
import { Form, useNavigation } from '@remix-run/react'
import type { BillingSummary } from '#app/billing/billing-summary'
import { StatusButton } from '#app/components/ui/status-button'

const day = (iso: string) =>
  new Date(iso).toLocaleDateString('en-US', {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    timeZone: 'UTC',
  })

function paymentState(billing: BillingSummary, lapsed: boolean) {
  if (billing.status === 'past_due' && billing.graceEndsAt) {
    return lapsed
      ? 'Payment overdue: your account is on the Free plan until the open invoice is paid.'
      : `Your last payment failed: you keep your plan until ${day(billing.graceEndsAt)}. Update your card to keep it.`
  }
  if (billing.status === 'active') return 'Paid monthly by card through Stripe.'
  return null
}

export function BillingSection({
  billing,
  planName,
  free,
  checkout,
  heading = true,
}: {
  billing: BillingSummary
  /** The plan the account has now (what Stripe's webhooks last granted). */
  planName: string
  /** Whether that plan is Free (nothing paid for yet, or lapsed). */
  free: boolean
  checkout: string | null
  /** Off inside a settings tab, whose panel already says "Billing" and shows the plan. */
  heading?: boolean
}) {
  const navigation = useNavigation()
  const opening = navigation.formData?.get('intent') === 'billing-portal'
  const state = paymentState(billing, free)
  const returned =
    checkout === 'success'
      ? free
        ? 'Payment received. Your plan changes as soon as Stripe confirms it: reload this page in a moment.'
        : `Successfully upgraded to ${planName} plan`
      : checkout === 'cancelled'
        ? 'Checkout cancelled: nothing was charged.'
        : null
  return (
    <section aria-labelledby="billing" className="flex flex-col gap-4" data-testid="billing">
      <h2 id="billing" className={heading ? 'text-xl font-semibold' : 'sr-only'}>
        Billing
      </h2>
      {returned ? (
        <p role="status" className="rounded-lg bg-gray-50 p-3 text-sm dark:bg-gray-800">
          {returned}
        </p>
      ) : null}
      <dl className="grid gap-3 rounded-lg border border-gray-200 p-4 sm:grid-cols-3 dark:border-gray-800">
        {heading ? (
          <div>
            <dt className="text-sm text-gray-600 dark:text-gray-400">Current plan</dt>
            <dd className="font-medium" data-testid="billing-plan">
              {planName}
            </dd>
          </div>
        ) : null}
        <div>
          <dt className="text-sm text-gray-600 dark:text-gray-400">Card</dt>
          <dd className="font-medium" data-testid="billing-card">
            {billing.card
              ? `${billing.card.brand.toUpperCase()} ending ${billing.card.last4}, expires ${billing.card.expires}`
              : 'No card on file'}
          </dd>
        </div>
        <div>
          <dt className="text-sm text-gray-600 dark:text-gray-400">Billing cycle</dt>
          <dd className="font-medium">Monthly</dd>
        </div>
      </dl>
      {state ? (
        <p
          className="text-sm text-gray-700 dark:text-gray-300"
          data-testid="billing-state"
          role={billing.status === 'past_due' ? 'alert' : undefined}
        >
          {state}
        </p>
      ) : null}
      {billing.unavailable ? (
        <p className="text-sm text-gray-700 dark:text-gray-300">
          Stripe did not answer: your card and invoices could not be loaded. Please try again later.
        </p>
      ) : billing.invoices.length > 0 ? (
        <div className="overflow-x-auto">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Invoices</caption>
            <thead>
              <tr className="border-b border-gray-200 dark:border-gray-800">
                {['Invoice', 'Date', 'Amount', 'Status'].map((column) => (
                  <th
                    key={column}
                    scope="col"
                    className={column === 'Status' ? 'py-2 font-medium' : 'py-2 pr-4 font-medium'}
                  >
                    {column}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {billing.invoices.map((invoice) => (
                <tr key={invoice.id} className="border-b border-gray-100 dark:border-gray-800">
                  <td className="py-2 pr-4">
                    {invoice.url ? (
                      <a
                        href={invoice.url}
                        className="text-brand-text underline-offset-4 hover:underline"
                        rel="noreferrer"
                      >
                        {invoice.number}
                      </a>
                    ) : (
                      invoice.number
                    )}
                  </td>
                  <td className="py-2 pr-4">{day(invoice.date)}</td>
                  <td className="py-2 pr-4">{invoice.amount}</td>
                  <td className="py-2 capitalize">{invoice.status}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p className="text-sm text-gray-600 dark:text-gray-400">No invoices yet.</p>
      )}
      {billing.status ? (
        <Form method="POST" className="flex flex-wrap gap-2">
          <input type="hidden" name="intent" value="billing-portal" />
          <StatusButton pending={opening} pendingText="Opening..." variant="secondary">
            Update Billing Info
          </StatusButton>
          <StatusButton pending={opening} pendingText="Opening..." variant="secondary">
            View Invoices
          </StatusButton>
        </Form>
      ) : null}
    </section>
  )
}
