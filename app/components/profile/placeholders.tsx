// Tabs whose data arrives with later screens: an honest empty state, never sample data.
import { Palette, ScanLine, UserRound, Users } from 'lucide-react'
import { EmptyState, Panel } from './empty-state'

// The agency branding and team screens come with a later issue: no link until they exist, so
// the panels never lead to a 404.
export function AgencyBrandingPanel() {
  return (
    <Panel title="Agency Branding" description="Your agency's name, colours and logo.">
      <EmptyState icon={Palette} title="Branding settings are not available yet">
        Setting your agency's colours, logo and favicon arrives with the agency screens.
      </EmptyState>
    </Panel>
  )
}

export function TeamsPanel() {
  return (
    <Panel title="Teams" description="The teams of your agency.">
      <EmptyState icon={Users} title="No teams to show here yet">
        Teams and their members will be listed here once team management arrives.
      </EmptyState>
    </Panel>
  )
}

export function MyUsersPanel() {
  return (
    <Panel title="My Users" description="The end users assigned to you.">
      <EmptyState icon={UserRound} title="No users assigned to you yet">
        End users assigned to you will be listed here.
      </EmptyState>
    </Panel>
  )
}

export function CardScansPanel() {
  return (
    <Panel title="Card Scans" description="When people opened your card.">
      <EmptyState icon={ScanLine} title="No card scans yet">
        Each time someone opens your card from a link or a QR code, it will be listed here.
      </EmptyState>
    </Panel>
  )
}
