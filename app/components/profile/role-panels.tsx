// The role profiles' own tabs (roles-teams-admin.md §2.4), on the user's real rows: the end
// user's Card Scans, the team member's My Users, the agency's Teams and Agency Branding.
import { Link } from '@remix-run/react'
import { Monitor, Palette, ScanLine, Smartphone, Tablet, UserRound, Users } from 'lucide-react'
import { Button } from '#app/components/ui/button'
import { EmptyState } from '#app/components/ui/empty-state'
import { Panel } from '#app/components/ui/panel'
import type { LoadedProfile } from '#app/profile/profile-route.server'

const DEVICE = {
  mobile: { label: 'Phone', icon: Smartphone },
  tablet: { label: 'Tablet', icon: Tablet },
  desktop: { label: 'Computer', icon: Monitor },
} as const

export function CardScansPanel({ scans }: { scans: LoadedProfile['scans'] }) {
  return (
    <Panel title="Card Scans" description="When people opened your cards, newest first.">
      {scans.length === 0 ? (
        <EmptyState icon={ScanLine} title="No card scans yet">
          Each time someone opens your card from a link or a QR code, it will be listed here.
        </EmptyState>
      ) : (
        <ul className="divide-y divide-gray-200 dark:divide-gray-800" data-testid="card-scans">
          {scans.map((scan) => {
            const device = DEVICE[scan.device as keyof typeof DEVICE]
            const Icon = device?.icon ?? ScanLine
            return (
              <li key={scan.id} className="flex items-center gap-3 py-3 text-sm">
                <Icon aria-hidden className="h-4 w-4 shrink-0 text-gray-500 dark:text-gray-400" />
                <div className="min-w-0 flex-1">
                  <p className="truncate font-medium">{scan.card}</p>
                  <p className="text-gray-600 dark:text-gray-400">
                    {device?.label ?? 'Unknown device'}
                  </p>
                </div>
                <time
                  dateTime={scan.at}
                  title={scan.at}
                  className="text-gray-600 dark:text-gray-400"
                >
                  {scan.relative}
                </time>
              </li>
            )
          })}
        </ul>
      )}
    </Panel>
  )
}

export function MyUsersPanel({ users }: { users: LoadedProfile['assignedUsers'] }) {
  return (
    <Panel title="My Users" description="The end users assigned to you.">
      {users.length === 0 ? (
        <EmptyState
          icon={UserRound}
          title="No users assigned to you yet"
          action={
            <Button asChild variant="secondary">
              <Link to="/dashboard/team-member/users">Open My End Users</Link>
            </Button>
          }
        >
          End users your agency assigns to you, and the ones you add, will be listed here.
        </EmptyState>
      ) : (
        <div className="flex flex-col gap-4">
          <ul className="divide-y divide-gray-200 dark:divide-gray-800" data-testid="my-users">
            {users.map((person) => (
              <li key={person.id} className="flex items-center justify-between gap-3 py-3 text-sm">
                <div className="min-w-0">
                  <p className="font-medium">{person.name}</p>
                  <p className="truncate text-gray-600 dark:text-gray-400">{person.email}</p>
                </div>
                <span className="text-gray-600 dark:text-gray-400">
                  {person.status === 'active' ? 'Active' : 'Inactive'}
                </span>
              </li>
            ))}
          </ul>
          <Button asChild variant="secondary" className="self-start">
            <Link to="/dashboard/team-member/users">Manage in My End Users</Link>
          </Button>
        </div>
      )}
    </Panel>
  )
}

/**
 * The teams end users of the agency made, with their size. Agency staff manage people, not
 * those teams, so the links lead to the screens where they do: Team Members and End Users.
 */
export function TeamsPanel({
  teams,
  screens,
}: {
  teams: LoadedProfile['organizationTeams']
  screens: { teamMembers: string | null; endUsers: string | null } | null
}) {
  const links = screens ? (
    <div className="mt-4 flex flex-wrap gap-2">
      {[
        { to: screens.teamMembers, Icon: Users, label: 'Open Team Members' },
        { to: screens.endUsers, Icon: UserRound, label: 'Open End Users' },
      ].map(({ to, Icon, label }) =>
        to ? (
          <Button key={label} asChild variant="secondary">
            <Link to={to}>
              <Icon aria-hidden className="h-4 w-4" /> {label}
            </Link>
          </Button>
        ) : null,
      )}
    </div>
  ) : null
  return (
    <Panel title="Teams" description="The teams people of your agency have made.">
      {teams.length === 0 ? (
        <EmptyState icon={Users} title="No teams yet">
          Teams made by your end users on a team plan are listed here with their size.
        </EmptyState>
      ) : (
        <ul className="divide-y divide-gray-200 dark:divide-gray-800" data-testid="agency-teams">
          {teams.map((team) => (
            <li key={team.id} className="flex items-center justify-between gap-3 py-3 text-sm">
              <div className="min-w-0">
                <p className="font-medium">{team.name}</p>
                <p className="text-gray-600 dark:text-gray-400">Created {team.created}</p>
              </div>
              <span className="text-gray-600 dark:text-gray-400">
                {team.members} {team.members === 1 ? 'member' : 'members'}
              </span>
            </li>
          ))}
        </ul>
      )}
      {links}
    </Panel>
  )
}

const DOMAIN_LABEL = {
  pending: 'Pending verification',
  verified: 'Verified',
  misconfigured: 'Misconfigured',
} as const

/**
 * The agency's stored branding (name, colours, logo, custom domain, white labeling), with a link
 * to the Branding screen where the role may open it.
 */
export function AgencyBrandingPanel({
  branding,
  brandingPath,
}: {
  branding: NonNullable<LoadedProfile['organizationBranding']>
  /** The Branding screen, when this role may open it. */
  brandingPath: string | null
}) {
  return (
    <Panel
      title="Agency Branding"
      description="Your agency's name, colours, logo and domain, as saved on the Branding screen."
    >
      <dl className="grid gap-4 text-sm sm:grid-cols-2" data-testid="agency-branding">
        <div>
          <dt className="text-gray-600 dark:text-gray-400">Company name</dt>
          <dd className="font-medium">{branding.name}</dd>
        </div>
        <div>
          <dt className="text-gray-600 dark:text-gray-400">Logo</dt>
          <dd>
            {branding.logoUrl ? (
              <img
                src={branding.logoUrl}
                alt={`${branding.name} logo`}
                className="h-10 max-w-40 object-contain"
              />
            ) : (
              'No logo yet'
            )}
          </dd>
        </div>
        {(['primaryColor', 'secondaryColor'] as const).map((key) => (
          <div key={key}>
            <dt className="text-gray-600 dark:text-gray-400">
              {key === 'primaryColor' ? 'Primary colour' : 'Secondary colour'}
            </dt>
            <dd className="flex items-center gap-2 font-mono">
              <span
                aria-hidden
                className="h-5 w-5 rounded border border-gray-300"
                style={{ backgroundColor: branding[key] }}
              />
              {branding[key]}
            </dd>
          </div>
        ))}
        <div>
          <dt className="text-gray-600 dark:text-gray-400">Custom domain</dt>
          <dd>
            {branding.customDomain ? (
              <>
                <span className="font-medium">{branding.customDomain}</span>{' '}
                <span className="text-gray-600 dark:text-gray-400">
                  ({DOMAIN_LABEL[branding.domainStatus ?? 'pending']})
                </span>
              </>
            ) : (
              'No custom domain'
            )}
          </dd>
        </div>
        <div>
          <dt className="text-gray-600 dark:text-gray-400">White labeling</dt>
          <dd>
            {branding.whiteLabelActive
              ? 'On: your sites show your name, colours and logo'
              : "Off: your sites show the platform's name and colours"}
          </dd>
        </div>
      </dl>
      {brandingPath ? (
        <Button asChild variant="secondary" className="mt-4">
          <Link to={brandingPath}>
            <Palette aria-hidden className="h-4 w-4" /> Edit branding
          </Link>
        </Button>
      ) : null}
    </Panel>
  )
}
