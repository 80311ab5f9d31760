import { Link } from '@remix-run/react'
import { type ComponentType, useEffect, useState } from 'react'
import { Button } from '#app/components/ui/button'
import { cn } from '#app/utils/cn'
import { useTranslate } from './use-translate'
import { type MenuUser, UserMenuFace } from './user-menu-face'

const TRIGGER_CLASS =
  'flex items-center gap-2 rounded-full p-1 pr-2 hover:bg-gray-100 dark:hover:bg-gray-800'

/**
 * The account menu, fetched after hydration: the Radix dropdown and its positioning code are
 * about 20 KB gzipped that a signed-out visitor (the public card page's) never needs. Until it
 * is there, the same face in a disabled button holds its place.
 */
function AccountMenu({ user }: { user: MenuUser }) {
  const [Menu, setMenu] = useState<ComponentType<{ user: MenuUser }> | null>(null)
  useEffect(() => {
    let live = true
    void import('./user-menu').then((module) => {
      if (live) setMenu(() => module.UserMenu)
    })
    return () => {
      live = false
    }
  }, [])
  if (Menu) return <Menu user={user} />
  return (
    <button type="button" disabled className={TRIGGER_CLASS}>
      <UserMenuFace user={user} />
    </button>
  )
}

export type HeaderBranding = { name: string; logoUrl: string | null }

export function SiteHeader({
  branding,
  user,
  accountLinks = true,
}: {
  branding: HeaderBranding
  user: MenuUser | null
  /** Sign In and Sign Up for a signed-out person; a card's recipient gets none (ADR 080). */
  accountLinks?: boolean
}) {
  // In the page's language on the pages that speak the visitor's (ADR 105).
  const t = useTranslate()
  return (
    <header className="border-b border-gray-200 bg-white/90 backdrop-blur dark:border-gray-800 dark:bg-gray-950/90">
      {/* Centred with the page's content; full width above a sidebar (issue 41 point 17), so the
          logo sits over the sidebar and the account menu at the content's right edge. */}
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-4 group-has-[[data-sidebar-layout]]/app:max-w-none">
        <Link
          to="/"
          className="flex min-w-0 items-center gap-2 rounded-md"
          aria-label={t('header.home', { name: branding.name })}
        >
          {branding.logoUrl ? (
            <img
              src={branding.logoUrl}
              alt={branding.name}
              className="max-h-10 w-auto max-w-[120px] object-contain sm:max-h-12 sm:max-w-[180px]"
              data-testid="tenant-logo"
            />
          ) : null}
          {/* With a logo, the name gives way on narrow screens (it stays the logo's alt text). */}
          <span
            className={cn('truncate text-lg font-semibold', branding.logoUrl && 'hidden sm:block')}
            data-testid="tenant-name"
          >
            {branding.name}
          </span>
        </Link>
        <nav aria-label="Account" className="flex shrink-0 items-center gap-2 whitespace-nowrap">
          {user ? (
            <AccountMenu user={user} />
          ) : !accountLinks ? null : (
            <>
              <Button asChild variant="ghost">
                <Link to="/auth/login">{t('header.signIn')}</Link>
              </Button>
              <Button asChild>
                <Link to="/auth/register">{t('header.signUp')}</Link>
              </Button>
            </>
          )}
        </nav>
      </div>
    </header>
  )
}
