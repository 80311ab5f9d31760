// The card editor's short link (ADR 041): the slug after the tenant's address, saved in place
// with a fetcher, refused next to the field (shape, reserved word, taken).
import { getFormProps } from '@conform-to/react'
import { useFetcher } from '@remix-run/react'
import { useEffect } from 'react'
import { SHORT_LINK_PREFIX } from '#app/cards/short-link'
import { isClientFailure } from '#app/components/client-failure'
import { FormField, FormMessage, useSchemaForm } from '#app/components/forms'
import { StatusButton } from '#app/components/ui/status-button'
import { toast } from '#app/components/ui/toasts'
import { CardSlugSchema, SLUG_MAX_LENGTH, SLUG_MIN_LENGTH } from '#app/validation/card-slug'

type SlugReply = {
  result?: { status?: string; error?: Record<string, string[] | null> } | null
  error?: string | null
  slug?: string
  changed?: boolean
}

export function ShortLinkForm({
  cardId,
  slug,
  origin,
}: {
  cardId: string
  slug: string
  origin: string
}) {
  const fetcher = useFetcher<SlugReply>()
  const reply = fetcher.data && !isClientFailure(fetcher.data) ? fetcher.data : undefined
  const [form, fields] = useSchemaForm(CardSlugSchema, {
    id: `card-short-link-${cardId}`,
    lastResult: (reply?.result as never) ?? undefined,
    defaultValue: { slug },
  })
  const current = reply?.slug && !reply.error ? reply.slug : slug

  useEffect(() => {
    if (fetcher.state !== 'idle' || !fetcher.data) return
    if (isClientFailure(fetcher.data)) toast.error('Failed to save the short link')
    else if (fetcher.data.changed) toast.success('Short link saved. The old one still leads here')
  }, [fetcher.state, fetcher.data])

  const prefix = `${origin}${SHORT_LINK_PREFIX}`
  return (
    <section className="flex flex-col gap-3 rounded-lg border border-gray-200 p-4 dark:border-gray-800">
      <h2 className="text-base font-semibold">Short link</h2>
      <p className="break-all text-sm text-gray-600 dark:text-gray-400">
        Your card is at{' '}
        <a className="font-medium text-brand-text underline" href={`${prefix}${current}`}>
          {prefix}
          {current}
        </a>
      </p>
      <fetcher.Form method="POST" className="flex flex-col gap-3" {...getFormProps(form)}>
        <input type="hidden" name="intent" value="short-link" />
        {form.errors?.length ? <FormMessage>{form.errors.join(' ')}</FormMessage> : null}
        <FormField
          label="Short link"
          hint={`${SLUG_MIN_LENGTH}–${SLUG_MAX_LENGTH} lowercase letters, digits and hyphens. A changed link keeps the old one working.`}
          field={fields.slug}
          autoCapitalize="none"
          autoCorrect="off"
          spellCheck={false}
        />
        <StatusButton pending={fetcher.state !== 'idle'} className="self-end">
          Save Short Link
        </StatusButton>
      </fetcher.Form>
    </section>
  )
}
