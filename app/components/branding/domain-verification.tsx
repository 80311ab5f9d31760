// The Domain Settings tab's DNS instructions (spec §2.12, §9): the CNAME to point the domain at,
// the TXT record that proves it is the agency's, the domain's state and 'Verify domain'.
import { Form, useNavigation } from '@remix-run/react'
import { DnsCheckNote, DnsRecordsTable } from '#app/components/branding/dns-records'
import { Badge } from '#app/components/ui/badge'
import { StatusButton } from '#app/components/ui/status-button'
import { Subsection } from '#app/components/ui/titled-section'
import { DOMAIN_CLAIM_DAYS } from '#app/domains/claims'
import type { DomainState, DomainStatus } from '#app/domains/custom-domain-verification.server'

const VERIFY_FORM_ID = 'verify-domain-form'

const STATUS: Record<
  DomainStatus,
  { label: string; tone: 'green' | 'amber' | 'red'; help: string }
> = {
  pending: {
    label: 'Pending verification',
    tone: 'amber',
    help: `Create both records, then verify within ${DOMAIN_CLAIM_DAYS} days (after that the domain is released). Until then the domain does not serve your site.`,
  },
  verified: {
    label: 'Verified',
    tone: 'green',
    help: 'Your domain serves your branded site.',
  },
  misconfigured: {
    label: 'Misconfigured',
    tone: 'red',
    help: 'The TXT record is gone, so the domain no longer serves your site. Put it back and verify again.',
  },
}

function RecordRow({ type, name, value }: { type: string; name: string; value: string }) {
  return (
    <tr className="border-t border-gray-200 align-top dark:border-gray-800">
      <td className="py-2 pr-3 font-medium">{type}</td>
      <td className="py-2 pr-3">
        <code className="break-all">{name}</code>
      </td>
      <td className="py-2">
        <code className="break-all">{value}</code>
      </td>
    </tr>
  )
}

/**
 * What the instructions show: nothing saved yet (null), else the saved domain's state and the
 * records to create. A domain stored without a verification token (verified before tokens, as
 * the demo's is) still shows as saved with its state; only its TXT record and the verify button
 * are left out, having nothing to check against.
 */
export function domainInstructions(state: DomainState) {
  if (!state.domain || !state.status) return null
  const txt =
    state.txtName && state.txtValue ? { name: state.txtName, value: state.txtValue } : null
  return { domain: state.domain, status: state.status, txt }
}

/** The verify form sits outside the branding form (forms do not nest); its button joins it. */
export function VerifyDomainForm() {
  return <Form id={VERIFY_FORM_ID} method="POST" replace preventScrollReset />
}

export function DomainVerification({
  state,
  canManage,
  unsaved,
}: {
  state: DomainState
  canManage: boolean
  /** The domain field differs from the saved domain: verify after saving. */
  unsaved: boolean
}) {
  const navigation = useNavigation()
  const verifying =
    navigation.state !== 'idle' && navigation.formData?.get('intent') === 'verify-domain'
  const shown = domainInstructions(state)
  return (
    <Subsection id="dns-instructions-title" title="DNS instructions">
      {!shown ? (
        <p className="text-sm text-gray-600 dark:text-gray-400">
          Enter your domain and save: the records to create at your DNS provider appear here. Point
          it with a CNAME record at <code>{state.cnameTarget}</code>.
        </p>
      ) : (
        <>
          <div className="flex flex-wrap items-center gap-2 text-sm">
            <span className="font-medium">{shown.domain}</span>
            <Badge tone={STATUS[shown.status].tone}>{STATUS[shown.status].label}</Badge>
          </div>
          <p className="text-sm text-gray-600 dark:text-gray-400">{STATUS[shown.status].help}</p>
          {state.local ? (
            <p className="text-sm text-gray-600 dark:text-gray-400" data-testid="local-domain">
              A name under .localhost points at this machine and has no public DNS, so it verifies
              without these records (the demo's domain).
            </p>
          ) : null}
          <DnsRecordsTable
            caption={<>DNS records for {shown.domain}</>}
            columns={['Type', 'Name', 'Value']}
          >
            <RecordRow type="CNAME" name={shown.domain} value={state.cnameTarget} />
            {shown.txt ? (
              <RecordRow type="TXT" name={shown.txt.name} value={shown.txt.value} />
            ) : null}
          </DnsRecordsTable>
          <DnsCheckNote checkedAt={state.checkedAt} shownAt={state.shownAt} />
          {canManage ? (
            unsaved ? (
              <p className="text-sm text-amber-800 dark:text-amber-300">
                Save your changes to verify the new domain.
              </p>
            ) : shown.txt ? (
              <StatusButton
                type="submit"
                form={VERIFY_FORM_ID}
                name="intent"
                value="verify-domain"
                variant="secondary"
                pending={verifying}
                pendingText="Verifying..."
                className="self-start"
              >
                Verify domain
              </StatusButton>
            ) : null
          ) : null}
        </>
      )}
    </Subsection>
  )
}
