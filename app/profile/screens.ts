// The profile screens: /profile (any role) and one per role area (spec accounts §2, roles §2).
// One route module renders them all from this table, so a tab is defined once.
import { AREA_ROLES, type Role, type RoleArea } from '#app/validation/roles'

export type ProfileVariant = 'default' | RoleArea

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
  /** Who may open it; any signed-in role when omitted. */
  roles?: readonly Role[]
  load: ProfileLoadOptions
  /** The document title; the default screen adds the product's name. */
  documentTitle: string
  title: string
  subtitle: string
  tabs: readonly { id: ProfileTabId; label: string }[]
  /** The Business Card tab also offers the vCard download. */
  vcard?: boolean
}

const personal = { id: 'personal', label: 'Personal Info' } as const
const security = { id: 'security', label: 'Security' } as const
const activity = { id: 'activity', label: 'Activity' } as const
const notifications = { id: 'notifications', label: 'Notifications' } as const

export const PROFILE_SCREENS: Record<ProfileVariant, ProfileScreen> = {
  default: {
    load: { card: true, activity: true },
    documentTitle: 'Your Profile',
    title: 'Your Profile',
    subtitle: 'Manage your profile and digital business card',
    tabs: [personal, security, { id: 'card', label: 'Business Card' }, activity, notifications],
  },
  'end-user': {
    roles: AREA_ROLES['end-user'],
    load: { card: true, scans: true },
    documentTitle: 'My Profile',
    title: 'My Profile',
    subtitle: 'Manage your details, your password and your digital card',
    tabs: [
      personal,
      { id: 'security', label: 'Change Password' },
      { id: 'card', label: 'Digital Card' },
      { id: 'scans', label: 'Card Scans' },
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

/** The screen a path shows: /profile/{area} is that area's, /profile the default one. */
export function profileVariantOfPath(pathname: string): ProfileVariant {
  const area = pathname.replace(/\/+$/, '').split('/')[2]
  return area && area !== 'default' && area in PROFILE_SCREENS
    ? (area as ProfileVariant)
    : 'default'
}
