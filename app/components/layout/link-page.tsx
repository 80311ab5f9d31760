// The pages an emailed link opens (confirm "Keep me updated", stop a card's updates, unsubscribe
// from notifications): a card with a title and a sentence, and at most one button. The link's
// token is the only authority, so the button's form carries hidden fields only.
import type { MetaFunction } from '@remix-run/node'
import { Form, useNavigation } from '@remix-run/react'
import { ErrorList, type ListOfErrors } from '#app/components/forms'
import { AuthCard } from '#app/components/layout/auth-card'
import { StatusButton } from '#app/components/ui/status-button'
import { type MessageKey, rootTranslator } from '#app/utils/i18n/translate'

/** A link page's title in the page's language (ADR 105), kept out of search results. */
export const linkPageMeta =
  (titleKey: MessageKey): MetaFunction =>
  ({ matches }) => [
    { title: rootTranslator(matches)(titleKey) },
    { name: 'robots', content: 'noindex' },
  ]

/** What the link did or why it cannot: words only, no button. */
export function LinkNotice({ title, description }: { title: string; description: string }) {
  return (
    <AuthCard title={title} description={description}>
      {null}
    </AuthCard>
  )
}

/** The page's one button: a POST of hidden fields, pending while it is sent. */
export function LinkButtonForm({
  action,
  hidden,
  errors,
  label,
  pendingText,
}: {
  /** Where it posts; this page's URL (its token included) when left out. */
  action?: string
  hidden: Record<string, string>
  errors?: ListOfErrors
  label: string
  pendingText: string
}) {
  const navigation = useNavigation()
  return (
    <Form method="POST" action={action} className="flex flex-col gap-3">
      {Object.entries(hidden).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <ErrorList errors={errors} />
      <StatusButton
        pending={navigation.state === 'submitting'}
        pendingText={pendingText}
        className="w-full"
      >
        {label}
      </StatusButton>
    </Form>
  )
}

/**
 * RFC 8058's one-click unsubscribe from its page: the same body a mailbox provider's request
 * sends, to the same URL, so the signed token decides either way.
 */
export function OneClickUnsubscribeForm({
  path,
  token,
  label,
  pendingText,
}: {
  path: string
  token: string
  label: string
  pendingText: string
}) {
  return (
    <LinkButtonForm
      action={`${path}?token=${encodeURIComponent(token)}`}
      hidden={{ 'List-Unsubscribe': 'One-Click' }}
      label={label}
      pendingText={pendingText}
    />
  )
}
