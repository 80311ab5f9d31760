// /follow/unsubscribe?token=: the one-click way out of a card's updates (RFC 8058, ADR 102). The
// signed token is the only authority; GET only shows the page, the button (or a mailbox
// provider's one-click POST) stops the updates.
import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs } from '@remix-run/node'
import { useActionData, useLoaderData } from '@remix-run/react'
import { ONE_CLICK_FOLLOW_STOP_PATH } from '#app/auth/origin'
import { followStopAction, followStopLoader } from '#app/cards/follow-route.server'
import { AuthCard } from '#app/components/layout/auth-card'
import { LinkNotice, linkPageMeta, OneClickUnsubscribeForm } from '#app/components/layout/link-page'
import { useTranslate } from '#app/components/layout/use-translate'
import { translateEnglish } from '#app/utils/i18n/translate'
import { actionAndLoaderHeaders } from '#app/utils/route-headers'

export const headers: HeadersFunction = actionAndLoaderHeaders

export const meta = linkPageMeta('followPage.stopPageTitle')

export const loader = ({ request, context }: LoaderFunctionArgs) =>
  followStopLoader(request, context)

export const action = ({ request, context }: ActionFunctionArgs) =>
  followStopAction(request, context)

export default function FollowUnsubscribe() {
  const t = useTranslate()
  const data = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
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
      <LinkNotice
        title={t('followPage.invalidStopTitle')}
        description={translateEnglish(
          message ?? (data.status === 'invalid' ? data.message : ''),
          t,
        )}
      />
    )
  }
  if (!data.following) {
    return <LinkNotice title={t('followPage.offTitle')} description={t('followPage.offText')} />
  }
  return (
    <AuthCard title={t('followPage.stopTitle')} description={t('followPage.stopText')}>
      <OneClickUnsubscribeForm
        path={ONE_CLICK_FOLLOW_STOP_PATH}
        token={data.token}
        label={t('followPage.unsubscribe')}
        pendingText={t('followPage.unsubscribing')}
      />
    </AuthCard>
  )
}
