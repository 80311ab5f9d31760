// SCIM 2.0 (RFC 7643, RFC 7644) as Brandcard reads it (issue 42 point 2, ADR 089): the shapes
// identity providers send for a User and a Group, with Microsoft Entra's quirks accepted (string
// booleans, a manager as a bare id), and the agency's SCIM settings form.
import { z } from 'zod'

export const SCIM_CORE_USER = 'urn:ietf:params:scim:schemas:core:2.0:User'
export const SCIM_ENTERPRISE_USER = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User'
export const SCIM_GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group'
export const SCIM_LIST = 'urn:ietf:params:scim:api:messages:2.0:ListResponse'
export const SCIM_PATCH = 'urn:ietf:params:scim:api:messages:2.0:PatchOp'
export const SCIM_ERROR = 'urn:ietf:params:scim:api:messages:2.0:Error'

/** Entra sends `"active": "False"` (and Okta `true`): both are booleans here. */
export const scimBoolean = z.union([
  z.boolean(),
  z
    .string()
    .trim()
    .toLowerCase()
    .pipe(z.enum(['true', 'false']))
    .transform((value) => value === 'true'),
])

const text = (max: number) => z.string().trim().max(max)
const optionalText = (max: number) => text(max).nullish()

const multiValue = z
  .object({
    value: optionalText(320),
    type: optionalText(40),
    primary: scimBoolean.nullish(),
    display: optionalText(200),
  })
  .loose()

const address = z
  .object({
    type: optionalText(40),
    formatted: optionalText(500),
    streetAddress: optionalText(300),
    locality: optionalText(120),
    region: optionalText(120),
    postalCode: optionalText(40),
    country: optionalText(120),
    primary: scimBoolean.nullish(),
  })
  .loose()

/** A manager: `{ "value": id }` per RFC 7643 §4.3, or Entra's bare id string. */
const manager = z.union([
  text(255).transform((value) => ({ value })),
  z.object({ value: optionalText(255), displayName: optionalText(200) }).loose(),
])

export const enterpriseUser = z
  .object({
    employeeNumber: optionalText(100),
    department: optionalText(200),
    costCenter: optionalText(200),
    organization: optionalText(200),
    division: optionalText(200),
    manager: manager.nullish(),
  })
  .loose()

/** A User as POST and PUT carry it, and as a PATCH leaves it. */
export const scimUserInput = z
  .object({
    userName: text(320).min(1, 'userName is required'),
    externalId: optionalText(255),
    name: z
      .object({
        givenName: optionalText(100),
        familyName: optionalText(100),
        formatted: optionalText(200),
      })
      .loose()
      .nullish(),
    displayName: optionalText(200),
    title: optionalText(200),
    active: scimBoolean.nullish(),
    emails: z.array(multiValue).max(20).nullish(),
    phoneNumbers: z.array(multiValue).max(20).nullish(),
    addresses: z.array(address).max(10).nullish(),
    [SCIM_ENTERPRISE_USER]: enterpriseUser.nullish(),
  })
  .loose()
export type ScimUserInput = z.infer<typeof scimUserInput>

/** What Brandcard keeps of the directory on the account (users.directory). */
export const directoryFields = z.object({
  /** The directory's userName when it is not the account's email (Entra's UPN may differ). */
  userName: z.string().optional(),
  displayName: z.string().optional(),
  title: z.string().optional(),
  department: z.string().optional(),
  employeeNumber: z.string().optional(),
  costCenter: z.string().optional(),
  organization: z.string().optional(),
  division: z.string().optional(),
  managerId: z.string().optional(),
  phoneNumbers: z
    .array(
      z.object({ value: z.string(), type: z.string().optional(), primary: z.boolean().optional() }),
    )
    .optional(),
  addresses: z
    .array(
      z.object({
        type: z.string().optional(),
        formatted: z.string().optional(),
        streetAddress: z.string().optional(),
        locality: z.string().optional(),
        region: z.string().optional(),
        postalCode: z.string().optional(),
        country: z.string().optional(),
        primary: z.boolean().optional(),
      }),
    )
    .optional(),
  /** Set by a SCIM DELETE: the account stays (deactivated) but SCIM answers 404 for it. */
  deletedAt: z.string().optional(),
})
export type DirectoryFields = z.infer<typeof directoryFields>

/** Reads users.directory, dropping what does not fit (a hand-edited row). */
export function readDirectoryFields(value: unknown): DirectoryFields {
  const parsed = directoryFields.safeParse(value)
  return parsed.success ? parsed.data : {}
}

export const scimGroupMember = z
  .object({ value: text(255).min(1), display: optionalText(200) })
  .loose()

export const scimGroupInput = z
  .object({
    displayName: text(200).min(1, 'displayName is required'),
    externalId: optionalText(255),
    members: z.array(scimGroupMember).max(10_000).nullish(),
  })
  .loose()
export type ScimGroupInput = z.infer<typeof scimGroupInput>

export const scimPatchOperation = z
  .object({
    // Entra writes "Add", "Replace", "Remove".
    op: z
      .string()
      .trim()
      .toLowerCase()
      .pipe(z.enum(['add', 'replace', 'remove'])),
    path: text(500).min(1).nullish(),
    value: z.unknown().optional(),
  })
  .loose()
export type ScimPatchOperation = z.infer<typeof scimPatchOperation>

export const scimPatchRequest = z
  .object({
    schemas: z.array(z.string()).optional(),
    Operations: z.array(scimPatchOperation).min(1).max(1000),
  })
  .loose()

// The settings screen.

/** The roles a person the directory creates may get: the agency's own roles. */
export const SCIM_ROLE_CHOICES = [
  'end_user',
  'team_admin',
  'agency_member',
  'agency_admin',
] as const
export type ScimRole = (typeof SCIM_ROLE_CHOICES)[number]
export const DEFAULT_SCIM_ROLE: ScimRole = 'end_user'

export function readScimRole(value: unknown): ScimRole {
  return (SCIM_ROLE_CHOICES as readonly unknown[]).includes(value)
    ? (value as ScimRole)
    : DEFAULT_SCIM_ROLE
}

/** How long a rotated token keeps working beside its successor. */
export const ROTATION_GRACE_HOURS = [0, 1, 24, 72, 168] as const
export const ROTATION_GRACE_LABELS: Record<(typeof ROTATION_GRACE_HOURS)[number], string> = {
  0: 'Stop at once',
  1: '1 hour',
  24: '24 hours',
  72: '3 days',
  168: '7 days',
}

export const TOKEN_NAME_REQUIRED = 'Please name the token (e.g. Microsoft Entra)'

export const createTokenForm = z.object({
  intent: z.literal('create-token'),
  name: z.string({ error: TOKEN_NAME_REQUIRED }).trim().min(1, TOKEN_NAME_REQUIRED).max(80),
})

export const rotateTokenForm = z.object({
  intent: z.literal('rotate-token'),
  tokenId: z.string({ error: 'Please choose a token' }).uuid('Please choose a token'),
  graceHours: z.coerce
    .number({ error: 'Please choose how long the old token keeps working' })
    .int()
    .refine((hours) => (ROTATION_GRACE_HOURS as readonly number[]).includes(hours), {
      message: 'Please choose how long the old token keeps working',
    }),
})

export const revokeTokenForm = z.object({
  intent: z.literal('revoke-token'),
  tokenId: z.string({ error: 'Please choose a token' }).uuid('Please choose a token'),
})

export const scimRoleForm = z.object({
  intent: z.literal('set-role'),
  role: z.enum(SCIM_ROLE_CHOICES, { error: 'Please choose a role' }),
})

/**
 * Directory attributes a card can follow (issue 42 point 3, ADR 089): the card field and what
 * of the directory fills it. The manager is no card field (a card is for strangers, the reporting
 * line is not theirs): it names who takes a deactivated person's seat (ADR 049).
 */
export const DIRECTORY_CARD_FIELDS = [
  'jobTitle',
  'department',
  'phoneNumber',
  'company',
  'address',
] as const
export type DirectoryCardField = (typeof DIRECTORY_CARD_FIELDS)[number]
export const DIRECTORY_CARD_FIELD_LABELS: Record<DirectoryCardField, string> = {
  jobTitle: "Job title, from the directory's title",
  department: 'Department, from the enterprise department',
  phoneNumber: 'Phone, from the work (else the first) phone number',
  company: 'Company, from the enterprise organization',
  address: 'Address, from the work (else the first) address',
}

export function readDirectoryCardFields(value: unknown): DirectoryCardField[] {
  return Array.isArray(value) ? DIRECTORY_CARD_FIELDS.filter((field) => value.includes(field)) : []
}

export const directoryCardFieldsForm = z.object({
  intent: z.literal('set-card-fields'),
  fields: z
    .array(z.enum(DIRECTORY_CARD_FIELDS, { error: 'Please choose among the listed fields' }))
    .max(DIRECTORY_CARD_FIELDS.length)
    .default([]),
})

export const scimSettingsForm = z.discriminatedUnion('intent', [
  createTokenForm,
  rotateTokenForm,
  revokeTokenForm,
  scimRoleForm,
  directoryCardFieldsForm,
])
export type ScimSettingsForm = z.infer<typeof scimSettingsForm>

export const SCIM_LOG_STATUSES = ['all', 'ok', 'error'] as const
export const scimLogQuery = z.object({
  status: z.enum(SCIM_LOG_STATUSES).catch('all'),
  page: z.coerce.number().int().min(1).max(10_000).catch(1),
})
export const SCIM_LOG_PAGE_SIZE = 25

/** The card columns a mapped directory field fills (the names of digital_cards' columns). */
export type DirectoryCardValues = Partial<
  Record<
    | 'jobTitle'
    | 'department'
    | 'phoneNumber'
    | 'company'
    | 'addressStreet'
    | 'addressCity'
    | 'addressRegion'
    | 'addressPostalCode'
    | 'addressCountry',
    string
  >
>

const pickEntry = <T extends { type?: string; primary?: boolean }>(
  list: readonly T[] | undefined,
) =>
  list?.find((item) => item.type?.toLowerCase() === 'work') ??
  list?.find((item) => item.primary) ??
  list?.[0]

/** The card values the mapped fields take from what the directory says about the person. */
export function cardValuesOf(
  directory: DirectoryFields,
  mapped: readonly DirectoryCardField[],
): DirectoryCardValues {
  const values: DirectoryCardValues = {}
  if (mapped.includes('jobTitle')) values.jobTitle = directory.title ?? ''
  if (mapped.includes('department')) values.department = directory.department ?? ''
  if (mapped.includes('phoneNumber'))
    values.phoneNumber = pickEntry(directory.phoneNumbers)?.value ?? ''
  if (mapped.includes('company')) values.company = directory.organization ?? ''
  if (mapped.includes('address')) {
    const address = pickEntry(directory.addresses)
    values.addressStreet = address?.streetAddress ?? ''
    values.addressCity = address?.locality ?? ''
    values.addressRegion = address?.region ?? ''
    values.addressPostalCode = address?.postalCode ?? ''
    values.addressCountry = address?.country ?? ''
  }
  return values
}

const DIRECTORY_FIELD_NAMES: Record<DirectoryCardField, string> = {
  jobTitle: 'Job title',
  department: 'Department',
  phoneNumber: 'Phone',
  company: 'Company',
  address: 'Address',
}

/** What the card editor says beside a field the directory holds (it is read only there). */
export function directoryHeldHint(field: DirectoryCardField) {
  return `${DIRECTORY_FIELD_NAMES[field]} follows your organization's directory (HR)`
}

/** The toast's line when an owner's edit of a field the directory holds was kept as it says. */
export const DIRECTORY_HELD_MESSAGE =
  "Fields that follow your organization's directory (HR) were kept as it says."
