import type {
  ActionFunctionArgs,
  HeadersFunction,
  LoaderFunctionArgs,
  MetaFunction,
} from '@remix-run/node'
import { Link, useActionData, useLoaderData } from '@remix-run/react'
import { ONE_CLICK_UNSUBSCRIBE_PATH } from '#app/auth/origin'
import { AuthCard } from '#app/components/layout/auth-card'
import { OneClickUnsubscribeForm } from '#app/components/layout/link-page'
import { Button } from '#app/components/ui/button'
import { unsubscribeAction, unsubscribeLoader } from '#app/notifications/unsubscribe-route.server'
import { actionAndLoaderHeaders } from '#app/utils/route-headers'

export const headers: HeadersFunction = actionAndLoaderHeaders

export const meta: MetaFunction = () => [
  { title: 'Unsubscribe' },
  { name: 'robots', content: 'noindex' },
]

export const loader = ({ request, context }: LoaderFunctionArgs) =>
  unsubscribeLoader(request, context)

export const action = ({ request, context }: ActionFunctionArgs) =>
  unsubscribeAction(request, context)

function ProfileLink() {
  return (
    <Button asChild variant="secondary" className="w-full">
      <Link to="/profile?tab=notifications">Notification settings</Link>
    </Button>
  )
}

export default function UnsubscribePage() {
  const data = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()

  if (actionData?.status === 'unsubscribed') {
    const marketing = actionData.purpose === 'marketing'
    return (
      <AuthCard
        title="You are unsubscribed"
        description={
          marketing
            ? 'You will no longer get announcements. You can turn Marketing emails back on in your profile.'
            : 'You will no longer get an email when someone connects with you or shares their details. You can turn notifications back on in your profile.'
        }
      >
        <div role="status" className="sr-only">
          {marketing ? 'Announcements turned off' : 'Notifications turned off'}
        </div>
        <ProfileLink />
      </AuthCard>
    )
  }
  if (data.status === 'invalid' || actionData?.status === 'invalid') {
    const message = actionData?.status === 'invalid' ? actionData.message : undefined
    return (
      <AuthCard
        title="Invalid unsubscribe link"
        description={message ?? (data.status === 'invalid' ? data.message : undefined)}
      >
        <ProfileLink />
      </AuthCard>
    )
  }
  const marketing = data.purpose === 'marketing'
  if (!data.notificationsOn) {
    if (marketing) {
      return (
        <AuthCard
          title="Announcements are off"
          description="You do not get announcements. You can turn Marketing emails back on in your profile."
        >
          <ProfileLink />
        </AuthCard>
      )
    }
    return (
      <AuthCard
        title="Notifications are off"
        description="You do not get emails when someone connects with you or shares their details. You can turn them back on in your profile."
      >
        <ProfileLink />
      </AuthCard>
    )
  }
  return (
    <AuthCard
      title={marketing ? 'Unsubscribe from announcements' : 'Unsubscribe from notifications'}
      description={
        marketing
          ? 'Stop the announcements your organization sends to its users. Other emails, such as notifications and password resets, still reach you.'
          : 'Stop the emails you get when someone connects with you or shares their details on your card. Other emails, such as password resets, still reach you.'
      }
    >
      <OneClickUnsubscribeForm
        path={ONE_CLICK_UNSUBSCRIBE_PATH}
        token={data.token}
        label="Unsubscribe"
        pendingText="Unsubscribing..."
      />
    </AuthCard>
  )
}
