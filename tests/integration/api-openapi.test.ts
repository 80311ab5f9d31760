// The OpenAPI 3.1 document of the REST API (issue 43, ADR 092): it validates against the
// OpenAPI 3.1 schema (offline), it names exactly the operations of the router table, and it is
// served at /api/v1/openapi.json of an agency host without a key.
import { Validator } from '@seriousme/openapi-schema-validator'
import { expect, test } from 'vitest'
import { API_ROUTES } from '#app/api/api-router.server'
import { openApiDocument } from '#app/api/openapi.server'
import { loader } from '#app/routes/api.v1.$'
import { contextFor, makeOrganization } from '#tests/factories'

const document = () => openApiDocument('http://acme.localhost:3000', 'Acme Cards')

test('the document is a valid OpenAPI 3.1 document', async () => {
  const doc = document()
  expect(doc.openapi).toBe('3.1.0')
  const result = await new Validator().validate(
    doc as unknown as Parameters<Validator['validate']>[0],
  )
  expect(result.errors ?? []).toEqual([])
  expect(result.valid).toBe(true)
})

test('every operation of the router is in the document, and the other way round', () => {
  const inRouter = API_ROUTES.map((entry) => `${entry.method} ${entry.path}`).sort()
  const inDocument = Object.entries(document().paths ?? {})
    .flatMap(([path, item]) =>
      Object.keys(item ?? {})
        .filter((method) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
        .map((method) => `${method.toUpperCase()} ${path}`),
    )
    .sort()
  expect(inDocument).toEqual(inRouter)
  // Each operation says its scope, and every create takes an Idempotency-Key.
  for (const entry of API_ROUTES) {
    const paths = (document().paths ?? {}) as Record<
      string,
      Record<string, Record<string, unknown>>
    >
    const operation = paths[entry.path]?.[entry.method.toLowerCase()]
    expect(operation?.description, entry.operationId).toContain(entry.scope)
    const headers = ((operation?.parameters ?? []) as { in: string; name: string }[]).filter(
      (parameter) => parameter.in === 'header',
    )
    expect(headers.map((h) => h.name)).toEqual(entry.create ? ['Idempotency-Key'] : [])
  }
})

test('the operations are unique and their ids too', () => {
  const keys = API_ROUTES.map((entry) => `${entry.method} ${entry.path}`)
  expect(new Set(keys).size).toBe(keys.length)
  const ids = API_ROUTES.map((entry) => entry.operationId)
  expect(new Set(ids).size).toBe(ids.length)
})

test("/api/v1/openapi.json serves the agency's document without a key", async () => {
  const agency = await makeOrganization({ name: 'Doc Agency' })
  const host = `${agency.slug}.localhost`
  const response = (await loader({
    request: new Request(`http://${host}/api/v1/openapi.json`),
    context: contextFor(host),
    params: {},
  })) as Response
  expect(response.status).toBe(200)
  expect(response.headers.get('content-type')).toBe('application/json')
  const served = (await response.json()) as { servers: { url: string }[]; paths: object }
  expect(served.servers[0]?.url).toMatch(new RegExp(`${agency.slug}\\.localhost.*/api/v1$`))
  expect(Object.keys(served.paths)).toEqual(Object.keys(document().paths ?? {}))
  // White label: the agency's name, never the platform's.
  expect((served as unknown as { info: { title: string } }).info.title).toBe('Doc Agency REST API')
})
