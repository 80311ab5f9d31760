// /follow/confirm?token=: the double opt-in of "Keep me updated" (ADR 102). Opening the link only
// shows the page (link scanners open every link in an email); the button confirms.
import type {
  ActionFunctionArgs,
  HeadersFunction,
  LoaderFunctionArgs,
  MetaFunction,
} from '@remix-run/node'
import { Form, useActionData, useLoaderData, useNavigation } from '@remix-run/react'
import { useEffect } from 'react'
import { followConfirmAction, followConfirmLoader } from '#app/cards/follow-route.server'
import { ErrorList } from '#app/components/forms'
import { AuthCard } from '#app/components/layout/auth-card'
import { StatusButton } from '#app/components/ui/status-button'
import { toast } from '#app/components/ui/toasts'
import { actionAndLoaderHeaders } from '#app/utils/route-headers'

export const headers: HeadersFunction = actionAndLoaderHeaders

export const meta: MetaFunction = () => [
  { title: 'Keep me updated' },
  { name: 'robots', content: 'noindex' },
]

export const loader = ({ request, context }: LoaderFunctionArgs) =>
  followConfirmLoader(request, context)

export const action = ({ request, context }: ActionFunctionArgs) =>
  followConfirmAction(request, context)

export default function FollowConfirm() {
  const data = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>() as
    | { confirmed?: boolean; error?: string | null }
    | undefined
  const navigation = useNavigation()
  const confirmed = Boolean(actionData?.confirmed)
  useEffect(() => {
    if (confirmed) toast.success('You will be told when the card changes')
  }, [confirmed])
  if (confirmed) {
    return (
      <AuthCard
        title="You are following this card"
        description="You will get an email with the new contact card when its details change, at most one a day. Every email has a link to stop them."
      >
        {null}
      </AuthCard>
    )
  }
  if (data.status === 'invalid') {
    return (
      <AuthCard title="Invalid link" description={data.message}>
        {null}
      </AuthCard>
    )
  }
  return (
    <AuthCard
      title={`Keep me updated about ${data.ownerName}`}
      description={`Get an email with the new contact card when ${data.ownerName}'s title, company, phone, email or photo changes.`}
    >
      <Form method="POST" className="flex flex-col gap-3">
        <input type="hidden" name="intent" value="confirm" />
        <ErrorList errors={actionData?.error ? [actionData.error] : undefined} />
        <StatusButton
          pending={navigation.state === 'submitting'}
          pendingText="Confirming..."
          className="w-full"
        >
          Confirm
        </StatusButton>
      </Form>
    </AuthCard>
  )
}
