// The one form of the sign-in pages (sign-in, sign-up, password reset, SSO): the schema's
// messages and the action's reply in the page's language (ADR 105), the spec's failure toast when
// the request itself fails (§8), and the same frame of messages above and button below the fields.
import {
  type DefaultValue,
  type FieldMetadata,
  type FormMetadata,
  getFormProps,
  type SubmissionResult,
} from '@conform-to/react'
import { Form, Link, useActionData, useNavigation } from '@remix-run/react'
import type { ReactNode } from 'react'
import type { z } from 'zod'
import { type ClientFailure, useClientFailureToast } from '#app/components/client-failure'
import { FormField, FormMessage, useSchemaForm } from '#app/components/forms'
import { useTranslate } from '#app/components/layout/use-translate'
import { StatusButton } from '#app/components/ui/status-button'
import { type MessageKey, translateEnglish } from '#app/utils/i18n/translate'

// These pages post one form with no intent: every failure has the page's one message.
const NO_INTENTS = {}

type AuthActionData = { result?: SubmissionResult<string[]> } | ClientFailure

/**
 * The page's form, bound to its action's reply; `failure` names the toast shown when the request
 * fails on the client. Returns the page's translator with it.
 */
export function useAuthForm<
  Schema extends z.ZodType<Record<string, unknown>, Record<string, unknown>>,
>(
  schema: Schema,
  options: { id: string; failure: MessageKey; defaultValue?: DefaultValue<z.input<Schema>> },
) {
  const actionData = useActionData() as AuthActionData | undefined
  const t = useTranslate()
  useClientFailureToast(actionData, NO_INTENTS, t(options.failure))
  const [form, fields] = useSchemaForm(schema, {
    id: options.id,
    lastResult: actionData && 'result' in actionData ? actionData.result : undefined,
    defaultValue: options.defaultValue,
    translate: (message) => translateEnglish(message, t),
  })
  return { t, form, fields }
}

/**
 * A sign-in page's form: an info notice and the form's errors above the fields, the submit button
 * below them (pending while the form is submitted, unless the page says otherwise), then `after`.
 */
export function AuthForm<Schema extends Record<string, unknown>>({
  form,
  notice,
  children,
  submit,
  pendingText,
  pending,
  after,
}: {
  form: FormMetadata<Schema, string[]>
  notice?: string | null
  children: ReactNode
  submit: string
  pendingText: string
  pending?: boolean
  after?: ReactNode
}) {
  const navigation = useNavigation()
  return (
    <Form method="POST" className="flex flex-col gap-4" {...getFormProps(form)}>
      {notice ? <FormMessage tone="info">{notice}</FormMessage> : null}
      {form.errors?.length ? <FormMessage>{form.errors.join(' ')}</FormMessage> : null}
      {children}
      <StatusButton
        pending={pending ?? navigation.state === 'submitting'}
        pendingText={pendingText}
      >
        {submit}
      </StatusButton>
      {after}
    </Form>
  )
}

/** The link under a sign-in page's card to the page next to it (sign-in, sign-up). */
export function AuthFooterLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <Link to={to} className="font-medium text-brand-text underline-offset-4 hover:underline">
      {children}
    </Link>
  )
}

/** The visitor's email address, as every sign-in page asks for it ("Email" unless it says). */
export function AuthEmailField({
  field,
  label,
  autoFocus,
}: {
  field: FieldMetadata<string>
  label?: string
  autoFocus?: boolean
}) {
  const t = useTranslate()
  return (
    <FormField
      label={label ?? t('signIn.email')}
      field={field}
      type="email"
      autoComplete="email"
      autoFocus={autoFocus}
    />
  )
}
