// The spec's client-side guard (§2 'Authentication guard wrapper', §9 'Auth guard wait 3 s').
// The server stays the guard: a document request without a session is redirected to sign in.
// What remains for the browser is a client navigation: while its data loads the page says so,
// and when the session ended meanwhile (a 401 marker, app/auth/auth-required.ts) or the wait
// runs past 3 s, it offers a way out instead of a frozen page.
import { type Location, useLocation, useNavigation } from '@remix-run/react'
import { ShieldAlert } from 'lucide-react'
import { type ReactNode, useEffect, useState } from 'react'
import { loginPathFor } from '#app/auth/auth-required'
import { Button } from '#app/components/ui/button'
import { VISITOR_PAGE_PATH } from '#app/utils/visitor-page'

/** Fast navigations show nothing, so the page does not flash. */
const GUARD_DELAY_MS = 400
/** Spec §9: after 3 s of waiting the guard offers its way out. */
const AUTH_WAIT_MS = 3000

/**
 * Browser storage keys of this app (spec §9: kept under a product-specific name). Neutral, not
 * the platform's name: an agency's visitors can read their storage (issue 17, no trace).
 */
const STORAGE_PREFIX = 'card-app'

const PROTECTED = /^\/(profile|dashboard|qrcode|contacts|onboarding|api-settings|settings)(\/|$)/
const PROFILE = /^\/profile(\/|$)/

type Pending =
  | { kind: 'protected'; path: string; text: string | null }
  | { kind: 'contact'; path: string }
  | { kind: 'redirect'; path: string }

/** What the pending navigation is, if it is one the guard speaks for. */
function pendingOf(target: Location | undefined, current: Location, signedIn: boolean) {
  // Only a move to another page: tab and search changes keep their own in-page feedback.
  if (!target || target.pathname === current.pathname) return null
  const path = `${target.pathname}${target.search}`
  // The router marks the location of a redirect it follows (react-router's `_isRedirect`).
  const redirected = Boolean((target.state as { _isRedirect?: boolean } | null)?._isRedirect)
  if (target.pathname === '/auth/login' && redirected) return { kind: 'redirect', path } as const
  if (VISITOR_PAGE_PATH.test(target.pathname)) return { kind: 'contact', path } as const
  if (PROFILE.test(target.pathname) || (target.pathname === '/' && signedIn)) {
    return { kind: 'protected', path, text: 'Loading your profile...' } as const
  }
  if (PROTECTED.test(target.pathname)) return { kind: 'protected', path, text: null } as const
  return null
}

/**
 * Wraps the page: while a client navigation to a guarded page is still loading, shows its
 * loading texts after a short delay and, after 3 s, the 'Authentication Issue Detected' panel.
 */
export function NavigationGuard({
  signedIn,
  children,
}: {
  signedIn: boolean
  children: ReactNode
}) {
  const navigation = useNavigation()
  const location = useLocation()
  const pending: Pending | null =
    navigation.state === 'loading' ? pendingOf(navigation.location, location, signedIn) : null
  const key = pending ? `${navigation.location?.key}:${pending.kind}` : null
  const [phase, setPhase] = useState<'hidden' | 'loading' | 'stuck'>('hidden')

  useEffect(() => {
    setPhase('hidden')
    if (!key) return
    const shown = setTimeout(() => setPhase('loading'), GUARD_DELAY_MS)
    const stuck = setTimeout(() => setPhase('stuck'), AUTH_WAIT_MS)
    return () => {
      clearTimeout(shown)
      clearTimeout(stuck)
    }
  }, [key])

  if (!pending || phase === 'hidden') return children
  if (pending.kind === 'protected' && phase === 'stuck') {
    return <AuthIssuePanel path={pending.path} />
  }
  if (pending.kind === 'redirect') return <LoadingState lines={['Redirecting to login...']} />
  if (pending.kind === 'contact') return <LoadingState lines={['Loading contact information...']} />
  return (
    <LoadingState
      lines={
        pending.text ? ['Checking authentication...', pending.text] : ['Checking authentication...']
      }
    />
  )
}

function LoadingState({ lines }: { lines: string[] }) {
  return (
    <main className="mx-auto flex max-w-4xl flex-col gap-6 px-4 py-10" aria-busy="true">
      <div
        role="status"
        aria-live="polite"
        className="flex flex-col gap-1"
        data-testid="guard-status"
      >
        {lines.map((line, index) => (
          <p
            key={line}
            className={index === 0 ? 'font-medium' : 'text-sm text-gray-600 dark:text-gray-400'}
          >
            {line}
          </p>
        ))}
      </div>
      <div aria-hidden className="flex animate-pulse flex-col gap-4">
        <div className="h-8 w-1/3 rounded-md bg-gray-200 dark:bg-gray-800" />
        <div className="h-4 w-2/3 rounded-md bg-gray-200 dark:bg-gray-800" />
        <div className="h-40 rounded-xl bg-gray-200 dark:bg-gray-800" />
      </div>
    </main>
  )
}

/** Removes what this app keeps in the browser, so nothing of the old session survives. */
function clearStoredSession() {
  for (const storage of [window.localStorage, window.sessionStorage]) {
    const keys = Array.from({ length: storage.length }, (_, index) => storage.key(index))
    for (const key of keys) {
      if (key?.toLowerCase().startsWith(STORAGE_PREFIX)) storage.removeItem(key)
    }
  }
}

/**
 * Spec §2: 'Authentication Issue Detected' with 'Refresh Page', 'Go to Login' and 'Force Sign
 * Out & Clear Session'. `path` is the page the user was on its way to.
 */
export function AuthIssuePanel({ path, error }: { path: string; error?: string }) {
  function refresh() {
    const here = `${window.location.pathname}${window.location.search}`
    if (here === path) window.location.reload()
    else window.location.assign(path)
  }
  return (
    <main className="mx-auto flex max-w-xl flex-col items-center gap-4 px-4 py-20 text-center">
      <div role="alert" className="flex flex-col items-center gap-3">
        <ShieldAlert aria-hidden className="h-10 w-10 text-amber-600" />
        <h1 className="text-2xl font-semibold">Authentication Issue Detected</h1>
        <p className="text-gray-600 dark:text-gray-400" data-testid="auth-issue-detail">
          {error
            ? `Authentication error: ${error}`
            : 'We could not confirm that you are signed in. Your session may have ended or the connection is slow.'}
        </p>
      </div>
      <div className="flex flex-wrap justify-center gap-3">
        <Button type="button" variant="secondary" onClick={refresh}>
          Refresh Page
        </Button>
        <Button asChild>
          {/* A full page load: the sign-in page clears a stale session cookie on the server. */}
          <a href={loginPathFor(path)}>Go to Login</a>
        </Button>
        {/* A native form (works before hydration too): the server deletes the session row and
            clears the cookie, then sends the browser to the sign-in page. */}
        <form method="post" action="/auth/logout" onSubmit={clearStoredSession}>
          <Button type="submit" variant="danger">
            Force Sign Out &amp; Clear Session
          </Button>
        </form>
      </div>
    </main>
  )
}
