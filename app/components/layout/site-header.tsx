import { Link } from '@remix-run/react'
import { Button } from '#app/components/ui/button'

export type HeaderBranding = { name: string; logoUrl: string | null }

export function SiteHeader({ branding }: { branding: HeaderBranding }) {
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
              className="max-h-12 w-auto max-w-[180px] object-contain"
              data-testid="tenant-logo"
            />
          ) : null}
          <span className="truncate text-lg font-semibold" data-testid="tenant-name">
            {branding.name}
          </span>
        </Link>
        <nav aria-label="Account" className="flex items-center gap-2">
          <Button asChild variant="ghost">
            <Link to="/auth/login">Sign In</Link>
          </Button>
          <Button asChild>
            <Link to="/auth/register">Sign Up</Link>
          </Button>
        </nav>
      </div>
    </header>
  )
}
