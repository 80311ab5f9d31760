// What the account menu's trigger shows (avatar, name, chevron), without the menu: the header
// renders it until the Radix menu (app/components/layout/user-menu.tsx, loaded after hydration)
// is there, so pages without a signed-in person never download the menu.
import { ChevronDown } from 'lucide-react'
import type { Role } from '#app/validation/roles'
import { useTranslate } from './use-translate'

export type MenuUser = {
  firstName: string
  lastName: string
  email: string
  role: Role
  avatarUrl: string | null
}

/** Spec: display name is first and last name, else 'User'. */
export function displayName(user: Pick<MenuUser, 'firstName' | 'lastName'>) {
  return `${user.firstName} ${user.lastName}`.trim() || 'User'
}

/** Spec: picture, else the first letter of the email, else 'U'. */
export function avatarLetter(user: Pick<MenuUser, 'email'>) {
  return user.email.trim().charAt(0).toUpperCase() || 'U'
}

export function UserMenuFace({ user }: { user: MenuUser }) {
  const name = displayName(user)
  const t = useTranslate()
  return (
    <>
      {user.avatarUrl ? (
        <img src={user.avatarUrl} alt="" className="h-8 w-8 rounded-full object-cover" />
      ) : (
        <span
          aria-hidden
          className="flex h-8 w-8 items-center justify-center rounded-full bg-brand text-sm font-semibold text-brand-foreground"
        >
          {avatarLetter(user)}
        </span>
      )}
      {/* The name is the button's accessible name, so it starts with the text shown (WCAG
              2.5.3 label in name); on narrow screens it is there for screen readers only. */}
      <span className="sr-only text-sm font-medium sm:not-sr-only sm:max-w-[10rem] sm:truncate">
        {name}
      </span>
      <span className="sr-only">, {t('menu.accountMenu')}</span>
      <ChevronDown aria-hidden className="h-4 w-4 text-gray-500 dark:text-gray-400" />
    </>
  )
}
