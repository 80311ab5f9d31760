// What a lead's receipt link shows (ADR 050): the details they left, the consent they gave, and
// the button that deletes them. Works without JavaScript (a plain form).
import { Form, useNavigation } from '@remix-run/react'
import { Trash2 } from 'lucide-react'
import { FormMessage } from '#app/components/forms'
import { AuthCard } from '#app/components/layout/auth-card'
import { StatusButton } from '#app/components/ui/status-button'
import { utcTime } from '#app/components/ui/utc-time'

export type StoredLead = {
  fullName: string
  email: string
  phoneNumber: string
  company: string
  note: string
  createdAt: string | Date
  ownerName: string
  consentGivenAt: string | Date | null
  consentPage: string | null
  consentVersion: number | null
  consentText: string | null
}

function Row({ label, value }: { label: string; value: string }) {
  return (
    <div className="flex flex-col gap-0.5 border-b border-gray-100 py-2 last:border-0 dark:border-gray-800">
      <dt className="text-xs font-medium uppercase tracking-wide text-gray-500 dark:text-gray-400">
        {label}
      </dt>
      <dd className="whitespace-pre-line break-words text-sm">{value || '—'}</dd>
    </div>
  )
}

export function LeadLinkInvalid({ message }: { message: string }) {
  return (
    <AuthCard title="Nothing to show" description={message}>
      <p className="text-sm text-gray-600 dark:text-gray-400">
        If you deleted your data, nothing more is kept of it here.
      </p>
    </AuthCard>
  )
}

export function LeadDataDeleted({ message }: { message: string }) {
  return (
    <AuthCard title={message} description="Your details and your consent record are gone.">
      <div role="status" className="text-sm text-gray-600 dark:text-gray-400">
        The card owner's CRM is told to delete them too.
      </div>
    </AuthCard>
  )
}

export function LeadDataPage({ lead, error }: { lead: StoredLead; error?: string | null }) {
  const navigation = useNavigation()
  const deleting = navigation.state !== 'idle' && navigation.formData?.get('intent') === 'delete'
  return (
    <AuthCard
      title="Your data"
      description={`What is stored about you since you shared your details with ${lead.ownerName}.`}
    >
      <div className="flex flex-col gap-6">
        <section aria-labelledby="lead-details-heading" className="flex flex-col gap-1">
          <h2 id="lead-details-heading" className="text-base font-semibold">
            Your details
          </h2>
          <dl>
            <Row label="Name" value={lead.fullName} />
            <Row label="Email" value={lead.email} />
            <Row label="Phone" value={lead.phoneNumber} />
            <Row label="Company" value={lead.company} />
            <Row label="Note" value={lead.note} />
            <Row label="Shared on" value={utcTime(lead.createdAt)} />
          </dl>
        </section>
        {lead.consentGivenAt && lead.consentVersion !== null ? (
          <section aria-labelledby="lead-consent-heading" className="flex flex-col gap-1">
            <h2 id="lead-consent-heading" className="text-base font-semibold">
              Your consent
            </h2>
            <dl>
              <Row label={`Text (version ${lead.consentVersion})`} value={lead.consentText ?? ''} />
              <Row label="Given on" value={utcTime(lead.consentGivenAt)} />
              <Row label="Page" value={lead.consentPage ?? ''} />
            </dl>
          </section>
        ) : null}
        <Form method="POST" className="flex flex-col gap-3">
          <input type="hidden" name="intent" value="delete" />
          <p className="text-sm text-gray-600 dark:text-gray-400">
            Deleting removes your details from {lead.ownerName}'s contacts and their CRM. It cannot
            be undone.
          </p>
          {error ? <FormMessage>{error}</FormMessage> : null}
          <StatusButton variant="danger" pending={deleting} pendingText="Deleting...">
            <Trash2 aria-hidden className="h-4 w-4" />
            Delete my data
          </StatusButton>
        </Form>
      </div>
    </AuthCard>
  )
}
