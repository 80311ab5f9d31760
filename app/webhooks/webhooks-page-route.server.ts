// The agency's Webhooks screen, /dashboard/agency/webhooks (issue 43 point 3, ADR 093): the
// endpoints (added, edited, deleted, turned on again, their secret rotated with an overlap; a new
// secret shown once) and the delivery log with each attempt and "Resend". Agency admins only,
// for reading too: the log names what was sent about the agency's people and leads.
import { type AppLoadContext, data } from '@remix-run/node'
import { intentAction } from '#app/actions/intent-action.server'
import { requireAgencyStaff, type SignedIn } from '#app/auth/guards.server'
import {
  WEBHOOK_EVENT_LABELS,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_LOG_PAGE_SIZE,
  WEBHOOK_ROTATION_HOURS,
  WEBHOOK_ROTATION_LABELS,
  webhookLogQuery,
  webhooksForm,
} from '#app/validation/webhooks'
import { WEBHOOKS_PAGE_PATH } from './webhook-delivery.server'
import {
  createEndpoint,
  deleteEndpoint,
  editEndpoint,
  enableEndpoint,
  listEndpoints,
  readDeliveryLog,
  resendDelivery,
  rotateEndpointSecret,
  type WebhookActor,
} from './webhook-endpoints.server'

const guard = (request: Request, context: AppLoadContext) =>
  requireAgencyStaff(request, context, { manage: true })

const actorOf = (admin: SignedIn): WebhookActor => ({
  organizationId: admin.tenant.id,
  userId: admin.user.id,
})

export async function webhooksPageLoader(request: Request, context: AppLoadContext) {
  const admin = await guard(request, context)
  const url = new URL(request.url)
  const query = webhookLogQuery.parse({
    endpoint: url.searchParams.get('endpoint') ?? undefined,
    page: url.searchParams.get('page') ?? undefined,
  })
  const actor = actorOf(admin)
  const endpoints = await listEndpoints(actor)
  const endpointId = endpoints.some((endpoint) => endpoint.id === query.endpoint)
    ? query.endpoint
    : undefined
  const log = await readDeliveryLog(actor, {
    endpointId,
    limit: WEBHOOK_LOG_PAGE_SIZE,
    offset: (query.page - 1) * WEBHOOK_LOG_PAGE_SIZE,
  })
  return data({
    endpoints,
    eventChoices: WEBHOOK_EVENT_TYPES.map((type) => ({
      value: type,
      label: WEBHOOK_EVENT_LABELS[type],
    })),
    overlapChoices: WEBHOOK_ROTATION_HOURS.map((hours) => ({
      value: String(hours),
      label: WEBHOOK_ROTATION_LABELS[hours],
    })),
    log: {
      endpointId: endpointId ?? null,
      page: query.page,
      pages: Math.max(1, Math.ceil(log.total / WEBHOOK_LOG_PAGE_SIZE)),
      total: log.total,
      deliveries: log.deliveries,
    },
  })
}

export async function webhooksPageAction(request: Request, context: AppLoadContext) {
  return intentAction(request, {
    guard: () => guard(request, context),
    schema: webhooksForm,
    redirectTo: WEBHOOKS_PAGE_PATH,
    intents: {
      // A new secret is answered, not redirected: the page shows it once, and nowhere keeps it.
      'create-endpoint': async (value, admin) => {
        const { secret, endpoint } = await createEndpoint(actorOf(admin), value)
        return {
          reply: { newSecret: { secret, url: endpoint.url } },
          result: { resetForm: true },
        }
      },
      'edit-endpoint': async (value, admin) => {
        await editEndpoint(actorOf(admin), value.endpointId, value)
        return 'Endpoint saved'
      },
      'delete-endpoint': (value, admin) => deleteEndpoint(actorOf(admin), value.endpointId),
      'enable-endpoint': (value, admin) => enableEndpoint(actorOf(admin), value.endpointId),
      'rotate-secret': async (value, admin) => {
        const { secret } = await rotateEndpointSecret(
          actorOf(admin),
          value.endpointId,
          value.overlapHours,
        )
        const endpoint = (await listEndpoints(actorOf(admin))).find(
          (row) => row.id === value.endpointId,
        )
        return { reply: { newSecret: { secret, url: endpoint?.url ?? '' } } }
      },
      resend: (value, admin) => resendDelivery(actorOf(admin), value.deliveryId),
    },
  })
}
