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
import { useTranslate } from '#app/components/layout/use-translate'
import { StatusButton } from '#app/components/ui/status-button'
import { rootTranslator, translateEnglish } from '#app/utils/i18n/translate'
import { actionAndLoaderHeaders } from '#app/utils/route-headers'

export const headers: HeadersFunction = actionAndLoaderHeaders

export const meta: MetaFunction = ({ matches }) => [
  { title: rootTranslator(matches)('followPage.stopPageTitle') },
  { name: 'robots', content: 'noindex' },
]

export const loader = ({ request, context }: LoaderFunctionArgs) =>
  followStopLoader(request, context)

export const action = ({ request, context }: ActionFunctionArgs) =>
  followStopAction(request, context)

export default function FollowUnsubscribe() {
  const t = useTranslate()
  const data = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const navigation = useNavigation()
  if (actionData?.status === 'stopped') {
    return (
      <AuthCard title={t('followPage.stoppedTitle')} description={t('followPage.stoppedText')}>
        <div role="status" className="sr-only">
          {t('followPage.stoppedStatus')}
        </div>
      </AuthCard>
    )
  }
  if (data.status === 'invalid' || actionData?.status === 'invalid') {
    const message = actionData?.status === 'invalid' ? actionData.message : undefined
    return (
      <AuthCard
        title={t('followPage.invalidStopTitle')}
        description={translateEnglish(
          message ?? (data.status === 'invalid' ? data.message : ''),
          t,
        )}
      >
        {null}
      </AuthCard>
    )
  }
  if (!data.following) {
    return (
      <AuthCard title={t('followPage.offTitle')} description={t('followPage.offText')}>
        {null}
      </AuthCard>
    )
  }
  return (
    <AuthCard title={t('followPage.stopTitle')} description={t('followPage.stopText')}>
      <Form
        method="POST"
        action={`/follow/unsubscribe?token=${encodeURIComponent(data.token)}`}
        className="flex flex-col gap-3"
      >
        {/* The same body a mailbox provider's one-click request sends (RFC 8058). */}
        <input type="hidden" name="List-Unsubscribe" value="One-Click" />
        <StatusButton
          pending={navigation.state === 'submitting'}
          pendingText={t('followPage.unsubscribing')}
          className="w-full"
        >
          {t('followPage.unsubscribe')}
        </StatusButton>
      </Form>
    </AuthCard>
  )
}
