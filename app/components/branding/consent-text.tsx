// The Domain Settings tab's lead form consent text (issue 31 point 3, ADR 050): the words an
// agency's lead forms ask visitors to agree to, each save a new version. Its form sits outside
// the branding form (forms do not nest); the field and button join it by id.
import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { Form, useActionData, useNavigation } from '@remix-run/react'
import { ShieldCheck } from 'lucide-react'
import { ErrorList, useSchemaForm } from '#app/components/forms'
import { StatusButton } from '#app/components/ui/status-button'
import { Subsection } from '#app/components/ui/titled-section'
import { ConsentTextSchema } from '#app/validation/consent-text'

export type ConsentTextVersion = { version: number; body: string; createdAt: string | Date }

/** The consent form's state, shared by its outer <Form> and the field inside the tab. */
export function useConsentTextForm() {
  const data = useActionData() as
    | { intent: string | null; result?: SubmissionResult<string[]> }
    | undefined
  return useSchemaForm(ConsentTextSchema, {
    id: 'consent-text-form',
    lastResult: data?.intent === 'save-consent' ? data.result : undefined,
  })
}

type ConsentForm = ReturnType<typeof useConsentTextForm>

/** The outer form; render it outside the branding form. */
export function ConsentTextForm({ form }: { form: ConsentForm[0] }) {
  return <Form method="POST" replace preventScrollReset {...getFormProps(form)} />
}

const savedOn = (value: string | Date) =>
  new Date(value).toLocaleDateString('en-US', { dateStyle: 'medium', timeZone: 'UTC' })

export function ConsentTextSection({
  versions,
  canManage,
  consentForm,
}: {
  versions: ConsentTextVersion[]
  canManage: boolean
  consentForm: ConsentForm
}) {
  const [form, fields] = consentForm
  const navigation = useNavigation()
  const saving =
    navigation.state !== 'idle' && navigation.formData?.get('intent') === 'save-consent'
  const current = versions[0]
  return (
    <Subsection
      id="consent-text-title"
      icon={ShieldCheck}
      title="Lead form consent"
      testId="consent-text"
    >
      <p
        id={`${fields.consentText.id}-description`}
        className="text-sm text-gray-600 dark:text-gray-400"
      >
        When set, every card's lead form shows this text with a box visitors must tick. Each lead
        keeps the version it agreed to, and gets a receipt with a link to see or delete its data.
        Leave it empty to ask for no consent.
      </p>
      <div className="flex flex-col gap-1.5">
        <label htmlFor={fields.consentText.id} className="text-sm font-medium">
          Consent text
        </label>
        <textarea
          id={fields.consentText.id}
          name={fields.consentText.name}
          form={form.id}
          rows={4}
          readOnly={!canManage}
          defaultValue={current?.body ?? ''}
          aria-invalid={fields.consentText.errors?.length ? true : undefined}
          aria-describedby={`${fields.consentText.id}-description${fields.consentText.errors?.length ? ` ${fields.consentText.errorId}` : ''}`}
          placeholder="I agree that my details are stored and used to contact me about this conversation."
          className="w-full rounded-md border border-gray-300 p-3 text-sm aria-[invalid]:border-red-500 dark:border-gray-700 dark:bg-gray-900"
        />
        <ErrorList id={fields.consentText.errorId} errors={fields.consentText.errors} />
      </div>
      <p className="text-sm text-gray-600 dark:text-gray-400" data-testid="consent-version">
        {current?.body
          ? `Version ${current.version}, saved ${savedOn(current.createdAt)}.`
          : 'Your lead forms ask for no consent.'}
        {versions.length > 1 ? ` ${versions.length - 1} earlier version(s) kept.` : ''}
      </p>
      {canManage ? (
        <StatusButton
          type="submit"
          form={form.id}
          name="intent"
          value="save-consent"
          variant="secondary"
          pending={saving}
          pendingText="Saving..."
          className="self-start"
        >
          Save consent text
        </StatusButton>
      ) : null}
    </Subsection>
  )
}
