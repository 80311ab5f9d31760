// What a route shows for an error it has no message of its own for: 404, 403, the tenant's and
// the database's states, anything else (out of root.tsx, issue 40 point 1).
import { isRouteErrorResponse, Link, useLocation } from '@remix-run/react'
import { isAuthRequiredData } from '#app/auth/auth-required'
import { AuthIssuePanel } from '#app/components/layout/auth-guard'
import {
  DATABASE_WARNING,
  isDatabaseErrorData,
  isDiskFullData,
} from '#app/components/layout/database-warning'
import { PlainPage } from '#app/components/layout/plain-page'
import { useRootData } from '#app/components/layout/root-data'
import { Button } from '#app/components/ui/button'
import { isTenantErrorData } from '#app/tenancy/tenant-error'
import { rolePaths } from '#app/validation/roles'

export function NotFoundContent() {
  return (
    <main className="mx-auto flex max-w-xl flex-col items-center gap-4 px-4 py-24 text-center">
      <p className="text-6xl font-bold text-brand-text">404</p>
      <h1 className="text-2xl font-semibold">Oops! Page not found</h1>
      <p className="text-gray-600 dark:text-gray-400">
        The page you are looking for might have been removed, had its name changed, or is
        temporarily unavailable.
      </p>
      <Button asChild>
        <Link to="/">Return to Home</Link>
      </Button>
    </main>
  )
}

/** A page of another role's area (or one the account may only read): the tenant's page, no data. */
export function ForbiddenContent() {
  const user = useRootData()?.user
  const home = user ? rolePaths(user.role).dashboard : '/'
  return (
    <main className="mx-auto flex max-w-xl flex-col items-center gap-4 px-4 py-24 text-center">
      <p className="text-6xl font-bold text-brand-text">403</p>
      <h1 className="text-2xl font-semibold">Access denied</h1>
      <p className="text-gray-600 dark:text-gray-400">
        Your account does not have access to this page.
      </p>
      <Button asChild>
        <Link to={home}>{user ? 'Go to your dashboard' : 'Return to Home'}</Link>
      </Button>
    </main>
  )
}

/** What any route shows for an error it has no message of its own for. */
export function AppErrorContent({ error }: { error: unknown }) {
  const location = useLocation()
  // A client navigation whose session ended on the way (requireUser's 401 marker).
  if (isRouteErrorResponse(error) && error.status === 401 && isAuthRequiredData(error.data)) {
    return (
      <AuthIssuePanel path={`${location.pathname}${location.search}`} error={error.data.message} />
    )
  }
  if (isRouteErrorResponse(error) && isTenantErrorData(error.data)) {
    return error.data.tenantError === 'site-unavailable' ? (
      <PlainPage title="Site unavailable">This site is not available at the moment.</PlainPage>
    ) : (
      <PlainPage title="No such site">There is no site at this address.</PlainPage>
    )
  }
  if (isRouteErrorResponse(error) && isDatabaseErrorData(error.data)) {
    return <PlainPage title="Service unavailable">{DATABASE_WARNING}</PlainPage>
  }
  if (isRouteErrorResponse(error) && isDiskFullData(error.data)) {
    return <PlainPage title="Saving is paused">{error.data.error}</PlainPage>
  }
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundContent />
  if (isRouteErrorResponse(error) && error.status === 403) return <ForbiddenContent />
  const detail = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`.trim()
    : error instanceof Error
      ? error.message
      : 'Unknown error'
  return (
    <main className="mx-auto flex max-w-xl flex-col items-center gap-4 px-4 py-24 text-center">
      <h1 className="text-2xl font-semibold">Unexpected Application Error!</h1>
      <p className="text-gray-600 dark:text-gray-400">{detail}</p>
      <Button asChild variant="secondary">
        <Link to="/" reloadDocument>
          Return to Home
        </Link>
      </Button>
    </main>
  )
}
