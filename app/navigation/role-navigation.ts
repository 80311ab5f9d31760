// The one definition of where each role can go (roles-teams-admin.md §2.2, issue 13 point 8).
// The sidebar, the user menu and the home tiles all pick their entries from here, so a link
// cannot appear in one and be missing or point elsewhere in another. An entry whose screen is
// not built yet is listed with `exists: false` and shown nowhere; when the screen arrives, flip
// the flag (tests/unit/role-navigation.test.ts fails until it is flipped, and if it is flipped early).
import {
  BarChart3,
  Braces,
  Building2,
  Contact,
  CopyCheck,
  CreditCard,
  KeyRound,
  LayoutDashboard,
  type LucideIcon,
  Megaphone,
  Nfc,
  Palette,
  QrCode,
  RefreshCw,
  Settings,
  Shield,
  UserRound,
  Users,
  Webhook,
} from 'lucide-react'
import {
  ROLE_NAMES,
  type Role,
  type RoleArea,
  roleArea,
  rolePaths,
  settingsMenuPath,
} from '#app/validation/roles'
import { TEAM_PAGE_PATH } from '#app/validation/team-paths'

export type NavEntry = {
  /** The destination's name, shared by every consumer that links to it. */
  id: string
  label: string
  to: string
  icon: LucideIcon
  /** Whether the screen behind `to` is built; entries without one are never shown. */
  exists: boolean
}

type Destination = Omit<NavEntry, 'label'>

/** The destinations every signed-in person has, whatever their area (ADR 007). */
function personalDestinations(role: Role) {
  const paths = rolePaths(role)
  return {
    dashboard: { id: 'dashboard', to: paths.dashboard, icon: LayoutDashboard, exists: true },
    // One profile screen per person (issue 41 point 11, ADR 078): the home tile, the sidebar and
    // the menu all open the role's, the screen /profile (the spec's tile target) leads to.
    profile: { id: 'profile', to: paths.profile, icon: UserRound, exists: true },
    settings: { id: 'settings', to: settingsMenuPath(role), icon: Settings, exists: true },
    digitalCards: { id: 'digital-cards', to: paths.digitalCards, icon: CreditCard, exists: true },
    qrCode: { id: 'qr-code', to: '/qrcode', icon: QrCode, exists: true },
    contacts: { id: 'contacts', to: '/contacts', icon: Contact, exists: true },
  } satisfies Record<string, Destination>
}

const entry = (destination: Destination, label: string): NavEntry => ({ ...destination, label })

/** Ours, beyond the spec's table: the agency's announcements to its opted-in end users. */
const ANNOUNCEMENTS: Destination = {
  id: 'announcements',
  to: '/dashboard/agency/announcements',
  icon: Megaphone,
  exists: true,
}

/** Ours, beyond the spec's table: views, saves, taps and exchanges of one's cards (ADR 082). */
const ANALYTICS: Destination = {
  id: 'analytics',
  to: '/dashboard/analytics',
  icon: BarChart3,
  exists: true,
}

/** Ours, beyond the spec's table: the agency's card templates with locked fields (ADR 048). */
const CARD_TEMPLATES: Destination = {
  id: 'card-templates',
  to: '/dashboard/agency/templates',
  icon: CopyCheck,
  exists: true,
}

/** Ours, beyond the spec's table: the agency's single sign-on, its admins only (ADR 088). */
const SINGLE_SIGN_ON: Destination = {
  id: 'single-sign-on',
  to: '/dashboard/agency/sso',
  icon: KeyRound,
  exists: true,
}

/** Ours, beyond the spec's table: SCIM directory sync, for the agency admin only (ADR 089). */
const DIRECTORY_SYNC: Destination = {
  id: 'directory-sync',
  to: '/dashboard/agency/scim',
  icon: RefreshCw,
  exists: true,
}

/** Ours, beyond the spec's table: the REST API's keys and reference, agency admin only (ADR 092). */
const API_KEYS: Destination = {
  id: 'api-keys',
  to: '/dashboard/agency/api',
  icon: Braces,
  exists: true,
}

/** Ours, beyond the spec's table: signed webhooks, for the agency admin only (ADR 093). */
const WEBHOOKS: Destination = {
  id: 'webhooks',
  to: '/dashboard/agency/webhooks',
  icon: Webhook,
  exists: true,
}

/** Spec §2.2's Dashboard group of each area, in the table's order, built or not. */
export function dashboardEntries(role: Role): NavEntry[] {
  const own = personalDestinations(role)
  const overview = entry(own.dashboard, 'Overview')
  const tables: Record<RoleArea, NavEntry[]> = {
    'super-admin': [
      overview,
      entry(
        { id: 'admin-team', to: '/dashboard/super-admin/team', icon: Shield, exists: true },
        'Admin Team',
      ),
      entry(
        { id: 'agencies', to: '/dashboard/super-admin/agencies', icon: Building2, exists: true },
        'Agencies',
      ),
      entry(
        { id: 'end-users', to: '/dashboard/super-admin/users', icon: Users, exists: true },
        'End Users',
      ),
      entry(
        {
          id: 'system-settings',
          to: '/dashboard/super-admin/settings',
          icon: Settings,
          exists: true,
        },
        'System Settings',
      ),
    ],
    agency: [
      overview,
      entry(
        { id: 'team-members', to: '/dashboard/agency/team', icon: Users, exists: true },
        'Team Members',
      ),
      entry(
        { id: 'end-users', to: '/dashboard/agency/users', icon: UserRound, exists: true },
        'End Users',
      ),
      entry(
        { id: 'branding', to: '/dashboard/agency/branding', icon: Palette, exists: true },
        'Branding',
      ),
      entry(
        { id: 'area-settings', to: '/dashboard/agency/settings', icon: Settings, exists: true },
        'Settings',
      ),
    ],
    'team-member': [
      overview,
      entry(
        { id: 'end-users', to: '/dashboard/team-member/users', icon: Users, exists: true },
        'End Users',
      ),
      entry(own.digitalCards, 'Digital Cards'),
      entry(own.qrCode, 'QR Codes'),
      entry(
        {
          id: 'area-settings',
          to: '/dashboard/team-member/settings',
          icon: Settings,
          exists: true,
        },
        'Settings',
      ),
    ],
    'end-user': [
      overview,
      entry({ id: 'team', to: TEAM_PAGE_PATH, icon: Users, exists: true }, 'Team'),
      entry(own.digitalCards, 'Digital Cards'),
      entry(own.qrCode, 'My QR Code'),
      entry(
        { id: 'area-settings', to: '/dashboard/end-user/settings', icon: Settings, exists: true },
        'Settings',
      ),
    ],
  }
  return tables[roleArea(role)]
}

/** Spec §2.2: Profile and Settings go to the current role's pages. */
export function accountEntries(role: Role): NavEntry[] {
  const own = personalDestinations(role)
  return [entry(own.profile, 'Profile'), entry(own.settings, 'Settings')]
}

/** The Dashboard group's entry that opens the role's settings screen (its dashboard path). */
const AREA_SETTINGS_IDS = new Set(['area-settings', 'system-settings'])

/**
 * What the sidebar shows: only entries whose screen exists, each screen once (issue 30 point 4).
 * The area's settings entry and the Account group's Settings open the same screen, so the
 * Account group leaves its Settings to the Dashboard group's (the spec's table label, and a path
 * inside the sidebar layout). The end-user area adds Contacts, which the menu and the home
 * tiles already offer, after its QR code; the agency area adds Announcements after End Users,
 * Card Templates after Announcements, and for its admins Single Sign-On after Branding,
 * Directory Sync after Card Templates, then API and Webhooks.
 */
export function sidebarNavigation(role: Role) {
  const dashboard = dashboardEntries(role).filter((item) => item.exists)
  const hasAreaSettings = dashboard.some((item) => AREA_SETTINGS_IDS.has(item.id))
  if (roleArea(role) === 'end-user') {
    const contacts = entry(personalDestinations(role).contacts, 'Contacts')
    const qr = dashboard.findIndex((item) => item.id === 'qr-code')
    if (contacts.exists) dashboard.splice(qr + 1, 0, contacts)
  }
  // The agency area adds Announcements (issue 30 point 2, ADR 046) after its End Users: what
  // the agency writes to them.
  if (roleArea(role) === 'agency') {
    const announcements = entry(ANNOUNCEMENTS, 'Announcements')
    const endUsers = dashboard.findIndex((item) => item.id === 'end-users')
    if (announcements.exists) dashboard.splice(endUsers + 1, 0, announcements)
    // Card Templates (issue 31 point 1, ADR 048) after Announcements: what the end users' cards
    // are made of.
    const templates = entry(CARD_TEMPLATES, 'Card Templates')
    const after = dashboard.findIndex((item) => item.id === 'announcements')
    if (templates.exists) dashboard.splice(after + 1, 0, templates)
    // Single Sign-On (issue 42 point 1, ADR 088) after Branding, for the agency admin only: who
    // decides how the agency's people sign in (an agency member's visit is a 403).
    const sso = entry(SINGLE_SIGN_ON, 'Single Sign-On')
    const branding = dashboard.findIndex((item) => item.id === 'branding')
    if (sso.exists && role === 'agency_admin') dashboard.splice(branding + 1, 0, sso)
    // Directory Sync (issue 42 point 2, ADR 089) after Card Templates, for the agency admin
    // alone: its tokens and log are the admin's (the screen's guard says the same).
    const sync = entry(DIRECTORY_SYNC, 'Directory Sync')
    const afterTemplates = dashboard.findIndex((item) => item.id === 'card-templates')
    if (sync.exists && role === 'agency_admin') dashboard.splice(afterTemplates + 1, 0, sync)
    // API (issue 43, ADR 092) and Webhooks (ADR 093) after Directory Sync, for the agency admin
    // alone: a key reads and writes the agency's people and contacts, and endpoints, secrets and
    // the delivery log are the admin's (the screens' guards say the same).
    const api = entry(API_KEYS, 'API')
    const webhooks = entry(WEBHOOKS, 'Webhooks')
    const afterSync = dashboard.findIndex((item) => item.id === 'directory-sync')
    if (role === 'agency_admin') {
      const added = [api, webhooks].filter((item) => item.exists)
      dashboard.splice(afterSync + 1, 0, ...added)
    }
  }
  // Every role has Analytics (issue 41 point 8, ADR 082) after its Overview: every role owns
  // cards (ADR 007), and admins see their team's or agency's there too.
  dashboard.splice(1, 0, entry(ANALYTICS, 'Analytics'))
  return {
    dashboard,
    account: accountEntries(role).filter(
      (item) => item.exists && !(hasAreaSettings && item.id === 'settings'),
    ),
  }
}

/** The user menu's links (accounts §2 header and user menu; Contacts is ours); Log out follows. */
export function userMenuEntries(role: Role): NavEntry[] {
  const own = personalDestinations(role)
  return [
    entry(own.dashboard, 'Dashboard'),
    entry(own.profile, 'Profile'),
    entry(own.digitalCards, 'Digital Cards'),
    entry(own.contacts, 'Contacts'),
    entry(own.settings, 'Settings'),
  ].filter((item) => item.exists)
}

export type HomeTile = NavEntry & { text: string }

/** The signed-in home's tiles (accounts §2); NFC Sharing only where the device has Web NFC. */
export function homeTiles(role: Role, { nfc }: { nfc: boolean }): HomeTile[] {
  // A super admin runs the platform and keeps no card (issue 30 point 4): its home offers the
  // screens of its Dashboard group, the very entries the sidebar shows.
  if (roleArea(role) === 'super-admin') return adminTiles(role)
  const own = personalDestinations(role)
  const tiles: HomeTile[] = [
    { ...entry(own.profile, 'Update Profile'), text: 'Your name, contact details and images.' },
    { ...entry(own.digitalCards, 'Digital Cards'), text: 'Create and manage your cards.' },
    { ...entry(own.qrCode, 'QR Code'), text: 'Show your QR code and share your link.' },
    {
      ...entry(own.contacts, 'Contacts'),
      text: 'The people who connected with you or left their details.',
    },
  ]
  if (nfc) {
    tiles.push({
      ...entry({ ...own.qrCode, id: 'nfc', icon: Nfc }, 'NFC Sharing'),
      text: 'Write your card to an NFC tag.',
    })
  }
  return tiles.filter((tile) => tile.exists)
}

const ADMIN_TILE_TEXTS: Record<string, string> = {
  'admin-team': 'The platform staff and their roles.',
  agencies: 'Add, review and manage the agencies on the platform.',
  'end-users': 'Every account of every agency and of the platform.',
  'system-settings': 'Platform details, security and API access.',
  analytics: 'Views, saves, link taps and exchanges, as figures and a CSV.',
}

function adminTiles(role: Role): HomeTile[] {
  return sidebarNavigation(role)
    .dashboard.filter((item) => item.id in ADMIN_TILE_TEXTS)
    .map((item) => ({ ...item, text: ADMIN_TILE_TEXTS[item.id] ?? '' }))
}

/** The sidebar's role badge: the role's name. */
export function roleBadge(role: Role) {
  return ROLE_NAMES[role]
}
