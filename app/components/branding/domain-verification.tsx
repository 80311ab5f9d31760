// CONTRACT STUB (replaced by the custom-domain work): DNS instructions, the domain's state and
// the 'Verify domain' button, mounted under the custom domain field of the Domain Settings tab.
import type { DomainState } from '#app/domains/custom-domains.server'

export function DomainVerification({
  state,
  canManage,
}: {
  state: DomainState
  canManage: boolean
}) {
  if (!state.domain) return null
  return (
    <div data-can-manage={canManage}>
      <p>CNAME {state.cnameTarget}</p>
      <p>
        TXT {state.txtName} {state.txtValue}
      </p>
    </div>
  )
}
