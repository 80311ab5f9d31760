import { useFetcher, useLocation } from '@remix-run/react'
import { MailWarning, X } from 'lucide-react'
import { TopBanner } from '#app/components/layout/top-banner'
import { StatusButton } from '#app/components/ui/status-button'
import { useTranslate } from './use-translate'

const ACTION = '/resources/email-confirmation'

/** The current page, for the buttons to come back to. */
function useHere() {
  const { pathname, search } = useLocation()
  return `${pathname}${search}`
}

/** 'Resend confirmation email' (a POST, rate limited on the server; the answer is a toast). */
export function ResendConfirmationForm({
  redirectTo,
  className,
  id,
}: {
  redirectTo?: string
  className?: string
  id?: string
}) {
  const fetcher = useFetcher()
  const here = useHere()
  // Also on the confirmation link's page, in its language (ADR 105).
  const t = useTranslate()
  return (
    <fetcher.Form method="POST" action={ACTION} id={id} className={id ? 'hidden' : undefined}>
      <input type="hidden" name="intent" value="resend" />
      <input type="hidden" name="redirectTo" value={redirectTo ?? here} />
      {id ? null : (
        <StatusButton
          size="sm"
          variant="secondary"
          pending={fetcher.state !== 'idle'}
          pendingText={t('confirmEmail.sending')}
          className={className}
        >
          {t('confirmEmail.resend')}
        </StatusButton>
      )}
    </fetcher.Form>
  )
}

/** Shown to a signed-in user whose email is not confirmed, until dismissed for the session. */
export function EmailConfirmationBanner() {
  const dismiss = useFetcher()
  const here = useHere()
  if (dismiss.state !== 'idle') return null
  return (
    <TopBanner
      label="Email confirmation"
      testId="email-confirmation-banner"
      className="border-b border-amber-300 bg-amber-50 text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-50"
      icon={MailWarning}
    >
      <p className="flex-1">
        Your email address is not confirmed yet. Please check your email for the confirmation link.
      </p>
      <ResendConfirmationForm />
      <dismiss.Form method="POST" action={ACTION}>
        <input type="hidden" name="intent" value="dismiss" />
        <input type="hidden" name="redirectTo" value={here} />
        <button
          type="submit"
          aria-label="Dismiss"
          className="rounded p-1 hover:bg-amber-100 focus-visible:outline focus-visible:outline-2 dark:hover:bg-amber-900"
        >
          <X aria-hidden className="h-4 w-4" />
        </button>
      </dismiss.Form>
    </TopBanner>
  )
}
