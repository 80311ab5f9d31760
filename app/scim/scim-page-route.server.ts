// The agency's Directory Sync screen, /dashboard/agency/scim (issue 42 point 2, ADR 089): the
// SCIM base URL, the tokens (made, rotated with an overlap, revoked; a new one shown once), the
// role new people get, and the provisioning log. Agency admins only, for reading too: the log
// holds what the directory sent about everyone.
import { type AppLoadContext, data } from '@remix-run/node'
import { intentAction } from '#app/actions/intent-action.server'
import { requireAgencyStaff } from '#app/auth/guards.server'
import { countScimEvents, listScimEvents, listScimTokens } from '#app/models/scim.server'
import { roleLabel } from '#app/validation/roles'
import {
  DIRECTORY_CARD_FIELD_LABELS,
  DIRECTORY_CARD_FIELDS,
  ROTATION_GRACE_HOURS,
  ROTATION_GRACE_LABELS,
  SCIM_LOG_PAGE_SIZE,
  SCIM_ROLE_CHOICES,
  scimLogQuery,
  scimSettingsForm,
} from '#app/validation/scim'
import { withTenant } from '#drizzle/db.server'
import { readMappedCardFields, setMappedCardFields } from './directory-cards.server'
import { scimBaseUrl } from './scim-route.server'
import { readScimDefaultRole, setScimDefaultRole } from './scim-settings.server'
import {
  createScimToken,
  describeToken,
  revokeScimToken,
  rotateScimToken,
} from './scim-tokens.server'

export const SCIM_PAGE_PATH = '/dashboard/agency/scim'

const guard = (request: Request, context: AppLoadContext) =>
  requireAgencyStaff(request, context, { manage: true })

export async function scimPageLoader(request: Request, context: AppLoadContext) {
  const admin = await guard(request, context)
  const url = new URL(request.url)
  const query = scimLogQuery.parse({
    status: url.searchParams.get('status') ?? undefined,
    page: url.searchParams.get('page') ?? undefined,
  })
  const organizationId = admin.tenant.id
  const page = await withTenant(organizationId, async (tx) => ({
    tokens: await listScimTokens(tx, organizationId),
    role: await readScimDefaultRole(tx, organizationId),
    cardFields: await readMappedCardFields(tx, organizationId),
    total: await countScimEvents(tx, organizationId, query.status),
    events: await listScimEvents(tx, organizationId, {
      status: query.status,
      limit: SCIM_LOG_PAGE_SIZE,
      offset: (query.page - 1) * SCIM_LOG_PAGE_SIZE,
    }),
  }))
  const tokenNames = new Map(page.tokens.map((token) => [token.id, token.name]))
  return data({
    baseUrl: scimBaseUrl(admin.tenant),
    tokens: page.tokens.map((token) => describeToken(token)),
    role: page.role,
    cardFields: page.cardFields,
    cardFieldChoices: DIRECTORY_CARD_FIELDS.map((field) => ({
      value: field,
      label: DIRECTORY_CARD_FIELD_LABELS[field],
    })),
    roleChoices: SCIM_ROLE_CHOICES.map((role) => ({ value: role, label: roleLabel(role) })),
    graceChoices: ROTATION_GRACE_HOURS.map((hours) => ({
      value: String(hours),
      label: ROTATION_GRACE_LABELS[hours],
    })),
    log: {
      status: query.status,
      page: query.page,
      pages: Math.max(1, Math.ceil(page.total / SCIM_LOG_PAGE_SIZE)),
      total: page.total,
      events: page.events.map((event) => ({
        id: event.id,
        at: event.createdAt.toISOString(),
        method: event.method,
        path: event.path,
        status: event.status,
        resourceType: event.resourceType,
        resourceId: event.resourceId,
        token: event.tokenId ? (tokenNames.get(event.tokenId) ?? 'A deleted token') : null,
        request: event.request === null ? null : JSON.stringify(event.request, null, 2),
        changes: Object.keys(event.changes).length ? JSON.stringify(event.changes, null, 2) : null,
        error: event.error,
      })),
    },
  })
}

export async function scimPageAction(request: Request, context: AppLoadContext) {
  return intentAction(request, {
    guard: () => guard(request, context),
    schema: scimSettingsForm,
    redirectTo: SCIM_PAGE_PATH,
    intents: {
      // A new token is answered, not redirected: the page shows it once, and nowhere keeps it.
      'create-token': async (value, admin) => ({
        reply: { newToken: await createScimToken(admin, value.name) },
        result: { resetForm: true },
      }),
      'rotate-token': async (value, admin) => ({
        reply: { newToken: await rotateScimToken(admin, value.tokenId, value.graceHours) },
      }),
      'revoke-token': (value, admin) => revokeScimToken(admin, value.tokenId),
      'set-role': (value, admin) => setScimDefaultRole(admin, value.role),
      'set-card-fields': (value, admin) => setMappedCardFields(admin, value.fields),
    },
  })
}
