// Tabs whose data arrives with later screens: an honest empty state, never sample data.
import { Link } from '@remix-run/react'
import { Palette, ScanLine, UserRound, Users } from 'lucide-react'
import { Button } from '#app/components/ui/button'
import { EmptyState, Panel } from './empty-state'

export function UserAccountsPanel() {
  return (
    <Panel title="User Accounts" description="The accounts you can manage.">
      <EmptyState icon={Users} title="No user accounts to show yet">
        The list of user accounts arrives with the administration screens.
      </EmptyState>
    </Panel>
  )
}

export function AgencyBrandingPanel() {
  return (
    <Panel title="Agency Branding" description="Your agency's name, colours and logo.">
      <EmptyState
        icon={Palette}
        title="Branding is managed on its own screen"
        action={
          <Button asChild variant="secondary">
            <Link to="/dashboard/agency/branding">Go to Branding</Link>
          </Button>
        }
      >
        Set your agency's colours, logo and favicon from the branding screen.
      </EmptyState>
    </Panel>
  )
}

export function TeamsPanel() {
  return (
    <Panel title="Teams" description="The teams of your agency.">
      <EmptyState
        icon={Users}
        title="No teams to show here yet"
        action={
          <Button asChild variant="secondary">
            <Link to="/dashboard/agency/team">Go to Team Members</Link>
          </Button>
        }
      >
        Teams and their members are managed from the team screen.
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
