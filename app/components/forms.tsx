import {
  type DefaultValue,
  type FieldMetadata,
  getInputProps,
  getSelectProps,
  type SubmissionResult,
  useForm,
} from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import * as Label from '@radix-ui/react-label'
import { type InputHTMLAttributes, type ReactNode, useId, useMemo } from 'react'
import type { z } from 'zod'
import { useTranslate } from '#app/components/layout/use-translate'
import { SELECT_CLASS } from '#app/components/ui/select'
import { cn } from '#app/utils/cn'
import { SearchSchema } from '#app/validation/search'

/**
 * The browser's hints for a form, read from the zod schema its action parses (one schema per
 * form). Conform's form props set noValidate, so the browser never shows its own tooltips: the
 * schema's messages, checked on submit and then on input, are the only ones. maxLength is left out:
 * the browser would cut an over-long value without a word, where the schema's message says
 * what the limit is (the spec gives limits, never truncation).
 */
export function formConstraint(schema: Parameters<typeof getZodConstraint>[0]) {
  const constraint = getZodConstraint(schema)
  return new Proxy(constraint, {
    get(target, name, receiver) {
      const field = Reflect.get(target, name, receiver)
      return field && typeof name === 'string' ? { ...field, maxLength: undefined } : field
    },
  })
}

/** When conform checks a form's fields: every form, whether through useSchemaForm or not. */
export const FORM_VALIDATION = { shouldValidate: 'onSubmit', shouldRevalidate: 'onInput' } as const

/**
 * The one form style: conform with the schema the action parses, the schema's hints on the
 * fields, its messages on submit and then on input, and the action's reply shown the same way.
 * Never on blur: a message appearing as the pointer leaves a field moves the layout under it, and
 * the click it was on its way to (a link below the field) lands on nothing (issue 41).
 */
export function useSchemaForm<
  Schema extends z.ZodType<Record<string, unknown>, Record<string, unknown>>,
>(
  schema: Schema,
  options: {
    id: string
    lastResult?: SubmissionResult<string[]> | null
    defaultValue?: DefaultValue<z.input<Schema>>
    /** The schema's English messages in the page's language (ADR 105: the sign-in pages). */
    translate?: (message: string) => string
  },
) {
  const { translate } = options
  return withEveryError(
    useForm<z.input<Schema>, z.output<Schema>, string[]>({
      id: options.id,
      lastResult: options.lastResult,
      defaultValue: options.defaultValue,
      constraint: formConstraint(schema),
      ...FORM_VALIDATION,
      // The hidden intent names the form's purpose; it is never a change someone made.
      shouldDirtyConsider: (name) => name !== 'intent',
      onValidate: ({ formData }) => {
        const submission = parseWithZod(formData, { schema })
        if (translate && submission.status !== 'success' && submission.error) {
          for (const [field, messages] of Object.entries(submission.error)) {
            submission.error[field] = messages ? messages.map(translate) : messages
          }
        }
        return submission
      },
    }),
  )
}

/**
 * Subscribes the component that holds the form to every field's errors. conform re-renders it
 * only for what it read in its last render, and a list row's field (a link's address) is read
 * by the row's own component: on submit, the row's message stayed hidden until the next
 * keystroke. Reading allErrors here makes a submit show every message at once (ADR 068).
 */
export function withEveryError<Form extends { allErrors: unknown }, Fields>(
  result: [Form, Fields],
): [Form, Fields] {
  void result[0].allErrors
  return result
}

/**
 * A list's search box (a GET form): the shared limit's message next to the box on submit, where
 * a maxLength would have cut the query without a word. `searchError` is the loader's answer to a
 * query typed into the URL (readSearch): shown as the box's own error, also without JavaScript.
 */
export function useSearchForm(id: string, q: string, searchError: string | null = null) {
  // One object per answer: conform reports a new lastResult once (and focuses the box on an
  // error). A later answer without an error clears the earlier one (back/forward navigation).
  const lastResult = useMemo((): SubmissionResult<string[]> => {
    const error: Record<string, string[]> = searchError ? { q: [searchError] } : {}
    return { status: searchError ? 'error' : 'success', error }
  }, [searchError])
  return useSchemaForm(SearchSchema, { id, defaultValue: { q }, lastResult })
}

export type ListOfErrors = Array<string | null | undefined> | null | undefined

export function ErrorList({ id, errors }: { id?: string; errors?: ListOfErrors }) {
  const shown = errors?.filter(Boolean)
  if (!shown?.length) return null
  return (
    <ul id={id} className="flex flex-col gap-1">
      {shown.map((error) => (
        <li key={error} className="text-sm text-red-600 dark:text-red-400">
          {error}
        </li>
      ))}
    </ul>
  )
}

export function Field({
  label,
  inputProps,
  errors,
  hint,
  hintId,
  className,
}: {
  label: string
  inputProps: InputHTMLAttributes<HTMLInputElement>
  errors?: ListOfErrors
  hint?: string
  /** The hint's id, for an input that names it in aria-describedby. */
  hintId?: string
  className?: string
}) {
  const fallbackId = useId()
  const id = inputProps.id ?? fallbackId
  const errorId = errors?.length ? `${id}-error` : undefined
  return (
    <div className={cn('flex flex-col gap-1.5', className)}>
      <Label.Root htmlFor={id} className="text-sm font-medium">
        {label}
      </Label.Root>
      <input
        id={id}
        aria-invalid={errorId ? true : undefined}
        aria-describedby={errorId}
        {...inputProps}
        className={cn(
          'h-10 rounded-md border border-gray-300 bg-white px-3 text-sm shadow-sm placeholder:text-gray-400 focus-visible:border-brand dark:border-gray-700 dark:bg-gray-900',
          'aria-[invalid]:border-red-500',
          // A card template's locked field (ADR 048) reads as one that cannot be typed in.
          'read-only:bg-gray-100 read-only:text-gray-700 dark:read-only:bg-gray-800 dark:read-only:text-gray-200',
          inputProps.className,
        )}
      />
      {hint ? (
        <p id={hintId} className="text-xs text-gray-500 dark:text-gray-400">
          {hint}
        </p>
      ) : null}
      <ErrorList id={errorId} errors={errors} />
    </div>
  )
}

/**
 * A Field for one field of a conform form: the input's props and the errors come from the field,
 * any other attribute goes on the input after them.
 */
export function FormField({
  label,
  field,
  type = 'text',
  hint,
  hintId,
  className,
  ...input
}: {
  label: string
  // biome-ignore lint/suspicious/noExplicitAny: a field of any form's schema, as getInputProps takes it
  field: FieldMetadata<any, any, any>
  type?: 'email' | 'number' | 'password' | 'tel' | 'text' | 'url'
  hint?: string
  hintId?: string
  className?: string
} & Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'className'>) {
  return (
    <Field
      label={label}
      hint={hint}
      hintId={hintId}
      className={className}
      inputProps={{ ...getInputProps(field, { type }), ...input }}
      errors={field.errors}
    />
  )
}

/** One checkbox choice in a bordered box: its label (and a note beside it), a line of description under it. */
export function FormCheckbox({
  field,
  label,
  note,
  description,
}: {
  // biome-ignore lint/suspicious/noExplicitAny: a field of any form's schema, as getInputProps takes it
  field: FieldMetadata<any, any, any>
  label: string
  /** A small pill after the label (a setting the platform overrides). */
  note?: ReactNode
  description: ReactNode
}) {
  const descriptionId = `${field.id}-description`
  const errorId = field.errors?.length ? field.errorId : undefined
  return (
    <div className="flex items-start gap-3 rounded-lg border border-gray-200 p-4 dark:border-gray-800">
      <input
        {...getInputProps(field, { type: 'checkbox' })}
        aria-describedby={[descriptionId, errorId].filter(Boolean).join(' ')}
        className="mt-0.5 h-5 w-5 shrink-0 accent-brand"
      />
      <div className="flex flex-col gap-1">
        <label htmlFor={field.id} className="text-sm font-medium">
          {label}
          {note}
        </label>
        <p id={descriptionId} className="text-sm text-gray-600 dark:text-gray-400">
          {description}
        </p>
        <ErrorList id={errorId} errors={field.errors} />
      </div>
    </div>
  )
}

/**
 * A native select for one field of a conform form, its label above and its errors below. With a
 * placeholder, a disabled first option stands while nothing is chosen.
 */
export function FormSelect({
  label,
  field,
  placeholder,
  children,
}: {
  label: string
  // biome-ignore lint/suspicious/noExplicitAny: a field of any form's schema, as getSelectProps takes it
  field: FieldMetadata<any, any, any>
  placeholder?: string
  /** The options. */
  children: ReactNode
}) {
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={field.id} className="text-sm font-medium">
        {label}
      </label>
      <select
        {...getSelectProps(field)}
        // conform leaves an empty default out: the disabled placeholder is chosen here.
        defaultValue={(field.initialValue as string | undefined) ?? ''}
        className={SELECT_CLASS}
      >
        {placeholder ? (
          <option value="" disabled>
            {placeholder}
          </option>
        ) : null}
        {children}
      </select>
      <ErrorList id={field.errorId} errors={field.errors} />
    </div>
  )
}

/** A person's first and last name: sign-up, the profile and the card wizard ask the same way. */
export function NameFields({
  fields,
  autoFocus,
}: {
  // biome-ignore lint/suspicious/noExplicitAny: fields of any form whose schema has the two names
  fields: Record<'firstName' | 'lastName', FieldMetadata<any, any, any>>
  autoFocus?: boolean
}) {
  // In the page's language on sign-up (ADR 105); English elsewhere.
  const t = useTranslate()
  return (
    <>
      <FormField
        label={t('signUp.firstName')}
        field={fields.firstName}
        autoComplete="given-name"
        autoFocus={autoFocus}
      />
      <FormField label={t('signUp.lastName')} field={fields.lastName} autoComplete="family-name" />
    </>
  )
}

/** A new password and its confirmation: password reset and the expired password's step. */
export function NewPasswordFields({
  fields,
}: {
  // biome-ignore lint/suspicious/noExplicitAny: fields of any form whose schema has the two passwords
  fields: Record<'password' | 'confirmPassword', FieldMetadata<any, any, any>>
}) {
  // The reset link's and the expired password's pages speak the visitor's language (ADR 105).
  const t = useTranslate()
  return (
    <>
      <FormField
        label={t('password.new')}
        field={fields.password}
        type="password"
        autoComplete="new-password"
        autoFocus
      />
      <FormField
        label={t('password.confirm')}
        field={fields.confirmPassword}
        type="password"
        autoComplete="new-password"
      />
    </>
  )
}

export function FormMessage({
  tone = 'error',
  children,
}: {
  tone?: 'error' | 'info'
  children: React.ReactNode
}) {
  return (
    <div
      role={tone === 'error' ? 'alert' : 'status'}
      className={cn(
        'rounded-md border px-3 py-2 text-sm',
        tone === 'error'
          ? 'border-red-200 bg-red-50 text-red-700 dark:border-red-900 dark:bg-red-950 dark:text-red-300'
          : 'border-blue-200 bg-blue-50 text-blue-800 dark:border-blue-900 dark:bg-blue-950 dark:text-blue-200',
      )}
    >
      {children}
    </div>
  )
}
