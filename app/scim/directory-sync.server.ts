// What a SCIM call does to the agency (issue 42 point 2, ADR 089): Users become accounts of the
// agency, Groups become its teams. Each function runs inside the request's tenant transaction
// and returns the SCIM answer with what it changed, for the provisioning log. Deactivation
// (`active: false`, DELETE) never deletes data: the account goes inactive, its sessions end, and
// its seat is handed over to the manager the directory names (ADR 049), else the agency's
// "When someone leaves" forwarding answers for it.
import { randomBytes } from 'node:crypto'
import { hashPassword } from '#app/auth/password.server'
import { assertStaffSeat } from '#app/billing/plan-limits.server'
import { recordAudit } from '#app/models/audit.server'
import {
  countDirectoryTeams,
  countDirectoryUsers,
  findDirectoryTeam,
  findDirectoryUsers,
  insertDirectoryTeam,
  listDirectoryTeamMemberIds,
  listDirectoryTeams,
  listDirectoryUsers,
  removeDirectoryTeamMembers,
  updateDirectoryTeam,
} from '#app/models/directory.server'
import { lockActiveAgencyAdmins, updateAccount } from '#app/models/people.server'
import { deleteUserSessions } from '#app/models/sessions.server'
import { addTeamMember, deleteTeam, type Team } from '#app/models/teams.server'
import { createUser, findUserByEmail, type User } from '#app/models/users.server'
import { queueMovedNoticeIn } from '#app/people/personal-card.server'
import { handOverSeat } from '#app/people/seat-handover.server'
import { NAME_MAX_LENGTH } from '#app/validation/names'
import {
  type DirectoryFields,
  readDirectoryFields,
  SCIM_CORE_USER,
  SCIM_ENTERPRISE_USER,
  SCIM_GROUP,
  type ScimGroupInput,
  type ScimUserInput,
  scimGroupInput,
  scimPatchRequest,
  scimUserInput,
} from '#app/validation/scim'
import { emitUserDeactivated } from '#app/webhooks/webhook-events.server'
import type { Transaction } from '#drizzle/db.server'
import { cardsFollowDirectory } from './directory-cards.server'
import {
  applyPatch,
  type EqFilter,
  listResponse,
  parseEqFilter,
  readPaging,
  ScimRefusal,
} from './protocol'
import { readScimDefaultRole } from './scim-settings.server'

export type ScimCall = {
  tx: Transaction
  organizationId: string
  tokenId: string
  /** The agency's SCIM base URL, for `meta.location`. */
  baseUrl: string
}

type ResourceType = 'User' | 'Group'

export type ScimOutcome = {
  status: number
  body: unknown
  resourceType?: ResourceType
  resourceId?: string
  changes?: Record<string, unknown>
  headers?: Record<string, string>
  /** What went wrong, for the provisioning log (an answer of 400 or more). */
  error?: string
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

/** A zod failure as SCIM's invalidValue, naming the attribute. */
function parseOrRefuse<T>(
  schema: {
    safeParse(
      value: unknown,
    ):
      | { success: true; data: T }
      | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } }
  },
  value: unknown,
): T {
  const parsed = schema.safeParse(value)
  if (parsed.success) return parsed.data
  const issue = parsed.error.issues[0]
  const where = issue?.path.map(String).join('.') || 'the body'
  throw new ScimRefusal('invalid', `${where}: ${issue?.message ?? 'not valid'}`, 'invalidValue')
}

/** The resource asked for by id, or SCIM's 404 when the organization has none by that id. */
function found<Row>(id: string, row: Row | undefined): Row {
  if (!row) throw new ScimRefusal('not_found', `Resource ${id} not found`)
  return row
}

/** A resource as SCIM answers it: an attribute without a value is left out, not sent as null. */
const scimResource = (resource: object) =>
  JSON.parse(JSON.stringify(resource)) as Record<string, unknown>

/** A resource's `meta` (RFC 7643 §3.1): its type, when it was made and last changed, its URL. */
function resourceMeta(
  resourceType: ResourceType,
  row: { id: string; createdAt: Date; updatedAt: Date },
  baseUrl: string,
) {
  return {
    resourceType,
    created: row.createdAt.toISOString(),
    lastModified: row.updatedAt.toISOString(),
    location: `${baseUrl}/${resourceType}s/${row.id}`,
  }
}

/** What a list of each resource may filter on (its one `eq` filter), and how it counts and reads. */
const LISTS = {
  User: {
    type: 'User',
    filterOn: ['userName', 'externalId', 'id'],
    count: countDirectoryUsers,
    list: listDirectoryUsers,
  },
  Group: {
    type: 'Group',
    filterOn: ['displayName', 'externalId', 'id'],
    count: countDirectoryTeams,
    list: listDirectoryTeams,
  },
} as const

/**
 * A list of a resource (RFC 7644 §3.4.2): the rows the one `eq` filter it allows finds, the page
 * asked for with the total, each row shown one after another (they share the call's transaction).
 */
async function listOutcome<A extends string, Row>(
  call: ScimCall,
  url: URL,
  resource: {
    type: ResourceType
    filterOn: readonly A[]
    count: (
      db: Transaction,
      organizationId: string,
      filter: EqFilter<NoInfer<A>>,
    ) => Promise<number>
    list: (
      db: Transaction,
      organizationId: string,
      filter: EqFilter<NoInfer<A>>,
      page: { offset: number; limit: number },
    ) => Promise<Row[]>
  },
  show: (row: Row) => unknown,
): Promise<ScimOutcome> {
  const filter = parseEqFilter(url.searchParams.get('filter'), resource.filterOn)
  const { startIndex, count, offset } = readPaging(url)
  const total = await resource.count(call.tx, call.organizationId, filter)
  const rows = await resource.list(call.tx, call.organizationId, filter, { offset, limit: count })
  const shown = []
  for (const row of rows) shown.push(await show(row))
  return {
    status: 200,
    resourceType: resource.type,
    body: listResponse(shown, total, startIndex),
  }
}

// Users

type AccountFields = {
  email: string
  firstName: string
  lastName: string
  externalId: string | null
  status: 'active' | 'inactive'
  directory: DirectoryFields
}

const clean = (value: string | null | undefined) => value?.trim() || undefined

/**
 * The account a User resource describes. Its email is the primary (else the work, else the
 * first) email, or userName when that is an address; a userName that is not the email (Entra's
 * UPN) is kept beside it, so that the directory finds the person by it.
 */
function accountOf(input: ScimUserInput): AccountFields {
  const emails = (input.emails ?? []).filter((email) => email.value && EMAIL.test(email.value))
  const chosen =
    emails.find((email) => email.primary) ??
    emails.find((email) => email.type?.toLowerCase() === 'work') ??
    emails[0]
  const email = (chosen?.value ?? (EMAIL.test(input.userName) ? input.userName : '')).toLowerCase()
  if (!EMAIL.test(email)) {
    throw new ScimRefusal(
      'invalid',
      "userName must be the person's email address, or a work email must be given",
      'invalidValue',
    )
  }
  const enterprise = input[SCIM_ENTERPRISE_USER] ?? {}
  const [givenFromDisplay = '', ...familyFromDisplay] = (input.displayName ?? '').split(/\s+/)
  const directory: DirectoryFields = {
    userName: input.userName.toLowerCase() === email ? undefined : input.userName,
    displayName: clean(input.displayName),
    title: clean(input.title),
    department: clean(enterprise.department),
    employeeNumber: clean(enterprise.employeeNumber),
    costCenter: clean(enterprise.costCenter),
    organization: clean(enterprise.organization),
    division: clean(enterprise.division),
    managerId: clean(enterprise.manager?.value),
    phoneNumbers: (input.phoneNumbers ?? [])
      .filter((phone) => phone.value)
      .map((phone) => ({
        value: phone.value as string,
        ...(phone.type ? { type: phone.type } : {}),
        ...(phone.primary ? { primary: true } : {}),
      })),
    addresses: (input.addresses ?? []).map((address) => {
      const entry: NonNullable<DirectoryFields['addresses']>[number] = {}
      for (const key of [
        'type',
        'formatted',
        'streetAddress',
        'locality',
        'region',
        'postalCode',
        'country',
      ] as const) {
        const value = clean(address[key])
        if (value) entry[key] = value
      }
      if (address.primary) entry.primary = true
      return entry
    }),
  }
  return {
    email,
    firstName: (input.name?.givenName ?? givenFromDisplay)
      .trim()
      .slice(0, NAME_MAX_LENGTH.namePart),
    lastName: (input.name?.familyName ?? familyFromDisplay.join(' '))
      .trim()
      .slice(0, NAME_MAX_LENGTH.namePart),
    externalId: clean(input.externalId) ?? null,
    status: input.active === false ? 'inactive' : 'active',
    directory: JSON.parse(JSON.stringify(directory)) as DirectoryFields,
  }
}

/** A User as SCIM shows it (RFC 7643 §4.1 with the enterprise extension, §4.3). */
export function toScimUser(user: User, baseUrl: string) {
  const directory = readDirectoryFields(user.directory)
  const formatted = `${user.firstName} ${user.lastName}`.trim()
  const enterprise = {
    employeeNumber: directory.employeeNumber,
    department: directory.department,
    costCenter: directory.costCenter,
    organization: directory.organization,
    division: directory.division,
    manager: directory.managerId ? { value: directory.managerId } : undefined,
  }
  const hasEnterprise = Object.values(enterprise).some((value) => value !== undefined)
  return scimResource({
    schemas: hasEnterprise ? [SCIM_CORE_USER, SCIM_ENTERPRISE_USER] : [SCIM_CORE_USER],
    id: user.id,
    externalId: user.externalId ?? undefined,
    userName: directory.userName ?? user.email,
    name: { givenName: user.firstName, familyName: user.lastName, formatted },
    displayName: directory.displayName ?? (formatted || user.email),
    title: directory.title,
    active: user.status === 'active',
    emails: [{ value: user.email, type: 'work', primary: true }],
    phoneNumbers: directory.phoneNumbers?.length ? directory.phoneNumbers : undefined,
    addresses: directory.addresses?.length ? directory.addresses : undefined,
    ...(hasEnterprise ? { [SCIM_ENTERPRISE_USER]: enterprise } : {}),
    meta: resourceMeta('User', user, baseUrl),
  })
}

async function findUserOrThrow(call: ScimCall, id: string) {
  return found(id, (await findDirectoryUsers(call.tx, call.organizationId, { ids: [id] }))[0])
}

export function listUsers(call: ScimCall, url: URL): Promise<ScimOutcome> {
  return listOutcome(call, url, LISTS.User, (row) => toScimUser(row, call.baseUrl))
}

export async function getUser(call: ScimCall, id: string): Promise<ScimOutcome> {
  const user = await findUserOrThrow(call, id)
  return { status: 200, resourceType: 'User', resourceId: id, body: toScimUser(user, call.baseUrl) }
}

/**
 * An externalId names one resource of its kind in the organization: held by another (not the one
 * being saved, `self`), it is SCIM's uniqueness conflict.
 */
function refuseIfHeld(
  externalId: string,
  holder: { id: string } | undefined,
  self: string | undefined,
  kind: 'user' | 'group',
) {
  if (holder && holder.id !== self) {
    throw new ScimRefusal(
      'conflict',
      `externalId "${externalId}" belongs to another ${kind}`,
      'uniqueness',
    )
  }
}

async function assertExternalIdFree(call: ScimCall, externalId: string | null, self?: string) {
  if (!externalId) return
  const [holder] = await findDirectoryUsers(call.tx, call.organizationId, {
    externalIds: [externalId],
  })
  refuseIfHeld(externalId, holder, self, 'user')
}

const audit = (
  call: ScimCall,
  action: string,
  entityType: string,
  entityId: string,
  metadata = {},
) =>
  recordAudit(call.tx, call.organizationId, {
    actorUserId: null,
    action,
    entityType,
    entityId,
    metadata: { via: 'scim', tokenId: call.tokenId, ...metadata },
  })

export async function createUserFromScim(call: ScimCall, body: unknown): Promise<ScimOutcome> {
  const input = parseOrRefuse(scimUserInput, body)
  const fields = accountOf(input)
  const existing = await findUserByEmail(call.tx, call.organizationId, fields.email)
  if (existing && !readDirectoryFields(existing.directory).deletedAt) {
    throw new ScimRefusal(
      'conflict',
      `userName "${fields.email}" is already a user here`,
      'uniqueness',
    )
  }
  await assertExternalIdFree(call, fields.externalId)
  if (existing) {
    // A person the directory deleted before and now provisions again: the same account returns.
    const changes = await writeUser(call, existing, fields)
    const user = await findUserOrThrow(call, existing.id)
    return created(call, user, { restored: true, ...changes })
  }
  const role = await readScimDefaultRole(call.tx, call.organizationId)
  if (role !== 'end_user') await assertStaffSeat(call.tx, call.organizationId)
  const user = await createUser(call.tx, call.organizationId, {
    email: fields.email,
    // Nobody knows this password: the person signs in by SSO or sets one by "Forgot password".
    passwordHash: await hashPassword(randomBytes(32).toString('base64url')),
    role,
    status: fields.status,
    firstName: fields.firstName,
    lastName: fields.lastName,
    externalId: fields.externalId,
    directory: fields.directory,
  })
  await audit(call, 'user.created', 'user', user.id, { email: user.email, role })
  return created(call, user, {
    created: { email: user.email, role, externalId: fields.externalId, status: fields.status },
  })
}

function created(call: ScimCall, user: User, changes: Record<string, unknown>): ScimOutcome {
  const body = toScimUser(user, call.baseUrl)
  return {
    status: 201,
    resourceType: 'User',
    resourceId: user.id,
    body,
    changes,
    headers: { Location: `${call.baseUrl}/Users/${user.id}` },
  }
}

/** Writes the differences between the account and `next`; returns them as [before, after]. */
async function writeUser(call: ScimCall, user: User, next: AccountFields) {
  const before = readDirectoryFields(user.directory)
  const changes: Record<string, [unknown, unknown]> = {}
  for (const key of ['email', 'firstName', 'lastName', 'externalId', 'status'] as const) {
    if (user[key] !== next[key]) changes[key] = [user[key], next[key]]
  }
  const directoryKeys = new Set([...Object.keys(before), ...Object.keys(next.directory)])
  for (const key of directoryKeys) {
    const a = JSON.stringify(before[key as keyof DirectoryFields] ?? null)
    const b = JSON.stringify(next.directory[key as keyof DirectoryFields] ?? null)
    if (a !== b) changes[key] = [JSON.parse(a), JSON.parse(b)]
  }
  if (Object.keys(changes).length === 0) return {}
  if (changes.email) {
    const other = await findUserByEmail(call.tx, call.organizationId, next.email)
    if (other && other.id !== user.id) {
      throw new ScimRefusal(
        'conflict',
        `userName "${next.email}" is already a user here`,
        'uniqueness',
      )
    }
  }
  if (changes.externalId) await assertExternalIdFree(call, next.externalId, user.id)
  const deactivating = user.status === 'active' && next.status === 'inactive'
  if (deactivating && user.role === 'agency_admin') {
    const admins = await lockActiveAgencyAdmins(call.tx, call.organizationId)
    if (admins.length <= 1) {
      throw new ScimRefusal(
        'invalid',
        'The agency must keep at least one active agency admin',
        'mutability',
      )
    }
  }
  await updateAccount(call.tx, call.organizationId, user.id, {
    email: next.email,
    firstName: next.firstName,
    lastName: next.lastName,
    externalId: next.externalId,
    status: next.status,
    directory: next.directory,
  })
  const handOver = deactivating ? await deactivate(call, user, next.directory.managerId) : undefined
  if (deactivating) {
    await emitUserDeactivated(call.tx, call.organizationId, { ...user, ...next }, 'directory')
    // A person who claimed a personal card has left now: their followers are told (ADR 103).
    await queueMovedNoticeIn(call.tx, call.organizationId, user.id)
  }
  // The card fields the agency maps follow the directory (issue 42 point 3).
  const cards = await cardsFollowDirectory(call.tx, call.organizationId, user.id, next.directory)
  if (user.status !== next.status) {
    await audit(
      call,
      next.status === 'active' ? 'user.activated' : 'user.deactivated',
      'user',
      user.id,
    )
  } else {
    await audit(call, 'scim.user_updated', 'user', user.id, { fields: Object.keys(changes) })
  }
  return { ...changes, ...(handOver ? { handOver } : {}), ...(cards ? { cards } : {}) }
}

/**
 * What deactivation does besides the status: sessions end, and the seat goes to the manager
 * when the directory names one that is an active account here (links forward to the manager's
 * card, company contacts move). Without one, the agency's default forwarding answers.
 */
async function deactivate(call: ScimCall, user: User, managerId: string | undefined) {
  await deleteUserSessions(call.tx, call.organizationId, user.id)
  if (!managerId) return { successor: null, reason: 'no manager in the directory' }
  const [manager] = await findDirectoryUsers(call.tx, call.organizationId, {
    ids: [managerId],
    externalIds: [managerId],
  })
  if (!manager || manager.id === user.id || manager.status !== 'active') {
    return { successor: null, reason: 'the manager is not an active user here' }
  }
  const handed = await handOverSeat(call.tx, {
    organizationId: call.organizationId,
    userId: user.id,
    successorId: manager.id,
    actorUserId: null,
  })
  return { successor: manager.id, contactsMoved: handed.contactsMoved }
}

export async function replaceUser(call: ScimCall, id: string, body: unknown): Promise<ScimOutcome> {
  const user = await findUserOrThrow(call, id)
  const input = parseOrRefuse(scimUserInput, body)
  const changes = await writeUser(call, user, accountOf(input))
  return updated(call, id, changes)
}

export async function patchUser(call: ScimCall, id: string, body: unknown): Promise<ScimOutcome> {
  const user = await findUserOrThrow(call, id)
  const { Operations } = parseOrRefuse(scimPatchRequest, body)
  const patched = applyPatch(toScimUser(user, call.baseUrl), Operations)
  const input = parseOrRefuse(scimUserInput, patched)
  const changes = await writeUser(call, user, accountOf(input))
  return updated(call, id, changes)
}

async function updated(call: ScimCall, id: string, changes: Record<string, unknown>) {
  const user = await findUserOrThrow(call, id)
  return {
    status: 200,
    resourceType: 'User' as const,
    resourceId: id,
    body: toScimUser(user, call.baseUrl),
    changes,
  }
}

/** DELETE: deactivated and handed over like `active: false`, and gone from SCIM (404 after). */
export async function deleteUserFromScim(call: ScimCall, id: string): Promise<ScimOutcome> {
  const user = await findUserOrThrow(call, id)
  const directory = readDirectoryFields(user.directory)
  const changes = await writeUser(call, user, {
    email: user.email,
    firstName: user.firstName,
    lastName: user.lastName,
    externalId: null,
    status: 'inactive',
    directory,
  })
  await updateAccount(call.tx, call.organizationId, user.id, {
    directory: { ...directory, deletedAt: new Date().toISOString() },
  })
  return {
    status: 204,
    body: null,
    resourceType: 'User',
    resourceId: id,
    changes: { ...changes, deleted: true },
  }
}

// Groups

async function toScimGroup(call: ScimCall, team: Team, withMembers: boolean) {
  const members = withMembers
    ? await findDirectoryUsers(call.tx, call.organizationId, {
        ids: await listDirectoryTeamMemberIds(call.tx, call.organizationId, team.id),
      })
    : null
  return scimResource({
    schemas: [SCIM_GROUP],
    id: team.id,
    externalId: team.externalId ?? undefined,
    displayName: team.name,
    members: members?.map((member) => ({
      value: member.id,
      display: `${member.firstName} ${member.lastName}`.trim() || member.email,
      $ref: `${call.baseUrl}/Users/${member.id}`,
    })),
    meta: resourceMeta('Group', team, call.baseUrl),
  })
}

const excludesMembers = (url: URL) =>
  (url.searchParams.get('excludedAttributes') ?? '')
    .split(',')
    .some((name) => name.trim().toLowerCase() === 'members')

async function findTeamOrThrow(call: ScimCall, id: string) {
  return found(id, await findDirectoryTeam(call.tx, call.organizationId, id, { lock: true }))
}

export function listGroups(call: ScimCall, url: URL): Promise<ScimOutcome> {
  return listOutcome(call, url, LISTS.Group, (team) =>
    toScimGroup(call, team, !excludesMembers(url)),
  )
}

export async function getGroup(call: ScimCall, id: string, url: URL): Promise<ScimOutcome> {
  const team = await findTeamOrThrow(call, id)
  return {
    status: 200,
    resourceType: 'Group',
    resourceId: id,
    body: await toScimGroup(call, team, !excludesMembers(url)),
  }
}

async function assertGroupExternalIdFree(call: ScimCall, externalId: string | null, self?: string) {
  if (!externalId) return
  const [holder] = await listDirectoryTeams(
    call.tx,
    call.organizationId,
    { attribute: 'externalId', value: externalId },
    { offset: 0, limit: 1 },
  )
  refuseIfHeld(externalId, holder, self, 'group')
}

/** Makes the team's members exactly `wanted` (user ids); members the directory does not know are left out and reported. */
async function setMembers(call: ScimCall, team: Team, wanted: ScimGroupInput['members']) {
  const values = [...new Set((wanted ?? []).map((member) => member.value))]
  const known = await findDirectoryUsers(call.tx, call.organizationId, { ids: values })
  const knownIds = new Set(known.map((user) => user.id))
  const current = await listDirectoryTeamMemberIds(call.tx, call.organizationId, team.id)
  const added = [...knownIds].filter((id) => !current.includes(id))
  const removed = current.filter((id) => !knownIds.has(id))
  for (const userId of added) {
    await addTeamMember(call.tx, call.organizationId, team.id, userId, 'member')
  }
  await removeDirectoryTeamMembers(call.tx, call.organizationId, team.id, removed)
  const unknown = values.filter((value) => !knownIds.has(value))
  return {
    ...(added.length ? { membersAdded: added } : {}),
    ...(removed.length ? { membersRemoved: removed } : {}),
    ...(unknown.length ? { membersNotFound: unknown } : {}),
  }
}

export async function createGroup(call: ScimCall, body: unknown): Promise<ScimOutcome> {
  const input = parseOrRefuse(scimGroupInput, body)
  const externalId = clean(input.externalId) ?? null
  await assertGroupExternalIdFree(call, externalId)
  const team = await insertDirectoryTeam(call.tx, call.organizationId, {
    name: input.displayName,
    externalId,
  })
  const members = await setMembers(call, team, input.members)
  await audit(call, 'team.created', 'team', team.id, { name: team.name })
  return {
    status: 201,
    resourceType: 'Group',
    resourceId: team.id,
    body: await toScimGroup(call, team, true),
    changes: { created: { displayName: team.name, externalId }, ...members },
    headers: { Location: `${call.baseUrl}/Groups/${team.id}` },
  }
}

async function writeGroup(call: ScimCall, team: Team, input: ScimGroupInput, members: boolean) {
  const externalId = clean(input.externalId) ?? null
  const changes: Record<string, unknown> = {}
  if (input.displayName !== team.name) changes.displayName = [team.name, input.displayName]
  if (externalId !== team.externalId) {
    await assertGroupExternalIdFree(call, externalId, team.id)
    changes.externalId = [team.externalId, externalId]
  }
  if (changes.displayName || changes.externalId) {
    await updateDirectoryTeam(call.tx, call.organizationId, team.id, {
      name: input.displayName,
      externalId,
    })
  }
  const memberChanges = members ? await setMembers(call, team, input.members) : {}
  const all = { ...changes, ...memberChanges }
  if (Object.keys(all).length > 0) {
    await audit(call, 'scim.group_updated', 'team', team.id, { fields: Object.keys(all) })
  }
  return all
}

/**
 * PUT and PATCH alike: the group, the input the request makes of it (and whether it speaks of
 * members), written, then answered as the group now is.
 */
async function updateGroup(
  call: ScimCall,
  id: string,
  url: URL,
  inputOf: (team: Team) => Promise<{ input: ScimGroupInput; members: boolean }>,
): Promise<ScimOutcome> {
  const team = await findTeamOrThrow(call, id)
  const { input, members } = await inputOf(team)
  const changes = await writeGroup(call, team, input, members)
  return groupAnswer(call, id, url, changes)
}

export function replaceGroup(call: ScimCall, id: string, body: unknown, url: URL) {
  return updateGroup(call, id, url, async () => ({
    input: parseOrRefuse(scimGroupInput, body),
    members: true,
  }))
}

export function patchGroup(call: ScimCall, id: string, body: unknown, url: URL) {
  return updateGroup(call, id, url, async (team) => {
    const { Operations } = parseOrRefuse(scimPatchRequest, body)
    const members = Operations.some(
      (operation) =>
        (operation.path ?? '').toLowerCase().startsWith('members') ||
        (!operation.path &&
          typeof operation.value === 'object' &&
          operation.value !== null &&
          Object.keys(operation.value).some((key) => key.toLowerCase() === 'members')),
    )
    const patched = applyPatch(await toScimGroup(call, team, members), Operations)
    return { input: parseOrRefuse(scimGroupInput, patched), members }
  })
}

async function groupAnswer(call: ScimCall, id: string, url: URL, changes: Record<string, unknown>) {
  const team = await findTeamOrThrow(call, id)
  return {
    status: 200,
    resourceType: 'Group' as const,
    resourceId: id,
    body: await toScimGroup(call, team, !excludesMembers(url)),
    changes,
  }
}

/** DELETE: the team goes (its memberships with it); the people and their cards stay. */
export async function deleteGroup(call: ScimCall, id: string): Promise<ScimOutcome> {
  const team = await findTeamOrThrow(call, id)
  await deleteTeam(call.tx, call.organizationId, team.id)
  await audit(call, 'team.deleted', 'team', team.id, { name: team.name })
  return {
    status: 204,
    body: null,
    resourceType: 'Group',
    resourceId: id,
    changes: { deleted: team.name },
  }
}
