// The User Accounts tab (roles doc §2.5). Search and pages are plain GET links and forms on the
// profile URL, so they work without JavaScript; with it, the list shows skeletons while the next
// page or search loads.
import { getFormProps } from '@conform-to/react'
import { Form, Link, useLocation, useNavigation } from '@remix-run/react'
import { AlertTriangle, ChevronLeft, ChevronRight, ShieldAlert, Users } from 'lucide-react'
import { useEffect } from 'react'
import { useSearchForm } from '#app/components/forms'
import { Button } from '#app/components/ui/button'
import { EmptyState } from '#app/components/ui/empty-state'
import { Panel } from '#app/components/ui/panel'
import { SearchInput } from '#app/components/ui/search-box'
import { toast } from '#app/components/ui/toasts'
import {
  accountsHref,
  LOAD_FAILED_TOAST,
  ROLE_BADGES,
  USER_ACCOUNTS_PAGE_SIZE,
  USER_ACCOUNTS_TAB,
  type UserAccount,
  type UserAccountsData,
} from '#app/user-accounts/user-accounts'
import { cn } from '#app/utils/cn'

const TITLE = 'User Accounts'

/** True while the browser loads another search or page of this tab. */
function useLoadingAccounts() {
  const navigation = useNavigation()
  const location = useLocation()
  const next = navigation.location
  if (navigation.state !== 'loading' || !next || next.pathname !== location.pathname) return false
  return new URLSearchParams(next.search).get('tab') === USER_ACCOUNTS_TAB
}

export function UserAccountsPanel({ data }: { data: UserAccountsData | null }) {
  const loading = useLoadingAccounts()
  const location = useLocation()
  const failed = data?.status === 'error'
  useEffect(() => {
    if (failed) toast.error(LOAD_FAILED_TOAST)
  }, [failed])

  if (!data) {
    // The tab was opened without its data (switched to in the browser): it is on its way.
    return (
      <Panel title={TITLE}>
        <AccountsSkeleton />
      </Panel>
    )
  }
  if (data.status === 'restricted') {
    return (
      <Panel title={TITLE}>
        <div
          role="alert"
          className="flex items-start gap-3 rounded-lg border border-amber-300 bg-amber-50 p-4 text-sm text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100"
        >
          <ShieldAlert aria-hidden className="mt-0.5 h-5 w-5 shrink-0" />
          <p data-testid="user-accounts-restricted">{data.message}</p>
        </div>
      </Panel>
    )
  }
  if (data.status === 'error') {
    return (
      <Panel title={TITLE}>
        <div
          role="alert"
          className="flex flex-col items-center gap-3 rounded-lg border border-red-300 bg-red-50 p-6 text-center text-sm text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100"
        >
          <AlertTriangle aria-hidden className="h-6 w-6" />
          <p>{data.message}</p>
          <Button asChild variant="secondary" size="sm">
            {/* The same URL again: the loader runs anew, with or without JavaScript. */}
            <Link to={`${location.pathname}${location.search}`} preventScrollReset>
              Try Again
            </Link>
          </Button>
        </div>
      </Panel>
    )
  }

  const first = (data.page - 1) * USER_ACCOUNTS_PAGE_SIZE + 1
  const last = first + data.accounts.length - 1
  return (
    <Panel title={TITLE} description={data.heading}>
      <SearchForm q={data.q} error={data.searchError} busy={loading} />
      <div aria-busy={loading} className="flex flex-col gap-4">
        {loading ? (
          <AccountsSkeleton />
        ) : data.accounts.length === 0 ? (
          data.searchError ? null : (
            <NoAccounts q={data.q} />
          )
        ) : (
          <>
            <p
              className="text-sm text-gray-600 dark:text-gray-400"
              data-testid="user-accounts-range"
            >
              Showing {first}–{last} of {data.total} {data.total === 1 ? 'account' : 'accounts'}
            </p>
            <ul
              aria-label="User accounts"
              className="flex flex-col divide-y divide-gray-200 dark:divide-gray-800"
            >
              {data.accounts.map((account) => (
                <AccountRow key={account.id} account={account} />
              ))}
            </ul>
          </>
        )}
      </div>
      {data.pageCount > 1 ? (
        <Pagination q={data.q} page={data.page} pageCount={data.pageCount} />
      ) : null}
    </Panel>
  )
}

function SearchForm({ q, error, busy }: { q: string; error: string | null; busy: boolean }) {
  const [form, fields] = useSearchForm('user-accounts-search', q, error)
  return (
    <Form
      method="get"
      role="search"
      preventScrollReset
      className="flex flex-col gap-1"
      {...getFormProps(form)}
    >
      <input type="hidden" name="tab" value={USER_ACCOUNTS_TAB} />
      <label htmlFor={fields.q.id} className="text-sm font-medium">
        Search by name or email
      </label>
      <SearchInput
        field={fields.q}
        busy={busy}
        className="h-10 min-w-0 flex-1 rounded-md border border-gray-300 px-3 text-sm dark:border-gray-700 dark:bg-gray-900"
      />
    </Form>
  )
}

function AccountRow({ account }: { account: UserAccount }) {
  const badge = ROLE_BADGES[account.role]
  return (
    <li className="flex items-center gap-3 py-3" data-testid="user-account-row">
      <Avatar account={account} />
      <div className="flex min-w-0 flex-1 flex-col gap-0.5">
        <span className="truncate text-sm font-medium">{account.name ?? 'Unnamed User'}</span>
        <span className="truncate text-sm text-gray-600 dark:text-gray-400">{account.email}</span>
        <span className="truncate text-xs text-gray-600 dark:text-gray-400">
          {account.organizationName ?? 'No organization'}
        </span>
      </div>
      <span
        className={cn(
          'shrink-0 rounded-full px-2.5 py-0.5 text-xs font-medium',
          badge?.className ?? 'bg-gray-100 text-gray-800',
        )}
        data-testid="user-account-role"
      >
        {badge?.label ?? account.role}
      </span>
    </li>
  )
}

function Avatar({ account }: { account: UserAccount }) {
  if (account.pictureUrl) {
    return (
      <img
        src={account.pictureUrl}
        alt=""
        width={40}
        height={40}
        loading="lazy"
        className="h-10 w-10 shrink-0 rounded-full object-cover"
      />
    )
  }
  return (
    <span
      aria-hidden
      className="flex h-10 w-10 shrink-0 items-center justify-center rounded-full bg-gray-200 text-sm font-semibold text-gray-800 dark:bg-gray-700 dark:text-gray-100"
    >
      {account.initials}
    </span>
  )
}

function NoAccounts({ q }: { q: string }) {
  return (
    <EmptyState
      icon={Users}
      title={q ? 'No user accounts match your search' : 'No user accounts found'}
      action={
        <Button asChild variant="secondary" size="sm">
          <Link to={accountsHref(q, 1)} preventScrollReset>
            Refresh
          </Link>
        </Button>
      }
    >
      <p>This can happen when:</p>
      <ul className="mt-1 list-inside list-disc text-left">
        <li>there are no accounts{q ? ' matching this search' : ' yet'},</li>
        <li>your role does not permit you to see them, or</li>
        <li>the database could not be reached.</li>
      </ul>
    </EmptyState>
  )
}

function Pagination({ q, page, pageCount }: { q: string; page: number; pageCount: number }) {
  const pages = pageNumbers(page, pageCount)
  const linkClass =
    'inline-flex h-9 min-w-9 items-center justify-center gap-1 rounded-md border border-gray-300 px-3 text-sm hover:bg-gray-50 dark:border-gray-700 dark:hover:bg-gray-800'
  return (
    <nav aria-label="User accounts pages" className="flex flex-wrap items-center gap-2">
      {page > 1 ? (
        <Link to={accountsHref(q, page - 1)} preventScrollReset className={linkClass}>
          <ChevronLeft aria-hidden className="h-4 w-4" /> Previous
        </Link>
      ) : null}
      {pages.map((number, index) =>
        number === null ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: the gaps have no identity of their own
          <span key={`gap-${index}`} aria-hidden className="px-1 text-gray-500 dark:text-gray-400">
            …
          </span>
        ) : (
          <Link
            key={number}
            to={accountsHref(q, number)}
            preventScrollReset
            aria-current={number === page ? 'page' : undefined}
            aria-label={`Page ${number}`}
            className={cn(
              linkClass,
              number === page && 'border-brand bg-brand text-brand-foreground hover:bg-brand',
            )}
          >
            {number}
          </Link>
        ),
      )}
      {page < pageCount ? (
        <Link to={accountsHref(q, page + 1)} preventScrollReset className={linkClass}>
          Next <ChevronRight aria-hidden className="h-4 w-4" />
        </Link>
      ) : null}
    </nav>
  )
}

/** First, last and the pages around the current one; null marks a gap. */
function pageNumbers(page: number, pageCount: number): (number | null)[] {
  const shown = new Set([1, pageCount, page - 1, page, page + 1])
  const numbers = [...shown].filter((n) => n >= 1 && n <= pageCount).sort((a, b) => a - b)
  const result: (number | null)[] = []
  for (const n of numbers) {
    const previous = result.at(-1)
    if (typeof previous === 'number' && n - previous > 1) result.push(null)
    result.push(n)
  }
  return result
}

function AccountsSkeleton() {
  return (
    <div data-testid="user-accounts-skeleton" className="flex flex-col gap-3">
      <span className="sr-only" role="status">
        Loading user accounts…
      </span>
      <ul aria-hidden className="flex animate-pulse flex-col gap-4">
        {[0, 1, 2, 3, 4].map((row) => (
          <li key={row} className="flex items-center gap-3">
            <div className="h-10 w-10 rounded-full bg-gray-200 dark:bg-gray-800" />
            <div className="flex flex-1 flex-col gap-2">
              <div className="h-3 w-1/3 rounded bg-gray-200 dark:bg-gray-800" />
              <div className="h-3 w-1/2 rounded bg-gray-200 dark:bg-gray-800" />
            </div>
            <div className="h-5 w-20 rounded-full bg-gray-200 dark:bg-gray-800" />
          </li>
        ))}
      </ul>
    </div>
  )
}
