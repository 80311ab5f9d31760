import * as DropdownMenu from '@radix-ui/react-dropdown-menu'
import { Link } from '@remix-run/react'
import { LogOut } from 'lucide-react'
import { userMenuEntries } from '#app/navigation/role-navigation'
import type { MessageKey } from '#app/utils/i18n/translate'
import { useSignOut } from './use-sign-out'
import { useTranslate } from './use-translate'
import { displayName, type MenuUser, UserMenuFace } from './user-menu-face'

const itemClass =
  'flex cursor-pointer items-center gap-2 rounded-md px-2 py-2 text-sm outline-none data-[highlighted]:bg-gray-100 dark:data-[highlighted]:bg-gray-800'

/** The menu's entries in the page's language (ADR 105: a signed-in visitor on a card page). */
const ENTRY_KEYS: Record<string, MessageKey> = {
  dashboard: 'menu.dashboard',
  profile: 'menu.profile',
  'digital-cards': 'menu.digitalCards',
  contacts: 'menu.contacts',
  settings: 'menu.settings',
}

export function UserMenu({ user }: { user: MenuUser }) {
  const name = displayName(user)
  const signOut = useSignOut()
  const t = useTranslate()
  return (
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger
        className="flex items-center gap-2 rounded-full p-1 pr-2 hover:bg-gray-100 dark:hover:bg-gray-800"
        data-testid="user-menu-trigger"
      >
        <UserMenuFace user={user} />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          align="end"
          sideOffset={8}
          className="z-50 min-w-[14rem] rounded-lg border border-gray-200 bg-white p-1 shadow-lg dark:border-gray-800 dark:bg-gray-900"
        >
          <DropdownMenu.Label className="px-2 py-2">
            <p className="text-sm font-medium" data-testid="user-menu-name">
              {name}
            </p>
            <p className="truncate text-xs text-gray-500 dark:text-gray-400">{user.email}</p>
            <p className="text-xs text-gray-500 dark:text-gray-400" data-testid="user-menu-role">
              ({t(`role.${user.role}`)})
            </p>
          </DropdownMenu.Label>
          <DropdownMenu.Separator className="my-1 h-px bg-gray-200 dark:bg-gray-800" />
          {userMenuEntries(user.role).map((item) => (
            <DropdownMenu.Item key={item.id} asChild className={itemClass}>
              <Link to={item.to}>
                <item.icon aria-hidden className="h-4 w-4" />{' '}
                {ENTRY_KEYS[item.id] ? t(ENTRY_KEYS[item.id] as MessageKey) : item.label}
              </Link>
            </DropdownMenu.Item>
          ))}
          <DropdownMenu.Separator className="my-1 h-px bg-gray-200 dark:bg-gray-800" />
          {/* Sent on select: the menu unmounts its content before a form could submit. */}
          <DropdownMenu.Item
            className={`${itemClass} text-red-600 dark:text-red-400`}
            onSelect={() => void signOut()}
          >
            <LogOut aria-hidden className="h-4 w-4" /> {t('menu.logOut')}
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  )
}
