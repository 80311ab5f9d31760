// The SCIM 2.0 protocol pieces that hold no data (RFC 7644, ADR 089): error and list bodies,
// `filter` and paging, and PATCH applied to a resource's JSON. Identity providers' quirks are
// normalised here, before validation: Entra's capitalised ops ("Replace"), no-path values with
// dotted or URN-prefixed keys ("name.givenName", "urn:…:enterprise:2.0:User:department"), and
// removal of listed group members by `path: "members"` with a value (Entra and Okta both send it).
import SCIMMY from 'scimmy'
import { Refusal } from '#app/utils/action-error'
import {
  SCIM_CORE_USER,
  SCIM_ENTERPRISE_USER,
  SCIM_ERROR,
  SCIM_GROUP,
  SCIM_LIST,
  type ScimPatchOperation,
} from '#app/validation/scim'

export const SCIM_CONTENT_TYPE = 'application/scim+json'

/** RFC 7644 §3.12's scimType values that Brandcard answers with. */
export type ScimType =
  | 'invalidFilter'
  | 'uniqueness'
  | 'mutability'
  | 'invalidSyntax'
  | 'invalidPath'
  | 'noTarget'
  | 'invalidValue'
  | 'tooMany'

/**
 * A refusal in SCIM's words: the one Refusal (its code fixes the status: 400, 404 or 409) with
 * the scimType RFC 7644 §3.12 names. Thrown by the handlers, answered by the endpoint.
 */
export class ScimRefusal extends Refusal<'invalid' | 'not_found' | 'conflict'> {
  constructor(
    code: 'invalid' | 'not_found' | 'conflict',
    message: string,
    readonly scimType?: ScimType,
  ) {
    super(code, message)
  }
}

export function scimResponse(body: unknown, status = 200, headers: Record<string, string> = {}) {
  return new Response(status === 204 ? null : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': SCIM_CONTENT_TYPE, 'Cache-Control': 'no-store', ...headers },
  })
}

/** RFC 7644 §3.12: the status as a string, scimType where one applies. */
export function scimErrorBody(status: number, detail: string, scimType?: ScimType) {
  return {
    schemas: [SCIM_ERROR],
    status: String(status),
    ...(scimType ? { scimType } : {}),
    detail,
  }
}

export function scimErrorResponse(error: ScimRefusal, headers: Record<string, string> = {}) {
  return scimResponse(
    scimErrorBody(error.status, error.message, error.scimType),
    error.status,
    headers,
  )
}

/** RFC 7644 §3.4.2.4: startIndex is 1-based (less than 1 means 1), count at most MAX_COUNT. */
export const MAX_COUNT = 200

export function readPaging(url: URL) {
  const startIndex = Math.max(1, Math.trunc(Number(url.searchParams.get('startIndex') ?? 1)) || 1)
  const rawCount = url.searchParams.get('count')
  const count =
    rawCount === null
      ? MAX_COUNT
      : Math.min(MAX_COUNT, Math.max(0, Math.trunc(Number(rawCount)) || 0))
  return { startIndex, count, offset: startIndex - 1 }
}

export function listResponse(resources: unknown[], totalResults: number, startIndex: number) {
  return {
    schemas: [SCIM_LIST],
    totalResults,
    startIndex,
    itemsPerPage: resources.length,
    Resources: resources,
  }
}

/**
 * A `filter` of the one shape identity providers send to match a resource: `attribute eq
 * "value"` on one of `allowed` (RFC 7644 §3.4.2.2). Parsed by scimmy; anything else is refused
 * with invalidFilter rather than read loosely.
 */
export type EqFilter<A extends string> = { attribute: A; value: string } | null

export function parseEqFilter<A extends string>(
  filter: string | null,
  allowed: readonly A[],
): EqFilter<A> {
  if (filter === null || filter.trim() === '') return null
  let parsed: unknown
  try {
    parsed = new SCIMMY.Types.Filter(filter)
  } catch {
    throw new ScimRefusal('invalid', `The filter "${filter}" is not valid SCIM`, 'invalidFilter')
  }
  const expressions = Array.isArray(parsed) ? parsed : []
  const only = expressions.length === 1 ? (expressions[0] as Record<string, unknown>) : null
  const entries = only ? Object.entries(only) : []
  const [name, comparison] = entries.length === 1 ? (entries[0] as [string, unknown]) : ['', null]
  const attribute = allowed.find((a) => a.toLowerCase() === name.toLowerCase())
  if (
    !attribute ||
    !Array.isArray(comparison) ||
    String(comparison[0]).toLowerCase() !== 'eq' ||
    typeof comparison[1] !== 'string'
  ) {
    throw new ScimRefusal(
      'invalid',
      `Only "${allowed.join('", "')}" with "eq" can be filtered on`,
      'invalidFilter',
    )
  }
  return { attribute, value: comparison[1] }
}

// PATCH (RFC 7644 §3.5.2), on the resource as GET shows it.

type Json = Record<string, unknown>
const KNOWN_SCHEMAS = [SCIM_ENTERPRISE_USER, SCIM_CORE_USER, SCIM_GROUP]
const READ_ONLY = new Set(['id', 'meta', 'schemas'])

type ParsedPath = {
  /** The extension object the path names, or null for the resource itself. */
  extension: string | null
  attribute: string
  filter: { attribute: string; value: string } | null
  subAttribute: string | null
}

const PATH =
  /^([A-Za-z$][\w$-]*)(?:\[\s*([A-Za-z][\w]*)\s+eq\s+"((?:[^"\\]|\\.)*)"\s*\])?(?:\.([A-Za-z][\w]*))?$/i

export function parsePath(path: string): ParsedPath {
  let rest = path.trim()
  let extension: string | null = null
  for (const schema of KNOWN_SCHEMAS) {
    if (rest.toLowerCase().startsWith(`${schema.toLowerCase()}:`)) {
      extension = schema === SCIM_ENTERPRISE_USER ? schema : null
      rest = rest.slice(schema.length + 1)
      break
    }
  }
  const match = PATH.exec(rest)
  if (!match?.[1])
    throw new ScimRefusal('invalid', `The path "${path}" is not supported`, 'invalidPath')
  return {
    extension,
    attribute: match[1],
    filter: match[2]
      ? { attribute: match[2], value: (match[3] ?? '').replace(/\\(.)/g, '$1') }
      : null,
    subAttribute: match[4] ?? null,
  }
}

/** The key of `object` that is `name` compared case-insensitively (SCIM names are), or `name`. */
function keyOf(object: Json, name: string) {
  return Object.keys(object).find((key) => key.toLowerCase() === name.toLowerCase()) ?? name
}

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

const sameText = (a: unknown, b: unknown) =>
  typeof a === 'string' && typeof b === 'string' ? a.toLowerCase() === b.toLowerCase() : a === b

/** Adds `values` to a multi-valued attribute, leaving out those whose `value` is there already. */
function addValues(existing: unknown, values: unknown) {
  const list = Array.isArray(existing) ? [...existing] : []
  for (const item of Array.isArray(values) ? values : [values]) {
    const value = isObject(item) ? item.value : undefined
    if (value !== undefined && list.some((old) => isObject(old) && old.value === value)) continue
    list.push(item)
  }
  return list
}

function applyAtPath(resource: Json, op: ScimPatchOperation['op'], path: string, value: unknown) {
  const parsed = parsePath(path)
  if (READ_ONLY.has(parsed.attribute.toLowerCase()) && !parsed.extension) {
    throw new ScimRefusal('invalid', `"${parsed.attribute}" cannot be changed`, 'mutability')
  }
  let container = resource
  if (parsed.extension) {
    const key = keyOf(resource, parsed.extension)
    if (!isObject(resource[key])) resource[key] = {}
    container = resource[key] as Json
  }
  const key = keyOf(container, parsed.attribute)
  const current = container[key]

  if (parsed.filter) {
    const { attribute: filterAttribute, value: filterValue } = parsed.filter
    const list = Array.isArray(current) ? [...current] : []
    const matches = (item: unknown) =>
      isObject(item) && sameText(item[keyOf(item, filterAttribute)], filterValue)
    if (op === 'remove') {
      container[key] = parsed.subAttribute
        ? list.map((item) => {
            if (!matches(item)) return item
            const copy = { ...(item as Json) }
            delete copy[keyOf(copy, parsed.subAttribute as string)]
            return copy
          })
        : list.filter((item) => !matches(item))
      return
    }
    const found = list.some(matches)
    if (!found) {
      // Entra replaces `phoneNumbers[type eq "mobile"].value` on a person without one: added.
      list.push(
        parsed.subAttribute
          ? { [filterAttribute]: filterValue, [parsed.subAttribute]: value }
          : { [filterAttribute]: filterValue, ...(isObject(value) ? value : { value }) },
      )
    }
    container[key] = found
      ? list.map((item) => {
          if (!matches(item)) return item
          if (parsed.subAttribute) return { ...(item as Json), [parsed.subAttribute]: value }
          return { ...(item as Json), ...(isObject(value) ? value : { value }) }
        })
      : list
    return
  }

  if (parsed.subAttribute) {
    const parent = isObject(current) ? { ...current } : {}
    const subKey = keyOf(parent, parsed.subAttribute)
    if (op === 'remove') delete parent[subKey]
    else parent[subKey] = value
    container[key] = parent
    return
  }

  if (op === 'remove') {
    // Entra and Okta remove listed group members with `path: "members"` and the members as value.
    if (Array.isArray(current) && Array.isArray(value) && value.length > 0) {
      const gone = new Set(value.map((item) => (isObject(item) ? item.value : item)))
      container[key] = current.filter((item) => !(isObject(item) && gone.has(item.value)))
      return
    }
    delete container[key]
    return
  }
  if (Array.isArray(current) || (Array.isArray(value) && op === 'add')) {
    container[key] =
      op === 'add' ? addValues(current, value) : Array.isArray(value) ? value : [value]
    return
  }
  // A complex attribute's sub-attributes are merged (RFC 7644 §3.5.2.1 and .3).
  container[key] = isObject(current) && isObject(value) ? { ...current, ...value } : value
}

/**
 * Applies the operations to a copy of the resource and returns it. Without a path, the value is
 * an object whose keys are attribute paths (Entra sends "name.givenName" and URN-prefixed keys
 * there) or extension objects.
 */
export function applyPatch(resource: Json, operations: ScimPatchOperation[]): Json {
  const result = structuredClone(resource)
  for (const { op, path, value } of operations) {
    if (path) {
      if (op !== 'remove' && value === undefined) {
        throw new ScimRefusal('invalid', `"${op}" of "${path}" needs a value`, 'invalidValue')
      }
      applyAtPath(result, op, path, value)
      continue
    }
    if (op === 'remove') throw new ScimRefusal('invalid', 'A remove needs a path', 'noTarget')
    if (!isObject(value)) {
      throw new ScimRefusal(
        'invalid',
        `"${op}" without a path needs an object as its value`,
        'invalidValue',
      )
    }
    for (const [name, item] of Object.entries(value)) {
      if (READ_ONLY.has(name.toLowerCase())) continue
      const schema = KNOWN_SCHEMAS.find((s) => s.toLowerCase() === name.toLowerCase())
      if (schema && isObject(item) && schema !== SCIM_ENTERPRISE_USER) {
        // The core schema's own URN as a key: its attributes are the resource's.
        Object.assign(result, applyPatch(result, [{ op, value: item }]))
        continue
      }
      if (schema && isObject(item)) {
        const key = keyOf(result, schema)
        result[key] = { ...(isObject(result[key]) ? result[key] : {}), ...item }
        continue
      }
      applyAtPath(result, op, name, item)
    }
  }
  return result
}
