// A signed-in person whose "Delete my account" is scheduled (issue 41 point 16, ADR 081): the
// date, their data to download first, and the account to keep. Signing in no longer cancels.
import { Form, Link, useLocation, useNavigation } from '@remix-run/react'
import { CalendarX } from 'lucide-react'
import { TopBanner } from '#app/components/layout/top-banner'
import { Button } from '#app/components/ui/button'
import { StatusButton } from '#app/components/ui/status-button'
import { DELETION_PENDING, KEEP_ACCOUNT } from '#app/validation/account-deletion'

export function AccountDeletionBanner({
  scheduledFor,
  securityPath,
}: {
  scheduledFor: string
  /** The profile's Security tab: Download my data. */
  securityPath: string
}) {
  const { pathname, search } = useLocation()
  const keeping = useNavigation().formAction === '/account/keep'
  return (
    <TopBanner
      label="Account deletion"
      testId="account-deletion-banner"
      className="border-b border-red-300 bg-red-50 text-red-950 dark:border-red-800 dark:bg-red-950 dark:text-red-50"
      icon={CalendarX}
    >
      <p className="min-w-0 flex-1">
        {DELETION_PENDING(new Date(scheduledFor))} You can download your data until then.
      </p>
      <Button asChild variant="secondary" size="sm">
        <Link to={securityPath}>Download my data</Link>
      </Button>
      <Form method="POST" action="/account/keep">
        <input type="hidden" name="redirectTo" value={`${pathname}${search}`} />
        <StatusButton size="sm" pending={keeping} pendingText="Keeping...">
          {KEEP_ACCOUNT}
        </StatusButton>
      </Form>
    </TopBanner>
  )
}
