// "Scan a card" (issue 45 point 3, ADR 101): on a phone the file field opens the camera (or the
// photo library); the photo is read on the server and what was read comes back as a form of the
// contact's fields, to correct before saving. Works without JavaScript: both forms post.
import { getFormProps, getInputProps, type SubmissionResult } from '@conform-to/react'
import { Form, useActionData, useNavigation } from '@remix-run/react'
import { ScanText } from 'lucide-react'
import { useEffect } from 'react'
import { toast } from 'sonner'
import { ContactFields } from '#app/components/contacts/contact-form-fields'
import { ErrorList, FormMessage, useSchemaForm } from '#app/components/forms'
import { BackButton } from '#app/components/ui/back-button'
import { StatusButton } from '#app/components/ui/status-button'
import { IMAGE_HINT } from '#app/validation/images'
import { ReadCardSchema, SaveScannedSchema } from '#app/validation/scan-card'

type Proposal = {
  fullName: string
  jobTitle: string
  company: string
  email: string
  phoneNumber: string
  website: string
  note: string
}

type ScanAnswer = {
  result?: SubmissionResult<string[]>
  intent: string | null
  error: string | null
  proposal?: Proposal
  found?: boolean
  message?: string | null
}

export function ScanCardPage() {
  const answer = useActionData<ScanAnswer>()
  const navigation = useNavigation()
  const reading = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'read'
  const saving = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'save'
  const [readForm, readFields] = useSchemaForm(ReadCardSchema, {
    id: 'scan-read',
    lastResult: answer?.intent === 'read' ? answer.result : null,
  })
  // Read again: a new proposal is a new form (its fields start from what was read).
  const proposal = answer?.intent === 'read' ? answer.proposal : undefined
  const saveRefused = answer?.intent === 'save'
  useEffect(() => {
    if (answer?.intent === 'read' && answer.error) toast.error(answer.error)
    if (answer?.intent === 'read' && answer.proposal) {
      toast.success(answer.found ? 'Card read' : 'Nothing could be read')
    }
  }, [answer])

  return (
    <main className="mx-auto flex w-full max-w-2xl flex-col gap-6 px-4 py-10">
      <div className="flex items-center gap-2">
        <BackButton to="/contacts" label="Back to contacts" />
        <h1 className="text-2xl font-semibold">Scan a card</h1>
      </div>
      <p className="text-sm text-gray-700 dark:text-gray-300">
        Take a photo of a paper business card, or choose one. It is read on our server, never sent
        elsewhere and not kept; you check the details before they are saved.
      </p>
      <Form
        method="POST"
        encType="multipart/form-data"
        className="flex flex-col gap-3 rounded-xl border border-gray-200 bg-white p-4 shadow-sm dark:border-gray-800 dark:bg-gray-950"
        {...getFormProps(readForm)}
      >
        <input type="hidden" name="intent" value="read" />
        <div className="flex flex-col gap-1.5">
          <label htmlFor={readFields.photo.id} className="text-sm font-medium">
            Photo of the card
          </label>
          <input
            {...getInputProps(readFields.photo, { type: 'file' })}
            // No `capture`: with it phones open the camera only; without it they offer the
            // camera and the photo library, as "camera or photo" asks.
            accept="image/*"
            aria-describedby={`${readFields.photo.id}-hint ${readFields.photo.errorId}`}
            className="block w-full min-w-0 text-sm file:mr-3 file:rounded-md file:border-0 file:bg-gray-100 file:px-3 file:py-2 file:text-sm file:font-medium dark:file:bg-gray-800 dark:file:text-gray-100"
          />
          <p
            id={`${readFields.photo.id}-hint`}
            className="text-xs text-gray-500 dark:text-gray-400"
          >
            {IMAGE_HINT} Hold the card flat, in good light, filling the photo.
          </p>
          <ErrorList id={readFields.photo.errorId} errors={readFields.photo.errors} />
        </div>
        <StatusButton pending={reading} pendingText="Reading the card…" className="self-start">
          <ScanText aria-hidden className="h-4 w-4" /> Read the card
        </StatusButton>
      </Form>
      {proposal || saveRefused ? (
        <ProposalForm
          key={JSON.stringify(proposal ?? null)}
          proposal={proposal}
          message={answer?.intent === 'read' ? (answer.message ?? null) : null}
          lastResult={saveRefused ? answer?.result : null}
          saving={saving}
        />
      ) : null}
    </main>
  )
}

function ProposalForm({
  proposal,
  message,
  lastResult,
  saving,
}: {
  proposal: Proposal | undefined
  message: string | null
  lastResult: SubmissionResult<string[]> | null | undefined
  saving: boolean
}) {
  const [form, fields] = useSchemaForm(SaveScannedSchema, {
    id: 'scan-save',
    lastResult,
    defaultValue: proposal ? { intent: 'save', ...proposal } : undefined,
  })
  return (
    <Form
      method="POST"
      className="flex flex-col gap-4 rounded-xl border border-gray-200 bg-white p-4 shadow-sm dark:border-gray-800 dark:bg-gray-950"
      aria-labelledby="scan-proposal-title"
      {...getFormProps(form)}
    >
      <input type="hidden" name="intent" value="save" />
      <h2 id="scan-proposal-title" className="text-lg font-semibold">
        Check the details
      </h2>
      {message ? (
        <FormMessage tone="info">{message}</FormMessage>
      ) : (
        <p className="text-sm text-gray-700 dark:text-gray-300">
          This is what was read on the card. Correct anything that is wrong before saving.
        </p>
      )}
      <ErrorList id={form.errorId} errors={form.errors} />
      <ContactFields fields={fields} cardDetails={fields} />
      <StatusButton pending={saving} pendingText="Saving…" className="self-start">
        Save contact
      </StatusButton>
    </Form>
  )
}
