// The REST API's reference (issue 43, ADR 092), laid out from the OpenAPI document the API serves:
// each operation with its parameters, body and answers, then each schema with its fields. Served
// by this app alone (nothing from another address); lists rather than tables, so it fits 375 px.
import { Link } from '@remix-run/react'
import { PageHeader } from '#app/components/people/people-ui'
import { Button } from '#app/components/ui/button'
import { Panel } from '#app/components/ui/panel'

type Schema = {
  $ref?: string
  type?: string | string[]
  description?: string
  format?: string
  example?: unknown
  enum?: unknown[]
  items?: Schema
  properties?: Record<string, Schema>
  required?: string[]
  anyOf?: Schema[]
}
type Parameter = {
  name: string
  in: string
  required?: boolean
  description?: string
  schema?: Schema
}
type Operation = {
  operationId: string
  summary?: string
  description?: string
  tags?: string[]
  parameters?: Parameter[]
  requestBody?: { content: Record<string, { schema: Schema }> }
  responses: Record<string, { description: string; content?: Record<string, { schema: Schema }> }>
}
export type OpenApiDocument = {
  info: { title: string; description?: string }
  servers?: { url: string }[]
  paths: Record<string, Record<string, Operation>>
  components?: { schemas?: Record<string, Schema> }
}

const refName = (ref: string) => ref.split('/').at(-1) ?? ref

function typeOf(schema: Schema | undefined): string {
  if (!schema) return 'any'
  if (schema.$ref) return refName(schema.$ref)
  if (schema.anyOf) return schema.anyOf.map(typeOf).join(' or ')
  if (schema.enum) return schema.enum.map((value) => JSON.stringify(value)).join(' | ')
  if (schema.type === 'array') return `${typeOf(schema.items)}[]`
  const type = Array.isArray(schema.type) ? schema.type.join(' or ') : (schema.type ?? 'object')
  return schema.format ? `${type} (${schema.format})` : type
}

const METHOD_STYLE: Record<string, string> = {
  get: 'bg-blue-100 text-blue-900 dark:bg-blue-950 dark:text-blue-100',
  post: 'bg-green-100 text-green-900 dark:bg-green-950 dark:text-green-100',
  patch: 'bg-amber-100 text-amber-950 dark:bg-amber-950 dark:text-amber-50',
  delete: 'bg-red-100 text-red-900 dark:bg-red-950 dark:text-red-100',
}

function SchemaLink({ schema }: { schema: Schema | undefined }) {
  const name = typeOf(schema)
  const ref = schema?.$ref ?? schema?.items?.$ref
  return ref ? (
    <a className="font-mono underline" href={`#schema-${refName(ref)}`}>
      {name}
    </a>
  ) : (
    <span className="font-mono">{name}</span>
  )
}

function OperationEntry({
  method,
  path,
  operation,
}: {
  method: string
  path: string
  operation: Operation
}) {
  const body = operation.requestBody?.content['application/json']?.schema
  return (
    <section
      aria-labelledby={`op-${operation.operationId}`}
      className="flex flex-col gap-3 rounded-lg border border-gray-200 p-4 dark:border-gray-800"
    >
      <h3 id={`op-${operation.operationId}`} className="flex flex-wrap items-center gap-2">
        <span
          className={`rounded px-2 py-0.5 font-mono text-xs font-semibold uppercase ${METHOD_STYLE[method] ?? ''}`}
        >
          {method}
        </span>
        <code className="text-sm font-semibold [overflow-wrap:anywhere]">{path}</code>
      </h3>
      <p className="text-sm">{operation.summary}</p>
      {operation.description ? (
        <p className="text-sm text-gray-600 dark:text-gray-400">{operation.description}</p>
      ) : null}
      {operation.parameters?.length ? (
        <div>
          <h4 className="text-sm font-medium">Parameters</h4>
          <dl className="mt-1 flex flex-col gap-2 text-sm">
            {operation.parameters.map((parameter) => (
              <div key={`${parameter.in}-${parameter.name}`}>
                <dt className="font-mono [overflow-wrap:anywhere]">
                  {parameter.name}{' '}
                  <span className="font-sans text-xs text-gray-600 dark:text-gray-400">
                    ({parameter.in}
                    {parameter.required ? ', required' : ''}){' '}
                    <SchemaLink schema={parameter.schema} />
                  </span>
                </dt>
                {(parameter.description ?? parameter.schema?.description) ? (
                  <dd className="text-gray-600 dark:text-gray-400">
                    {parameter.description ?? parameter.schema?.description}
                  </dd>
                ) : null}
              </div>
            ))}
          </dl>
        </div>
      ) : null}
      {body ? (
        <p className="text-sm">
          <span className="font-medium">Body (JSON): </span>
          <SchemaLink schema={body} />
        </p>
      ) : null}
      <div>
        <h4 className="text-sm font-medium">Answers</h4>
        <ul className="mt-1 flex flex-col gap-1 text-sm">
          {Object.entries(operation.responses).map(([status, response]) => {
            const content = response.content && Object.values(response.content)[0]
            return (
              <li key={status}>
                <span className="font-mono">{status}</span> {response.description}
                {content ? (
                  <>
                    {' — '}
                    <SchemaLink schema={content.schema} />
                  </>
                ) : null}
              </li>
            )
          })}
        </ul>
      </div>
    </section>
  )
}

function SchemaEntry({ name, schema }: { name: string; schema: Schema }) {
  const properties = Object.entries(schema.properties ?? {})
  return (
    <section
      id={`schema-${name}`}
      aria-labelledby={`schema-${name}-title`}
      className="flex flex-col gap-2 rounded-lg border border-gray-200 p-4 dark:border-gray-800"
    >
      <h3 id={`schema-${name}-title`} className="font-mono text-sm font-semibold">
        {name}
      </h3>
      {schema.description ? <p className="text-sm">{schema.description}</p> : null}
      <dl className="flex flex-col gap-2 text-sm">
        {properties.map(([field, value]) => (
          <div key={field}>
            <dt className="font-mono [overflow-wrap:anywhere]">
              {field}
              {schema.required?.includes(field) ? '' : '?'}:{' '}
              <span className="text-gray-600 dark:text-gray-400">
                <SchemaLink schema={value} />
              </span>
            </dt>
            {value.description || value.example !== undefined ? (
              <dd className="text-gray-600 dark:text-gray-400 [overflow-wrap:anywhere]">
                {value.description}
                {value.example !== undefined ? ` Example: ${JSON.stringify(value.example)}` : ''}
              </dd>
            ) : null}
          </div>
        ))}
      </dl>
    </section>
  )
}

export function ApiReferencePage({ document }: { document: OpenApiDocument }) {
  const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ path, method, operation })),
  )
  const tags = [...new Set(operations.map((entry) => entry.operation.tags?.[0] ?? 'Other'))]
  const server = document.servers?.[0]?.url ?? ''
  return (
    <div className="flex flex-col gap-6">
      <PageHeader
        title="API reference"
        description={document.info.description ?? ''}
        actions={
          <>
            <Button asChild variant="secondary">
              <Link to="/dashboard/agency/api">API keys</Link>
            </Button>
            <Button asChild variant="secondary">
              <a href="/api/v1/openapi.json">OpenAPI document (JSON)</a>
            </Button>
          </>
        }
      />
      <p className="text-sm [overflow-wrap:anywhere]">
        Base URL: <code className="font-mono">{server}</code>
      </p>
      {tags.map((tag) => (
        <Panel key={tag} title={tag}>
          <div className="flex flex-col gap-4">
            {operations
              .filter((entry) => (entry.operation.tags?.[0] ?? 'Other') === tag)
              .map((entry) => (
                <OperationEntry key={entry.operation.operationId} {...entry} />
              ))}
          </div>
        </Panel>
      ))}
      <Panel title="Schemas">
        <div className="flex flex-col gap-4">
          {Object.entries(document.components?.schemas ?? {}).map(([name, schema]) => (
            <SchemaEntry key={name} name={name} schema={schema} />
          ))}
        </div>
      </Panel>
    </div>
  )
}
