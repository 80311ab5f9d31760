// The REST API's OpenAPI 3.1 document (ADR 092), made by zod-openapi from the router table and
// the zod schemas that validate the requests: what the document says is what the API checks.
import { z } from 'zod'
import { createDocument, type ZodOpenApiOperationObject } from 'zod-openapi'
import { ProblemSchema } from '#app/validation/api'
import { API_ROUTES } from './api-router.server'

export const API_BASE_PATH = '/api/v1'

const problem = (description: string) => ({
  description,
  content: { 'application/problem+json': { schema: ProblemSchema } },
})

const IDEMPOTENCY_KEY = z.string().min(1).max(255).optional().meta({
  description:
    'Send the same key again (with the same body) to get the first answer instead of a second create; kept 24 hours',
  example: '9f0c1c6e-4b3f-4a53-9d0e-7d1b7d3f2a10',
})

/**
 * The document for an agency: its origin (the servers entry) and its name (the title: the agency's
 * host shows no trace of the platform). The same operations for every agency.
 */
export function openApiDocument(origin: string, agencyName: string) {
  const paths: Record<string, Record<string, ZodOpenApiOperationObject>> = {}
  for (const entry of API_ROUTES) {
    const operation: ZodOpenApiOperationObject = {
      operationId: entry.operationId,
      summary: entry.summary,
      tags: [entry.tag],
      description: `Needs the \`${entry.scope}\` scope.`,
      requestParams: {
        ...(entry.params ? { path: entry.params as z.ZodObject } : {}),
        ...(entry.query ? { query: entry.query as z.ZodObject } : {}),
        ...(entry.create ? { header: z.object({ 'Idempotency-Key': IDEMPOTENCY_KEY }) } : {}),
      },
      ...(entry.body
        ? {
            requestBody: {
              required: true,
              content: { 'application/json': { schema: entry.body } },
            },
          }
        : {}),
      responses: {
        [String(entry.success.status)]: {
          description: entry.success.description,
          ...(entry.success.schema
            ? { content: { 'application/json': { schema: entry.success.schema } } }
            : {}),
        },
        '400': problem('The request is not valid: `errors` names each field'),
        '401': problem('The key is missing, unknown, expired or revoked'),
        '403': problem(`The key lacks the \`${entry.scope}\` scope`),
        ...(entry.params ? { '404': problem('No such resource in this agency') } : {}),
        ...(entry.create
          ? {
              '422': problem(
                'The Idempotency-Key was used with another body, or a value is refused',
              ),
            }
          : {}),
        '429': problem('Too many requests for this key: see Retry-After and RateLimit'),
      },
    }
    paths[entry.path] = { ...paths[entry.path], [entry.method.toLowerCase()]: operation }
  }
  return createDocument({
    openapi: '3.1.0',
    info: {
      title: `${agencyName} REST API`,
      version: '1.0.0',
      description:
        "The agency's cards, contacts and leads, users and teams. Authenticate with `Authorization: Bearer bck_…`, a key an agency admin makes under Dashboard → API. Lists page with `cursor` and `limit`; errors are RFC 9457 problem details; every answer carries the IETF `RateLimit` and `RateLimit-Policy` headers.",
    },
    servers: [{ url: `${origin}${API_BASE_PATH}` }],
    security: [{ bearerAuth: [] }],
    components: {
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', description: 'An API key, `bck_…`' },
      },
    },
    paths,
  })
}
