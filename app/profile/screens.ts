// The profile screens, one per role area (spec accounts §2, roles §2): a person has one, at
// /profile/{area}, which /profile and any other profile path lead to (ADR 078). One route module
// renders them all from this table, so a tab is defined once.
import { AREA_ROLES, type Role, type RoleArea } from '#app/validation/roles'

export type ProfileVariant = RoleArea

/** What a profile screen loads beside the user's own details. */
export type ProfileLoadOptions = {
  card?: boolean
  activity?: boolean
  /** End user: the Card Scans tab. */
  scans?: boolean
  /** Team member: the My Users tab. */
  assignedUsers?: boolean
  /** Agency: the Teams tab. */
  organizationTeams?: boolean
  /** Agency: the Agency Branding tab. */
  organizationBranding?: boolean
}

export type ProfileTabId =
  | 'personal'
  | 'security'
  | 'card'
  | 'activity'
  | 'scans'
  | 'users'
  | 'branding'
  | 'teams'
  | 'notifications'

export type ProfileScreen = {
  /** Who may open it. */
  roles: readonly Role[]
  load: ProfileLoadOptions
  documentTitle: string
  /** The document title names the product too (the spec's default profile did). */
  titleWithProduct?: boolean
  title: string
  subtitle: string
  tabs: readonly { id: ProfileTabId; label: string }[]
  /** The Business Card tab also offers the vCard download. */
  vcard?: boolean
}

const personal = { id: 'personal', label: 'Personal Info' } as const
// Account safety (password, two-factor and passkeys, data export, deletion) sits under a tab
// named for it on every screen (issue 41 point 11): the end user's was 'Change Password'.
const security = { id: 'security', label: 'Security' } as const
const activity = { id: 'activity', label: 'Activity' } as const
const notifications = { id: 'notifications', label: 'Notifications' } as const

export const PROFILE_SCREENS: Record<ProfileVariant, ProfileScreen> = {
  // The end user's screen is the spec's default profile (§2.4: its title, subtitle and tabs)
  // with the end user's own tabs (§2.4: a card view with vCard and QR code, card scans): the
  // screen /profile opened for most people, now the one it leads to for the end-user area.
  'end-user': {
    roles: AREA_ROLES['end-user'],
    load: { card: true, activity: true, scans: true },
    documentTitle: 'Your Profile',
    titleWithProduct: true,
    title: 'Your Profile',
    subtitle: 'Manage your profile and digital business card',
    tabs: [
      personal,
      security,
      { id: 'card', label: 'Business Card' },
      { id: 'scans', label: 'Card Scans' },
      activity,
      notifications,
    ],
    vcard: true,
  },
  'team-member': {
    roles: AREA_ROLES['team-member'],
    load: { activity: true, assignedUsers: true },
    documentTitle: 'Team Member Profile',
    title: 'Team Member Profile',
    subtitle: 'Manage your details, your security and the users you look after',
    tabs: [personal, security, { id: 'users', label: 'My Users' }, activity, notifications],
  },
  agency: {
    roles: AREA_ROLES.agency,
    load: { organizationTeams: true, organizationBranding: true },
    documentTitle: 'Agency Profile',
    title: 'Agency Profile',
    subtitle: "Manage your details, your agency's branding and its teams",
    tabs: [
      personal,
      security,
      { id: 'branding', label: 'Agency Branding' },
      { id: 'teams', label: 'Teams' },
      notifications,
    ],
  },
  'super-admin': {
    roles: AREA_ROLES['super-admin'],
    load: {},
    documentTitle: 'Super Admin Profile',
    title: 'Super Admin Profile',
    subtitle: 'Manage your account, security and notifications',
    tabs: [personal, security, notifications],
  },
}

/** The screen a path shows: /profile/{area} is that area's; any other path none of its own. */
export function profileVariantOfPath(pathname: string): ProfileVariant | null {
  const area = pathname.replace(/\/+$/, '').split('/')[2]
  return area && Object.hasOwn(PROFILE_SCREENS, area) ? (area as ProfileVariant) : null
}
