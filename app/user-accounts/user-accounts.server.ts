// The User Accounts tab's data (roles doc §2.5). A super admin on the platform's own host reads
// every tenant through the audited platform scope (ADR 004); a super admin elsewhere or an agency
// admin reads their own organization through withTenant; anyone else gets the restriction and
// no rows, whatever the URL asks for.
import type { AppLoadContext } from '@remix-run/node'
import { getPlatformScope } from '#app/auth/guards.server'
import {
  countUserAccountsForOrganization,
  countUserAccountsForPlatform,
  listUserAccountsForOrganization,
  listUserAccountsForPlatform,
  type UserAccountListRow,
} from '#app/models/users.server'
import { readSearch } from '#app/validation/search'
import { withPlatformScope, withTenant } from '#drizzle/db.server'
import {
  ACCESS_RESTRICTED_MESSAGE,
  ALL_ACCOUNTS_TEXT,
  displayName,
  initialsOf,
  LOAD_FAILED_MESSAGE,
  ORGANIZATION_ACCOUNTS_TEXT,
  USER_ACCOUNTS_PAGE_SIZE,
  USER_ACCOUNTS_ROLES,
  USER_ACCOUNTS_TAB,
  type UserAccount,
  type UserAccountsData,
  UserAccountsSearchSchema,
} from './user-accounts'

/** Whether the request asks for the tab at all: other tabs pay nothing for it. */
export function wantsUserAccounts(request: Request) {
  return new URL(request.url).searchParams.get('tab') === USER_ACCOUNTS_TAB
}

function toAccount(row: UserAccountListRow, tenantId: string): UserAccount {
  // Media is served per tenant host, so another tenant's picture would not load here: those
  // accounts show their initials.
  const pictureUrl =
    row.pictureHash && row.organizationId === tenantId
      ? `/media/${row.pictureHash}.${row.pictureExt}`
      : null
  return {
    id: row.id,
    name: displayName(row.firstName, row.lastName),
    email: row.email,
    role: row.role,
    organizationName: row.organizationName,
    pictureUrl,
    initials: initialsOf(row.firstName, row.lastName, row.email),
  }
}

type Reader = {
  count(search: string): Promise<number>
  list(search: string, page: { limit: number; offset: number }): Promise<UserAccountListRow[]>
}

export async function loadUserAccounts(
  request: Request,
  context: AppLoadContext,
): Promise<UserAccountsData> {
  const { tenant, user, platformScope } = await getPlatformScope(request, context)
  if (!user || !USER_ACCOUNTS_ROLES.includes(user.role)) {
    return { status: 'restricted', message: ACCESS_RESTRICTED_MESSAGE }
  }
  const params = new URL(request.url).searchParams
  const { q, searchError } = readSearch(params)
  const { page: requestedPage } = UserAccountsSearchSchema.parse({
    page: params.get('page') ?? undefined,
  })
  const scope = platformScope ? 'platform' : 'organization'
  const heading = platformScope ? ALL_ACCOUNTS_TEXT : ORGANIZATION_ACCOUNTS_TEXT
  if (searchError) {
    return {
      status: 'ok',
      scope,
      heading,
      q,
      searchError,
      page: 1,
      pageCount: 1,
      total: 0,
      accounts: [],
    }
  }
  const read = async (reader: Reader) => {
    const total = await reader.count(q)
    const pageCount = Math.max(1, Math.ceil(total / USER_ACCOUNTS_PAGE_SIZE))
    // A page past the end (accounts deleted since the link was made) shows the last one.
    const page = Math.min(requestedPage, pageCount)
    const rows = await reader.list(q, {
      limit: USER_ACCOUNTS_PAGE_SIZE,
      offset: (page - 1) * USER_ACCOUNTS_PAGE_SIZE,
    })
    return { total, pageCount, page, rows }
  }
  try {
    const result = platformScope
      ? await withPlatformScope(platformScope, 'user accounts tab', (tx) =>
          read({
            count: (search) => countUserAccountsForPlatform(tx, search),
            list: (search, page) => listUserAccountsForPlatform(tx, search, page),
          }),
        )
      : await withTenant(tenant.id, (tx) =>
          read({
            count: (search) => countUserAccountsForOrganization(tx, tenant.id, search),
            list: (search, page) => listUserAccountsForOrganization(tx, tenant.id, search, page),
          }),
        )
    return {
      status: 'ok',
      scope,
      heading,
      q,
      searchError: null,
      page: result.page,
      pageCount: result.pageCount,
      total: result.total,
      accounts: result.rows.map((row) => toAccount(row, tenant.id)),
    }
  } catch (error) {
    // The rest of the profile still works: the tab says the list failed and offers Try Again.
    console.error('user accounts could not be loaded', error)
    return { status: 'error', message: LOAD_FAILED_MESSAGE }
  }
}
