import { Link } from '@remix-run/react'
import { Button } from '#app/components/ui/button'
import { cn } from '#app/utils/cn'
import { type MenuUser, UserMenu } from './user-menu'

export type HeaderBranding = { name: string; logoUrl: string | null }

export function SiteHeader({
  branding,
  user,
}: {
  branding: HeaderBranding
  user: MenuUser | null
}) {
  return (
    <header className="border-b border-gray-200 bg-white/90 backdrop-blur dark:border-gray-800 dark:bg-gray-950/90">
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-4">
        <Link
          to="/"
          className="flex min-w-0 items-center gap-2 rounded-md"
          aria-label={`${branding.name} home`}
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
            <UserMenu user={user} />
          ) : (
            <>
              <Button asChild variant="ghost">
                <Link to="/auth/login">Sign In</Link>
              </Button>
              <Button asChild>
                <Link to="/auth/register">Sign Up</Link>
              </Button>
            </>
          )}
        </nav>
      </div>
    </header>
  )
}
