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
import { useTranslate } from '#app/components/layout/use-translate'
import { StatusButton } from '#app/components/ui/status-button'
import { toast } from '#app/components/ui/toasts'
import { rootTranslator, translateEnglish } from '#app/utils/i18n/translate'
import { actionAndLoaderHeaders } from '#app/utils/route-headers'
import { FOLLOW_CONFIRMATION_LINK, lifetimeDays } from '#app/validation/token-lifetimes'

export const headers: HeadersFunction = actionAndLoaderHeaders

export const meta: MetaFunction = ({ matches }) => [
  { title: rootTranslator(matches)('followPage.title') },
  { name: 'robots', content: 'noindex' },
]

export const loader = ({ request, context }: LoaderFunctionArgs) =>
  followConfirmLoader(request, context)

export const action = ({ request, context }: ActionFunctionArgs) =>
  followConfirmAction(request, context)

export default function FollowConfirm() {
  const t = useTranslate()
  const data = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>() as
    | { confirmed?: boolean; error?: string | null }
    | undefined
  const navigation = useNavigation()
  const confirmed = Boolean(actionData?.confirmed)
  useEffect(() => {
    if (confirmed) toast.success(t('followPage.confirmedToast'))
  }, [confirmed, t])
  if (confirmed) {
    return (
      <AuthCard title={t('followPage.confirmedTitle')} description={t('followPage.confirmedText')}>
        {null}
      </AuthCard>
    )
  }
  if (data.status === 'invalid') {
    return (
      <AuthCard
        title={t('followPage.invalidTitle')}
        description={t('followPage.linkInvalid', { count: lifetimeDays(FOLLOW_CONFIRMATION_LINK) })}
      >
        {null}
      </AuthCard>
    )
  }
  return (
    <AuthCard
      title={t('followPage.askTitle', { ownerName: data.ownerName })}
      description={t('followPage.askText', { ownerName: data.ownerName })}
    >
      <Form method="POST" className="flex flex-col gap-3">
        <input type="hidden" name="intent" value="confirm" />
        <ErrorList
          errors={actionData?.error ? [translateEnglish(actionData.error, t)] : undefined}
        />
        <StatusButton
          pending={navigation.state === 'submitting'}
          pendingText={t('followPage.confirming')}
          className="w-full"
        >
          {t('followPage.confirm')}
        </StatusButton>
      </Form>
    </AuthCard>
  )
}
