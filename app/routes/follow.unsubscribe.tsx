// /follow/unsubscribe?token=: the one-click way out of a card's updates (RFC 8058, ADR 102). The
// signed token is the only authority; GET only shows the page, the button (or a mailbox
// provider's one-click POST) stops the updates.
import type {
  ActionFunctionArgs,
  HeadersFunction,
  LoaderFunctionArgs,
  MetaFunction,
} from '@remix-run/node'
import { Form, useActionData, useLoaderData, useNavigation } from '@remix-run/react'
import { followStopAction, followStopLoader } from '#app/cards/follow-route.server'
import { AuthCard } from '#app/components/layout/auth-card'
import { StatusButton } from '#app/components/ui/status-button'
import { actionAndLoaderHeaders } from '#app/utils/route-headers'

export const headers: HeadersFunction = actionAndLoaderHeaders

export const meta: MetaFunction = () => [
  { title: 'Stop updates' },
  { name: 'robots', content: 'noindex' },
]

export const loader = ({ request, context }: LoaderFunctionArgs) =>
  followStopLoader(request, context)

export const action = ({ request, context }: ActionFunctionArgs) =>
  followStopAction(request, context)

export default function FollowUnsubscribe() {
  const data = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const navigation = useNavigation()
  if (actionData?.status === 'stopped') {
    return (
      <AuthCard
        title="You are unsubscribed"
        description="You will no longer get an email when this card changes."
      >
        <div role="status" className="sr-only">
          Updates stopped
        </div>
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
        {null}
      </AuthCard>
    )
  }
  if (!data.following) {
    return (
      <AuthCard title="Updates are off" description="You do not get emails when this card changes.">
        {null}
      </AuthCard>
    )
  }
  return (
    <AuthCard
      title="Stop updates about this card"
      description="Stop the emails you get when this card's details change."
    >
      <Form
        method="POST"
        action={`/follow/unsubscribe?token=${encodeURIComponent(data.token)}`}
        className="flex flex-col gap-3"
      >
        {/* The same body a mailbox provider's one-click request sends (RFC 8058). */}
        <input type="hidden" name="List-Unsubscribe" value="One-Click" />
        <StatusButton
          pending={navigation.state === 'submitting'}
          pendingText="Unsubscribing..."
          className="w-full"
        >
          Unsubscribe
        </StatusButton>
      </Form>
    </AuthCard>
  )
}
