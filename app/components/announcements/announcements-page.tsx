// The agency's Announcements screen (issue 30 point 2, ADR 046): write a plain-text subject and
// message, see it as the email will look, see how many opted-in end users it reaches, send it,
// and the history of what was sent. Agency members read it; only the agency admin sends.
import { getFormProps, getTextareaProps, type SubmissionResult } from '@conform-to/react'
import * as Label from '@radix-ui/react-label'
import { Form, useActionData, useNavigation } from '@remix-run/react'
import { Megaphone } from 'lucide-react'
import { ErrorList, FormField, FormMessage, useSchemaForm } from '#app/components/forms'
import { EmptyRow, PageHeader, TD } from '#app/components/people/people-ui'
import { DataTable } from '#app/components/ui/data-table'
import { Panel } from '#app/components/ui/panel'
import { StatusButton } from '#app/components/ui/status-button'
import {
  AnnouncementSchema,
  BODY_MAX,
  NO_RECIPIENTS_MESSAGE,
  SUBJECT_MAX,
} from '#app/validation/announcements'
import { readableTextColor, safeHexColor } from '#app/validation/color'

type HistoryRow = {
  id: string
  subject: string
  status: 'queued' | 'sending' | 'sent' | 'failed'
  recipientCount: number
  createdAt: string
}

export type AnnouncementsPageProps = {
  recipients: number
  history: HistoryRow[]
  perDay: number
  leftToday: number
  canSend: boolean
  brand: { name: string; primaryColor: string }
}

const TEXTAREA =
  'min-h-40 rounded-md border border-gray-300 bg-white px-3 py-2 text-sm shadow-sm focus-visible:border-brand dark:border-gray-700 dark:bg-gray-900 aria-[invalid]:border-red-500'

const STATUS_LABEL: Record<HistoryRow['status'], string> = {
  queued: 'Queued',
  sending: 'Sending',
  sent: 'Sent',
  failed: 'Failed',
}

const people = (n: number) => `${n} ${n === 1 ? 'person' : 'people'}`

/** The email as its recipients will see it: the brand's header, the subject, the lines. */
function Preview({
  brand,
  subject,
  body,
}: {
  brand: AnnouncementsPageProps['brand']
  subject: string
  body: string
}) {
  const color = safeHexColor(brand.primaryColor, '#3b82f6')
  const lines = body
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean)
  return (
    <section aria-labelledby="announcement-preview" className="flex flex-col gap-2">
      <h3 id="announcement-preview" className="text-sm font-medium">
        Preview
      </h3>
      <div className="overflow-hidden rounded-lg border border-gray-200 bg-white text-gray-900 dark:border-gray-800">
        <div className="px-4 py-3 font-semibold" style={{ borderBottom: `4px solid ${color}` }}>
          {brand.name}
        </div>
        <div className="flex flex-col gap-3 px-4 py-4 text-sm [overflow-wrap:anywhere]">
          <p className="text-base font-semibold">{subject || 'Your subject'}</p>
          {lines.length > 0 ? (
            lines.map((line, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: lines may repeat; order is identity
              <p key={index}>{line}</p>
            ))
          ) : (
            <p className="text-gray-600">Your message</p>
          )}
          <p>
            <span
              className="inline-block rounded-md px-3 py-2 font-semibold"
              style={{ background: color, color: readableTextColor(color) }}
            >
              Open {brand.name}
            </span>
          </p>
          <p className="text-xs text-gray-600">
            Unsubscribe from announcements (one click, in every email)
          </p>
        </div>
      </div>
    </section>
  )
}

function ComposeForm({ recipients, leftToday, perDay, brand }: AnnouncementsPageProps) {
  const actionData = useActionData<{ result?: SubmissionResult<string[]> }>()
  const navigation = useNavigation()
  const [form, fields] = useSchemaForm(AnnouncementSchema, {
    id: 'announcement',
    lastResult: actionData?.result,
  })
  const pending = navigation.state === 'submitting'
  const subject = String(fields.subject.value ?? '')
  const body = String(fields.body.value ?? '')
  const bodyErrorId = fields.body.errors?.length ? `${fields.body.id}-error` : undefined
  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <Form method="POST" className="flex min-w-0 flex-col gap-4" {...getFormProps(form)}>
        {form.errors?.length ? <FormMessage>{form.errors.join(' ')}</FormMessage> : null}
        <FormField
          label="Subject"
          field={fields.subject}
          hint={`One line, at most ${SUBJECT_MAX} characters.`}
        />
        <div className="flex flex-col gap-1.5">
          <Label.Root htmlFor={fields.body.id} className="text-sm font-medium">
            Message
          </Label.Root>
          <textarea
            {...getTextareaProps(fields.body)}
            aria-describedby={[`${fields.body.id}-hint`, bodyErrorId].filter(Boolean).join(' ')}
            className={TEXTAREA}
          />
          <p id={`${fields.body.id}-hint`} className="text-xs text-gray-500 dark:text-gray-400">
            Plain text, at most {BODY_MAX} characters ({body.length} so far). Each line becomes a
            paragraph.
          </p>
          <ErrorList id={bodyErrorId} errors={fields.body.errors} />
        </div>
        <p
          id="announcement-reach"
          className="text-sm text-gray-600 dark:text-gray-400"
          role="status"
        >
          {recipients > 0
            ? `This announcement will reach ${people(recipients)} who opted in.`
            : NO_RECIPIENTS_MESSAGE}{' '}
          {leftToday > 0
            ? `You can send ${leftToday} more today (at most ${perDay} a day).`
            : `You have sent the most allowed today (${perDay}).`}
        </p>
        {/* Nobody to send to, or nothing left today: the button says so by not being pressable,
            and the line above it says why (issue 41 point 17). */}
        <StatusButton
          pending={pending}
          pendingText="Sending..."
          disabled={recipients === 0 || leftToday === 0}
          aria-describedby="announcement-reach"
          className="w-full sm:w-auto sm:self-start"
        >
          <Megaphone aria-hidden className="h-4 w-4" /> Send to {people(recipients)}
        </StatusButton>
      </Form>
      <Preview brand={brand} subject={subject} body={body} />
    </div>
  )
}

export function AnnouncementsPage(props: AnnouncementsPageProps) {
  const { history, canSend, recipients } = props
  return (
    <main className="flex flex-col gap-6 p-4 sm:p-6">
      <PageHeader
        title="Announcements"
        description="Write to your end users and team members who turned on Marketing Communications. Each email carries a one-click unsubscribe."
        actions={null}
      />
      {canSend ? (
        <Panel
          title="New announcement"
          description="Only your agency's end users and team members with Email Notifications and Marketing Communications on receive it."
        >
          <ComposeForm {...props} />
        </Panel>
      ) : (
        <FormMessage tone="info">
          {`Only your agency's admin sends announcements. They reach ${people(recipients)} who opted in.`}
        </FormMessage>
      )}
      <Panel title="Sent announcements" description="The newest first.">
        <DataTable
          divided={false}
          columns={[
            { label: 'Subject' },
            { label: 'Date' },
            { label: 'Recipients' },
            { label: 'Status' },
          ]}
        >
          {history.length === 0 ? (
            <EmptyRow columns={4}>No announcements sent yet.</EmptyRow>
          ) : (
            history.map((row) => (
              <tr key={row.id} className="border-t border-gray-200 dark:border-gray-800">
                <td className={`${TD} [overflow-wrap:anywhere]`}>{row.subject}</td>
                <td className={`${TD} whitespace-nowrap`}>
                  <time dateTime={row.createdAt}>
                    {new Date(row.createdAt).toLocaleString('en-US', {
                      dateStyle: 'medium',
                      timeStyle: 'short',
                      timeZone: 'UTC',
                    })}{' '}
                    UTC
                  </time>
                </td>
                <td className={TD}>{row.recipientCount}</td>
                <td className={TD}>{STATUS_LABEL[row.status]}</td>
              </tr>
            ))
          )}
        </DataTable>
      </Panel>
    </main>
  )
}
