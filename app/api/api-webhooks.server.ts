// Webhook endpoints through the REST API (issue 43 points 2 and 3, ADR 092 and 093): the admin
// screen's functions in the key's transaction, so the API and the screen share every rule and
// refusal (a private target, a missing event). The signing secret is in the create's answer only.

import {
  WebhookEndpointCreatedSchema,
  WebhookEndpointIdParams,
  WebhookEndpointListSchema,
  WebhookEndpointSchema,
  WebhookEndpointWriteSchema,
} from '#app/validation/api'
import { webhookEndpointInput } from '#app/validation/webhooks'
import {
  createEndpointIn,
  deleteEndpointIn,
  editEndpointIn,
  listEndpointsIn,
  readEndpointIn,
  type WebhookEndpointView,
} from '#app/webhooks/webhook-endpoints.server'
import { type ApiCall, auditApiWrite, route } from './api-call.server'
import { ApiProblem } from './problem'

function toApiEndpoint(endpoint: WebhookEndpointView) {
  return {
    id: endpoint.id,
    url: endpoint.url,
    description: endpoint.description,
    event_types: endpoint.eventTypes,
    enabled: endpoint.enabled,
    disabled_reason: endpoint.disabledReason,
    failing_since: endpoint.failingSince,
    last_success_at: endpoint.lastSuccessAt,
    created_at: endpoint.createdAt,
  }
}

/** The body under the screen's own schema: its refusals (a URL, the events) name the field. */
function endpointInput(body: { url: string; description: string; event_types: string[] }) {
  const parsed = webhookEndpointInput.safeParse({
    url: body.url,
    description: body.description,
    eventTypes: body.event_types,
  })
  if (parsed.success) return parsed.data
  const [issue] = parsed.error.issues
  const field = issue?.path[0] === 'eventTypes' ? 'event_types' : String(issue?.path[0] ?? '')
  throw new ApiProblem(422, issue?.message ?? 'The endpoint is not valid', {
    errors: [{ pointer: `/${field}`, detail: issue?.message ?? 'not valid' }],
  })
}

/** An API key acts for the agency: no person is named as the endpoint's creator. */
const actorOf = (call: ApiCall) => ({ organizationId: call.tenant.id, userId: null })

export const WEBHOOK_ROUTES = [
  route({
    method: 'GET',
    path: '/webhooks',
    operationId: 'listWebhookEndpoints',
    summary: "List the agency's webhook endpoints (never their secrets)",
    tag: 'Webhooks',
    scope: 'webhooks:read',
    success: { status: 200, description: 'The endpoints', schema: WebhookEndpointListSchema },
    handle: async (call) => ({
      status: 200,
      body: { data: (await listEndpointsIn(call.tx, call.tenant.id)).map(toApiEndpoint) },
    }),
  }),
  route({
    method: 'POST',
    path: '/webhooks',
    operationId: 'createWebhookEndpoint',
    summary: 'Subscribe an endpoint to event types; the answer holds its signing secret, once',
    tag: 'Webhooks',
    scope: 'webhooks:write',
    body: WebhookEndpointWriteSchema,
    create: true,
    // A replay of this create answers without the secret: it is never kept at rest.
    kept: (body) => ({ ...(body as object), secret: null }),
    success: { status: 201, description: 'The endpoint', schema: WebhookEndpointCreatedSchema },
    handle: async (call, { body }) => {
      const made = await createEndpointIn(call.tx, actorOf(call), endpointInput(body))
      await auditApiWrite(call, 'webhook.created', 'webhook_endpoint', made.endpoint.id)
      return { status: 201, body: { ...toApiEndpoint(made.endpoint), secret: made.secret } }
    },
  }),
  route({
    method: 'GET',
    path: '/webhooks/{endpointId}',
    operationId: 'getWebhookEndpoint',
    summary: 'Read a webhook endpoint',
    tag: 'Webhooks',
    scope: 'webhooks:read',
    params: WebhookEndpointIdParams,
    success: { status: 200, description: 'The endpoint', schema: WebhookEndpointSchema },
    handle: async (call, { params }) => ({
      status: 200,
      body: toApiEndpoint(await readEndpointIn(call.tx, call.tenant.id, params.endpointId)),
    }),
  }),
  route({
    method: 'PATCH',
    path: '/webhooks/{endpointId}',
    operationId: 'updateWebhookEndpoint',
    summary: "Change an endpoint's URL, description or event types",
    tag: 'Webhooks',
    scope: 'webhooks:write',
    params: WebhookEndpointIdParams,
    body: WebhookEndpointWriteSchema,
    success: { status: 200, description: 'The endpoint', schema: WebhookEndpointSchema },
    handle: async (call, { params, body }) => {
      const endpoint = await editEndpointIn(
        call.tx,
        actorOf(call),
        params.endpointId,
        endpointInput(body),
      )
      await auditApiWrite(call, 'webhook.updated', 'webhook_endpoint', endpoint.id)
      return { status: 200, body: toApiEndpoint(endpoint) }
    },
  }),
  route({
    method: 'DELETE',
    path: '/webhooks/{endpointId}',
    operationId: 'deleteWebhookEndpoint',
    summary: 'Delete an endpoint with its deliveries and their log',
    tag: 'Webhooks',
    scope: 'webhooks:write',
    params: WebhookEndpointIdParams,
    success: { status: 204, description: 'Deleted' },
    handle: async (call, { params }) => {
      await deleteEndpointIn(call.tx, actorOf(call), params.endpointId)
      await auditApiWrite(call, 'webhook.deleted', 'webhook_endpoint', params.endpointId)
      return { status: 204 }
    },
  }),
]
