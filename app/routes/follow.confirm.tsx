// /follow/confirm?token=: the double opt-in of "Keep me updated" (ADR 102). Opening the link only
// shows the page (link scanners open every link in an email); the button confirms.
import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs } from '@remix-run/node'
import { useActionData, useLoaderData } from '@remix-run/react'
import { useEffect } from 'react'
import { followConfirmAction, followConfirmLoader } from '#app/cards/follow-route.server'
import { AuthCard } from '#app/components/layout/auth-card'
import { LinkButtonForm, LinkNotice, linkPageMeta } from '#app/components/layout/link-page'
import { useTranslate } from '#app/components/layout/use-translate'
import { toast } from '#app/components/ui/toasts'
import { translateEnglish } from '#app/utils/i18n/translate'
import { actionAndLoaderHeaders } from '#app/utils/route-headers'
import { FOLLOW_CONFIRMATION_LINK, lifetimeDays } from '#app/validation/token-lifetimes'

export const headers: HeadersFunction = actionAndLoaderHeaders

export const meta = linkPageMeta('followPage.title')

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
  const confirmed = Boolean(actionData?.confirmed)
  useEffect(() => {
    if (confirmed) toast.success(t('followPage.confirmedToast'))
  }, [confirmed, t])
  if (confirmed) {
    return (
      <LinkNotice
        title={t('followPage.confirmedTitle')}
        description={t('followPage.confirmedText')}
      />
    )
  }
  if (data.status === 'invalid') {
    return (
      <LinkNotice
        title={t('followPage.invalidTitle')}
        description={t('followPage.linkInvalid', { count: lifetimeDays(FOLLOW_CONFIRMATION_LINK) })}
      />
    )
  }
  return (
    <AuthCard
      title={t('followPage.askTitle', { ownerName: data.ownerName })}
      description={t('followPage.askText', { ownerName: data.ownerName })}
    >
      <LinkButtonForm
        hidden={{ intent: 'confirm' }}
        errors={actionData?.error ? [translateEnglish(actionData.error, t)] : undefined}
        label={t('followPage.confirm')}
        pendingText={t('followPage.confirming')}
      />
    </AuthCard>
  )
}
