// Spec §2.9's upgrade page: three plans, 'Why Upgrade to Team?', and the confirm dialog.
import { Form, Link, useActionData, useNavigation } from '@remix-run/react'
import { Check, Clock, Mail, Users } from 'lucide-react'
import { useState } from 'react'
import type { BillingSummary } from '#app/billing/billing-summary'
import { FormMessage } from '#app/components/forms'
import { Button } from '#app/components/ui/button'
import { DialogActions, FormDialog } from '#app/components/ui/dialog'
import { StatusButton } from '#app/components/ui/status-button'
import { cn } from '#app/utils/cn'
import {
  formatPrice,
  isUpgrade,
  type PaidPlanId,
  PLAN_IDS,
  PLANS,
  PLANS_GRANTED_BY_ADMINS,
  type PlanId,
} from '#app/validation/plans'
import { TEAM_PAGE_PATH } from '#app/validation/team-paths'
import { BillingSection } from './billing-section'

/**
 * 'Why Upgrade to Team?': only what the product does (the spec's 'Advanced Analytics' and
 * 'Priority Support' promised things that exist nowhere). Invitations are the team page's. The
 * views-by-source chart is not offered here: every plan has it (ADR 039).
 */
const UPGRADE_REASONS = [
  {
    icon: Users,
    title: 'Collaboration',
    text: 'Bring your colleagues into one team, with roles for who may invite and who manages.',
  },
  {
    icon: Mail,
    title: 'Invitations',
    text: 'Invite colleagues by email address; they join when they accept, and you see who is still pending.',
  },
]

/** A plan asked of the agency's admins and not answered yet (ADR 079). */
export type PendingPlanRequest = { plan: string; name: string; createdAt: string }

function ConfirmUpgrade({
  plan,
  current,
  canPayOnline,
}: {
  plan: PaidPlanId
  current: PlanId
  canPayOnline: boolean
}) {
  const [open, setOpen] = useState(false)
  const navigation = useNavigation()
  const actionData = useActionData<{ intent?: string | null; error?: string }>()
  // With Stripe the upgrade pays (Checkout); without, it asks the agency's admins (ADR 079).
  const intent = canPayOnline ? 'upgrade' : 'request-plan'
  const failed = actionData?.intent === intent ? actionData.error : undefined
  const chosen = PLANS[plan]
  return (
    <FormDialog
      open={open}
      onOpenChange={setOpen}
      trigger={<Button className="w-full">Upgrade to {chosen.name}</Button>}
      title="Confirm Upgrade"
      description={`You are moving from the ${PLANS[current].name} plan to ${chosen.name}.`}
    >
      <Form method="POST" className="flex flex-col gap-4">
        <input type="hidden" name="intent" value={intent} />
        <input type="hidden" name="plan" value={plan} />
        {failed ? <FormMessage>{failed}</FormMessage> : null}
        <dl className="grid grid-cols-2 gap-y-2 rounded-lg bg-gray-50 p-4 text-sm dark:bg-gray-800">
          <dt className="text-gray-600 dark:text-gray-400">Subscription</dt>
          <dd className="text-right font-medium">{chosen.name}</dd>
          <dt className="text-gray-600 dark:text-gray-400">Billing cycle</dt>
          <dd className="text-right font-medium">Monthly</dd>
          <dt className="text-gray-600 dark:text-gray-400">Price</dt>
          <dd className="text-right font-medium">{formatPrice(chosen)}/month</dd>
        </dl>
        {canPayOnline ? null : (
          <p
            className="text-sm text-gray-700 dark:text-gray-300"
            data-testid="plans-granted-by-admins"
          >
            {PLANS_GRANTED_BY_ADMINS}
          </p>
        )}
        <DialogActions
          pending={navigation.state === 'submitting'}
          label={canPayOnline ? 'Confirm Upgrade' : 'Send Request'}
          pendingText={canPayOnline ? 'Upgrading...' : 'Sending...'}
        />
      </Form>
    </FormDialog>
  )
}

/** The request waiting for the admins: when it was sent, and a way to take it back. */
export function PlanRequestBanner({
  request,
  action,
}: {
  request: PendingPlanRequest
  /** Where the withdrawal posts (the page's own action when undefined). */
  action?: string
}) {
  const navigation = useNavigation()
  const withdrawing = navigation.formData?.get('intent') === 'withdraw-plan-request'
  const sent = new Date(request.createdAt)
  return (
    <section
      aria-label="Plan request"
      data-testid="plan-request"
      className="flex flex-col gap-3 rounded-xl border border-amber-300 bg-amber-50 p-4 text-sm text-amber-950 sm:flex-row sm:items-center sm:justify-between dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100"
    >
      <p className="flex items-start gap-2">
        <Clock aria-hidden className="mt-0.5 h-4 w-4 shrink-0" />
        <span>
          You asked for the <strong>{request.name}</strong> plan on{' '}
          <time dateTime={sent.toISOString()}>{sent.toLocaleDateString()}</time>. Your agency&apos;s
          administrators have been told; you will get an email with their answer.
        </span>
      </p>
      <Form method="POST" action={action} className="shrink-0">
        <input type="hidden" name="intent" value="withdraw-plan-request" />
        <StatusButton
          variant="secondary"
          size="sm"
          pending={withdrawing}
          pendingText="Withdrawing..."
        >
          Withdraw request
        </StatusButton>
      </Form>
    </section>
  )
}

export function PlansView({
  plan,
  hasTeams,
  canPayOnline,
  billing = null,
  checkout = null,
  planRequest = null,
}: {
  plan: PlanId
  hasTeams: boolean
  canPayOnline: boolean
  billing?: BillingSummary | null
  checkout?: string | null
  planRequest?: PendingPlanRequest | null
}) {
  const canManage = hasTeams || PLANS[plan].memberLimit > 0
  return (
    <main className="mx-auto flex max-w-5xl flex-col gap-10 px-4 py-10">
      <div className="flex flex-col gap-2">
        <h1 className="text-2xl font-semibold">Team</h1>
        <p className="text-gray-600 dark:text-gray-400">
          Upgrade your account to collaborate with team members
        </p>
        {canManage ? (
          <Link
            to={TEAM_PAGE_PATH}
            className="text-sm font-medium text-brand-text underline-offset-4 hover:underline"
          >
            Back to your teams
          </Link>
        ) : null}
      </div>
      {planRequest ? <PlanRequestBanner request={planRequest} /> : null}
      <ul className="grid gap-4 md:grid-cols-3" aria-label="Plans">
        {PLAN_IDS.map((id) => {
          const option = PLANS[id]
          const current = id === plan
          return (
            <li
              key={id}
              data-testid={`plan-${id}`}
              className={cn(
                'flex flex-col gap-4 rounded-xl border bg-white p-6 shadow-sm dark:bg-gray-900',
                current
                  ? 'border-brand ring-2 ring-brand/30'
                  : 'border-gray-200 dark:border-gray-800',
              )}
            >
              <div className="flex items-center justify-between gap-2">
                <h2 className="text-lg font-semibold">{option.name}</h2>
                {current ? (
                  <span className="rounded-full bg-brand px-2 py-0.5 text-xs font-medium text-brand-foreground">
                    Current plan
                  </span>
                ) : null}
              </div>
              <p>
                <span className="text-3xl font-bold">{formatPrice(option)}</span>
                <span className="text-sm text-gray-600 dark:text-gray-400">/month</span>
              </p>
              <ul className="flex flex-1 flex-col gap-2 text-sm">
                {option.features.map((feature) => (
                  <li key={feature} className="flex items-start gap-2">
                    <Check aria-hidden className="mt-0.5 h-4 w-4 shrink-0 text-green-600" />
                    {feature}
                  </li>
                ))}
              </ul>
              {id !== 'free' && isUpgrade(plan, id) && planRequest ? (
                // One request at a time: withdraw it (above) to ask for another.
                <Button variant="secondary" disabled className="w-full">
                  {planRequest.plan === id ? 'Request sent' : `Upgrade to ${option.name}`}
                </Button>
              ) : id !== 'free' && isUpgrade(plan, id) ? (
                <ConfirmUpgrade plan={id} current={plan} canPayOnline={canPayOnline} />
              ) : (
                <Button variant="secondary" disabled className="w-full">
                  {current ? 'Current plan' : 'Included in your plan'}
                </Button>
              )}
            </li>
          )
        })}
      </ul>
      {billing ? (
        <BillingSection
          billing={billing}
          planName={PLANS[plan].name}
          free={plan === 'free'}
          checkout={checkout}
        />
      ) : null}
      <section aria-labelledby="why-upgrade" className="flex flex-col gap-4">
        <h2 id="why-upgrade" className="text-xl font-semibold">
          Why Upgrade to Team?
        </h2>
        <div className="grid gap-4 md:grid-cols-2">
          {UPGRADE_REASONS.map(({ icon: Icon, title, text }) => (
            <div
              key={title}
              className="flex flex-col gap-2 rounded-xl border border-gray-200 p-5 dark:border-gray-800"
            >
              <Icon aria-hidden className="h-6 w-6 text-brand-text" />
              <h3 className="font-semibold">{title}</h3>
              <p className="text-sm text-gray-600 dark:text-gray-400">{text}</p>
            </div>
          ))}
        </div>
      </section>
    </main>
  )
}
