// One home per rule (issue 27 point 4, ADR 036; issue 40 point 4, ADR 065): each rule's number
// and message are written in one module of app/validation/ (or the module named below) that the
// browser and the server import. This test imports each rule from its home and
// - fails when a schema, an email or a screen states the rule's value again anywhere else in
//   app/ (the value next to the rule's words, outside comments where noted);
// - checks the behaviour of every schema that applies a rule against the home: a value one short
//   of the home's minimum is refused with the spec's message, the minimum accepted, and so on;
// - checks that the homes' messages are the spec's, word for word.
// It also fails when a conform form takes its constraints from anywhere but formConstraint
// (which leaves out the maxLength that would cut a value silently). The card visibility rule's
// table is tested in card-visibility-rule.test.ts.
import { readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, test } from 'vitest'
import type { z } from 'zod'
import {
  END_USER_LIMITS,
  endUserLimitMessage,
  fitsEndUser,
  fitsStaff,
  SOLD_PLAN_NAMES,
  STAFF_LIMITS,
  staffLimitMessage,
  TEAM_MEMBER_BASIC,
} from '#app/billing/plan-limits'
import { accountCreatedEmail } from '#app/services/emails/account-created.server'
import { confirmEmailEmail } from '#app/services/emails/confirm-email.server'
import { passwordResetEmail } from '#app/services/emails/password-reset.server'
import { twoFactorEnrolmentEmail } from '#app/services/emails/two-factor-enrolment-email.server'
import { classifyHost } from '#app/tenancy/host'
import { canWriteNfc } from '#app/utils/nfc'
import { DeleteAccountSchema } from '#app/validation/account-deletion'
import { CreateAgencySchema } from '#app/validation/agencies'
import {
  AGENCY_SLUG_MAX_LENGTH,
  AGENCY_SLUG_MIN_LENGTH,
  isValidAgencySlug,
  RESERVED_SUBDOMAINS,
  SLUG_INVALID,
  slugFromName,
} from '#app/validation/agency-slug'
import { LoginSchema, RegisterSchema, ResetPasswordSchema } from '#app/validation/auth'
import { COMPANY_MAX_LENGTH, PHONE_MAX_LENGTH } from '#app/validation/card-details'
import { SLUG_MAX_LENGTH, SLUG_MIN_LENGTH, slugBaseFromName } from '#app/validation/card-slug'
import { CONTACT_NOTE_MAX_LENGTH } from '#app/validation/contact-fields'
import {
  IMAGE_PURPOSES,
  INVALID_IMAGE_MESSAGE,
  isAcceptedImageFile,
  MAX_UPLOAD_BYTES,
} from '#app/validation/images'
import { INVITATION_TTL_MS, INVITATIONS_VALID_FOR } from '#app/validation/invitation-lifetime'
import { NO_LEGAL_LINKS } from '#app/validation/legal'
import {
  BOTH_NAMES_REQUIRED,
  NAME_MIN_LENGTH,
  nameRequired,
  nameTooLong,
  nameTooShort,
  PERSON_NAME_MAX_LENGTH,
  TEAM_NAME_TOO_LONG,
  TEAM_NAME_TOO_SHORT,
} from '#app/validation/names'
import {
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  PASSWORD_TOO_LONG,
  PASSWORD_TOO_SHORT,
  PASSWORDS_DO_NOT_MATCH,
  STAFF_PASSWORD_MIN_LENGTH,
  STAFF_PASSWORD_TOO_SHORT,
} from '#app/validation/passwords'
import { STAFF_FORM_SCHEMAS } from '#app/validation/people'
import { fitsOneMore, memberLimitMessage, PLANS } from '#app/validation/plans'
import {
  CardDetailsSchema,
  ChangePasswordSchema,
  ProfileSchema,
  WizardNameSchema,
} from '#app/validation/profile'
import { readSearch, SEARCH_MAX_LENGTH, SEARCH_TOO_LONG_MESSAGE } from '#app/validation/search'
import {
  EMAIL_CONFIRMATION_LINK,
  linkWorksOnce,
  PASSWORD_RESET_LINK,
  SET_PASSWORD_LINK,
  TWO_FACTOR_ENROLMENT_LINK,
} from '#app/validation/token-lifetimes'
import { NewPasswordSchema } from '#app/validation/two-factor'

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name)
    if (statSync(file).isDirectory()) return sourceFiles(file)
    return /\.tsx?$/.test(name) ? [file] : []
  })
}

const files = sourceFiles('app').map((file) => ({ file, text: readFileSync(file, 'utf8') }))

/** A comment line (`//`, or inside a `/** … *\/` block): what code says, not what it does. */
const isComment = (line: string) => /^\s*(\/\/|\/\*|\*)/.test(line)

/** Lines of files other than `homes` that match `copy` (code lines only, with `codeOnly`). */
function copiesOutside(homes: string | string[], copy: RegExp, codeOnly = false) {
  const skipped = new Set([homes].flat().map((home) => path.normalize(home)))
  return files
    .filter(({ file }) => !skipped.has(file))
    .flatMap(({ file, text }) =>
      text
        .split('\n')
        .filter((line) => !(codeOnly && isComment(line)) && copy.test(line))
        .map((line) => `${file}: ${line.trim()}`),
    )
}

/** A number as a whole literal in source (`8`, not `18`, `8px` or `${…}`). */
const literal = (...values: number[]) => `(?<![\\w.$])(?:${values.join('|')})(?![\\w.%])`

test.each([
  // The image types, size and message.
  ['app/validation/images.ts', /5 \* 1024 \* 1024|\b5 ?MB\b|image\/jpeg,image\/png/],
  // The invitation lifetime: a number of days written beside an invitation.
  ['app/validation/invitation-lifetime.ts', /invitation.*\b7 days|\b7 days.*invitation/i],
  // The seat check: members and pending invitations against the plan's limit.
  ['app/validation/plans.ts', /pendingInvitations \+ 1|pendingInvitations \+ 1 >|\+ 1 <= /],
  // Name lengths and their messages.
  ['app/validation/names.ts', /must be at least 2 characters|\.min\(2,/],
  // A list's search: `?q=` read, limited and refused only by readSearch, never cut to a length
  // (a cut query answers something else than was asked) nor limited by a number of its own.
  [
    'app/validation/search.ts',
    /\.slice\(0,\s*(?:100|200)\)|\bget\(\s*['"]q['"]\s*\)|(?:search|\bq\b).*\b(?:100|200)\b/i,
  ],
  // Conform's constraints only through formConstraint.
  ['app/components/forms.tsx', /getZodConstraint\(/],
  // Each image purpose's maxima, which the browser scales to before the server does again.
  [
    'app/validation/images.ts',
    /(profilePicture|logo|background|brandLogo|favicon): \{ width|width: \d+, height: \d+, quality/,
  ],
  // Who may see a card, and whether it is public (cacheable for everyone): a visibility
  // compared or switched on anywhere but the rule's home.
  [
    'app/cards/card-visibility.ts',
    /\bvisibility\s*[!=]==?\s*['"](public|contacts|private)['"]|case ['"](public|team|contacts|private)['"]:/,
  ],
  // Whether a device can write NFC (Web NFC, never on iOS): the QR screen and the home's tile.
  ['app/utils/nfc.ts', /['"]NDEFReader['"] in/],
])('%s is the only home of its rule', (home, copy) => {
  expect(copiesOutside(home, copy)).toEqual([])
})

// Issue 40 point 4: the rules below are stated by their home only; the patterns are built from
// the homes' own values, so a changed number is still looked for.
describe('no schema, email or screen states a rule again', () => {
  const passwordNumbers = literal(
    PASSWORD_MIN_LENGTH,
    STAFF_PASSWORD_MIN_LENGTH,
    PASSWORD_MAX_LENGTH,
  )
  const day = 24 * 60 * 60
  test.each([
    [
      'password lengths',
      'app/validation/passwords.ts',
      new RegExp(
        // A password field's .min/.max with a number, a message or hint with one, or "Password
        // must be" typed out.
        `passw.*\\.(?:min|max)\\(\\s*\\d|passw.*${passwordNumbers}|at least ${literal(PASSWORD_MIN_LENGTH, STAFF_PASSWORD_MIN_LENGTH)} characters|Password must be at`,
        'i',
      ),
    ],
    [
      'link lifetimes',
      ['app/validation/token-lifetimes.ts', 'app/validation/invitation-lifetime.ts'],
      // A lifetime in words beside what a link does, or a link's TTL as a product of numbers.
      /\b(?:expires?|valid|works? for|lasts)\b[^`'"]*\b\d+\s*(?:minutes?|hours?|days?)\b|\b(?:LINK|TOKEN|OWNER|RESET|CONFIRMATION|SET_PASSWORD)\w*TTL\w*\s*=\s*\d/i,
    ],
    [
      'link lifetimes in milliseconds',
      ['app/validation/token-lifetimes.ts', 'app/validation/invitation-lifetime.ts'],
      new RegExp(
        `(?:TTL|expires).*(?:\\d+ \\* 24 \\* 60|7 \\* 24 \\* 60|${7 * day * 1000}|60 \\* 60 \\* 1000|${day * 1000}|30 \\* 60_?000)`,
        'i',
      ),
    ],
    [
      "a person's names",
      'app/validation/names.ts',
      /['"`](?:First|Last) name (?:is required|must be)|Please enter your first and last name/,
    ],
    [
      'plan limits and names',
      ['app/validation/plans.ts', 'app/billing/plan-limits.ts'],
      /up to \d+ (?:team )?(?:members|end users)|(?:memberLimit|staffLimit|endUserLimit)\s*[<>=]+\s*[1-9]|'(?:Team Basic|Team Pro|Agency Pro|Team Member Basic)'/i,
    ],
    [
      "the owner's note on a contact they type in",
      'app/validation/contact-fields.ts',
      new RegExp(`The note is too long|note.*${literal(CONTACT_NOTE_MAX_LENGTH)}`),
    ],
    [
      "a company's name and a phone number",
      'app/validation/card-details.ts',
      new RegExp(
        `(?:company|phone)\\w*:.*\\(\\s*${literal(COMPANY_MAX_LENGTH, PHONE_MAX_LENGTH)}|(?:Company|Phone) must be at most \\d`,
        'i',
      ),
    ],
    [
      'the agency slug',
      ['app/validation/agency-slug.ts', 'app/validation/slug-words.ts'],
      new RegExp(
        `\\{${AGENCY_SLUG_MIN_LENGTH},${AGENCY_SLUG_MAX_LENGTH}\\}|slug.*\\.max\\(\\s*${AGENCY_SLUG_MAX_LENGTH}\\b|\\.slice\\(0,\\s*${AGENCY_SLUG_MAX_LENGTH}\\)|${AGENCY_SLUG_MIN_LENGTH} to ${AGENCY_SLUG_MAX_LENGTH} lower-case|normalize\\(['"]NFKD['"]\\)|\\[\\\\u0300-\\\\u036f\\]|new Set\\(\\[\\s*'www'`,
      ),
    ],
  ] as const)('%s: only in %s', (_rule, homes, copy) => {
    expect(copiesOutside([homes].flat(), copy, true)).toEqual([])
  })

  test('the homes themselves build their texts from their numbers', () => {
    const home = (file: string) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .filter((line) => !isComment(line))
        .join('\n')
    // The plans' features and messages: a limit typed in a text would not follow the number.
    for (const file of ['app/validation/plans.ts', 'app/billing/plan-limits.ts']) {
      expect(home(file)).not.toMatch(/up to \d/i)
    }
    expect(home('app/validation/token-lifetimes.ts')).not.toMatch(/expires in \d/)
    expect(home('app/validation/passwords.ts')).not.toMatch(/at (least|most) \d/)
  })
})

/** The message a schema gives for `field` when parsing `value`, or null when it has none. */
function messageFor(schema: z.ZodType, value: Record<string, unknown>, field: string) {
  const result = schema.safeParse(value)
  if (result.success) return null
  return result.error.issues.find((issue) => issue.path[0] === field)?.message ?? null
}

const chars = (n: number) => 'a'.repeat(n)
const email = 'ada@example.test'

describe('passwords follow their home (accounts-cards-sharing.md §5, roles-teams-admin.md §8)', () => {
  // Every form where someone chooses (or signs in with) their own password: [name, schema, the
  // rest of a valid form, the password's field, the fields that take the same value].
  const ownPassword = [
    ['sign-in', LoginSchema, { email }, 'password', []],
    ['sign-up', RegisterSchema, { firstName: 'Ada', lastName: 'Lovelace', email }, 'password', []],
    ['reset', ResetPasswordSchema, { token: 't' }, 'password', ['confirmPassword']],
    ['reset (confirm)', ResetPasswordSchema, { token: 't' }, 'confirmPassword', ['password']],
    [
      'change',
      ChangePasswordSchema,
      { currentPassword: 'old' },
      'newPassword',
      ['confirmPassword'],
    ],
    ['rotation', NewPasswordSchema, {}, 'password', ['confirmPassword']],
  ] as const
  test.each(ownPassword)('%s', (_form, schema, rest, field, same) => {
    const withPassword = (password: string) => ({
      ...rest,
      [field]: password,
      ...Object.fromEntries(same.map((other) => [other, password])),
    })
    const short = withPassword(chars(PASSWORD_MIN_LENGTH - 1))
    expect(messageFor(schema, short, field)).toBe(PASSWORD_TOO_SHORT)
    expect(messageFor(schema, withPassword(chars(PASSWORD_MIN_LENGTH)), field)).toBeNull()
    expect(messageFor(schema, withPassword(chars(PASSWORD_MAX_LENGTH)), field)).toBeNull()
    const long = withPassword(chars(PASSWORD_MAX_LENGTH + 1))
    expect(messageFor(schema, long, field)).toBe(PASSWORD_TOO_LONG)
  })

  test('a team member’s password typed by an admin: the staff minimum', () => {
    const form = (password?: string) => ({
      intent: 'add-member',
      name: 'Ada Lovelace',
      email,
      staffTitle: 'administrator',
      access: 'super_admin',
      password,
    })
    const add = STAFF_FORM_SCHEMAS.platform.add
    const short = chars(STAFF_PASSWORD_MIN_LENGTH - 1)
    expect(messageFor(add, form(short), 'password')).toBe(STAFF_PASSWORD_TOO_SHORT)
    expect(messageFor(add, form(chars(STAFF_PASSWORD_MIN_LENGTH)), 'password')).toBeNull()
    expect(messageFor(add, form(undefined), 'password')).toBe(STAFF_PASSWORD_TOO_SHORT)
    const long = chars(PASSWORD_MAX_LENGTH + 1)
    expect(messageFor(add, form(long), 'password')).toBe(PASSWORD_TOO_LONG)
    // Edit (and an agency's Add) keep an empty password; one typed follows the same minimum.
    const edit = {
      ...form(short),
      intent: 'edit-member',
      userId: '00000000-0000-4000-8000-000000000000',
    }
    const agencyAdd = { ...form(short), staffTitle: 'team_admin', access: 'agency_admin' }
    for (const [schema, value] of [
      [STAFF_FORM_SCHEMAS.platform.edit, edit],
      [STAFF_FORM_SCHEMAS.agency.add, agencyAdd],
    ] as const) {
      expect(messageFor(schema, value, 'password')).toBe(STAFF_PASSWORD_TOO_SHORT)
      expect(messageFor(schema, { ...value, password: '' }, 'password')).toBeNull()
    }
  })

  test('passwords typed to prove who one is: any length up to the maximum', () => {
    expect(messageFor(DeleteAccountSchema, { password: 'x' }, 'password')).toBeNull()
    const long = { password: chars(PASSWORD_MAX_LENGTH + 1) }
    expect(messageFor(DeleteAccountSchema, long, 'password')).toBe(PASSWORD_TOO_LONG)
  })

  test('the messages are the spec’s', () => {
    expect(PASSWORD_MIN_LENGTH).toBe(6)
    expect(STAFF_PASSWORD_MIN_LENGTH).toBe(8)
    expect(PASSWORD_TOO_SHORT).toBe('Password must be at least 6 characters')
    expect(STAFF_PASSWORD_TOO_SHORT).toBe('Password must be at least 8 characters')
    expect(PASSWORDS_DO_NOT_MATCH).toBe('Passwords do not match')
    const mismatch = { token: 't', password: chars(8), confirmPassword: chars(9) }
    expect(messageFor(ResetPasswordSchema, mismatch, 'confirmPassword')).toBe(
      'Passwords do not match',
    )
  })
})

describe("a person's names follow their home (accounts-cards-sharing.md §5)", () => {
  const person = { firstName: 'Ada', lastName: 'Lovelace' }
  test('sign-up: at least NAME_MIN_LENGTH each', () => {
    const form = { ...person, email, password: chars(PASSWORD_MIN_LENGTH) }
    for (const [field, label] of [
      ['firstName', 'First name'],
      ['lastName', 'Last name'],
    ] as const) {
      const short = { ...form, [field]: chars(NAME_MIN_LENGTH - 1) }
      expect(messageFor(RegisterSchema, short, field)).toBe(nameTooShort(label))
      const enough = { ...form, [field]: chars(NAME_MIN_LENGTH) }
      expect(messageFor(RegisterSchema, enough, field)).toBeNull()
      const long = { ...form, [field]: chars(PERSON_NAME_MAX_LENGTH + 1) }
      expect(messageFor(RegisterSchema, long, field)).toBe(
        nameTooLong(label, PERSON_NAME_MAX_LENGTH),
      )
    }
    expect(nameTooShort('First name')).toBe('First name must be at least 2 characters')
    expect(nameTooShort('Last name')).toBe('Last name must be at least 2 characters')
  })

  test('the profile and card forms: required', () => {
    const card = { title: 'Work' }
    for (const [schema, rest] of [
      [ProfileSchema, { email }],
      [CardDetailsSchema, card],
    ] as const) {
      for (const [field, label] of [
        ['firstName', 'First name'],
        ['lastName', 'Last name'],
      ] as const) {
        expect(messageFor(schema, { ...rest, ...person, [field]: '  ' }, field)).toBe(
          nameRequired(label),
        )
        expect(messageFor(schema, { ...rest, ...person, [field]: undefined }, field)).toBe(
          nameRequired(label),
        )
        expect(messageFor(schema, { ...rest, ...person, [field]: 'A' }, field)).toBeNull()
        const long = { ...rest, ...person, [field]: chars(PERSON_NAME_MAX_LENGTH + 1) }
        expect(messageFor(schema, long, field)).not.toBeNull()
      }
    }
    expect(nameRequired('First name')).toBe('First name is required')
    expect(nameRequired('Last name')).toBe('Last name is required')
  })

  test('the wizard: both non-empty after trimming, one message', () => {
    expect(messageFor(WizardNameSchema, { firstName: 'A', lastName: 'B' }, 'firstName')).toBeNull()
    expect(messageFor(WizardNameSchema, { firstName: ' ', lastName: 'B' }, 'firstName')).toBe(
      BOTH_NAMES_REQUIRED,
    )
    expect(messageFor(WizardNameSchema, { firstName: 'A' }, 'firstName')).toBe(BOTH_NAMES_REQUIRED)
    expect(BOTH_NAMES_REQUIRED).toBe('Please enter your first and last name')
  })
})

describe('link lifetimes follow their home', () => {
  const branding = {
    name: 'Acme',
    primaryColor: '#000000',
    logoUrl: null,
    origin: 'https://acme.test',
    legal: NO_LEGAL_LINKS,
  }
  test('each email says its link’s lifetime from the home', () => {
    const setPassword = accountCreatedEmail({
      branding,
      to: email,
      firstName: 'Ada',
      createdBy: 'Grace',
      setPasswordUrl: 'https://acme.test/x',
    })
    expect(setPassword.text).toContain(linkWorksOnce(SET_PASSWORD_LINK))
    const reset = passwordResetEmail({
      branding,
      to: email,
      firstName: 'Ada',
      resetUrl: 'https://acme.test/x',
    })
    expect(reset.text).toContain(`expires in ${PASSWORD_RESET_LINK.words}`)
    const confirm = confirmEmailEmail({
      branding,
      to: email,
      firstName: 'Ada',
      confirmUrl: 'https://acme.test/x',
    })
    expect(confirm.text).toContain(`expires in ${EMAIL_CONFIRMATION_LINK.words}`)
    const enrolment = twoFactorEnrolmentEmail({
      branding,
      to: email,
      firstName: 'Ada',
      confirmUrl: 'https://acme.test/x',
    })
    expect(enrolment.text).toContain(`expires in ${TWO_FACTOR_ENROLMENT_LINK.words}`)
  })

  test('the numbers and their words agree', () => {
    expect(SET_PASSWORD_LINK).toEqual({ ms: 7 * 24 * 60 * 60 * 1000, words: '7 days' })
    expect(PASSWORD_RESET_LINK).toEqual({ ms: 60 * 60 * 1000, words: '1 hour' })
    expect(EMAIL_CONFIRMATION_LINK).toEqual({ ms: 24 * 60 * 60 * 1000, words: '24 hours' })
    expect(TWO_FACTOR_ENROLMENT_LINK).toEqual({ ms: 30 * 60 * 1000, words: '30 minutes' })
  })
})

describe('plan limits follow their homes', () => {
  test('each plan’s texts say its own limit', () => {
    for (const plan of Object.values(PLANS)) {
      if (plan.memberLimit === 0) continue
      expect(plan.features).toContain(`Up to ${plan.memberLimit} team members`)
    }
    expect(memberLimitMessage(PLANS.team_basic)).toContain(
      `Upgrade to ${PLANS.team_pro.name} for up to ${PLANS.team_pro.memberLimit}.`,
    )
    expect(SOLD_PLAN_NAMES.team_basic).toBe(PLANS.team_basic.name)
    expect(staffLimitMessage('free')).toContain(`up to ${STAFF_LIMITS.free} team members`)
    expect(endUserLimitMessage('free', 'Ada')).toContain(`up to ${END_USER_LIMITS.free} end users`)
  })

  test('one seat rule: the limit itself fits, one more does not', () => {
    const basic = PLANS.team_basic.memberLimit
    expect(fitsOneMore(PLANS.team_basic, { members: basic - 1, pendingInvitations: 0 })).toBe(true)
    expect(fitsOneMore(PLANS.team_basic, { members: basic - 2, pendingInvitations: 1 })).toBe(true)
    expect(fitsOneMore(PLANS.team_basic, { members: basic - 1, pendingInvitations: 1 })).toBe(false)
    expect(fitsOneMore(PLANS.free, { members: 0, pendingInvitations: 0 })).toBe(false)
    const free = STAFF_LIMITS.free ?? 0
    expect(fitsStaff('free', free - 1)).toBe(true)
    expect(fitsStaff('free', free)).toBe(false)
    expect(fitsStaff('enterprise', 10_000)).toBe(true)
    expect(fitsEndUser('team_member_basic', TEAM_MEMBER_BASIC.endUserLimit - 1)).toBe(true)
    expect(fitsEndUser('team_member_basic', TEAM_MEMBER_BASIC.endUserLimit)).toBe(false)
  })

  test('the spec’s numbers (roles-teams-admin.md §9)', () => {
    expect(PLANS.team_basic.memberLimit).toBe(3)
    expect(PLANS.team_pro.memberLimit).toBe(10)
    expect(STAFF_LIMITS.professional).toBe(25)
    expect(TEAM_MEMBER_BASIC.endUserLimit).toBe(10)
  })
})

describe('the agency slug follows its home', () => {
  const form = (slug: string) => ({
    intent: 'create',
    name: 'Acme Agency',
    slug,
    ownerName: 'Ada Lovelace',
    email,
    subscription: 'free',
  })
  test('the Agencies form refuses what the rule refuses, with its message', () => {
    const slugMessage = (slug: string) => messageFor(CreateAgencySchema, form(slug), 'slug')
    expect(slugMessage(chars(AGENCY_SLUG_MIN_LENGTH - 1))).toBe(SLUG_INVALID)
    expect(slugMessage(chars(AGENCY_SLUG_MIN_LENGTH))).toBeNull()
    expect(slugMessage(chars(AGENCY_SLUG_MAX_LENGTH))).toBeNull()
    expect(slugMessage(chars(AGENCY_SLUG_MAX_LENGTH + 1))).toBe(SLUG_INVALID)
    expect(slugMessage('-acme')).toBe(SLUG_INVALID)
    for (const reserved of RESERVED_SUBDOMAINS) {
      expect(slugMessage(reserved)).toBe(SLUG_INVALID)
      expect(classifyHost(`${reserved}.brandcard.test`, 'brandcard.test').kind).not.toBe(
        'subdomain',
      )
    }
    expect(SLUG_INVALID).toBe(
      'Use 2 to 40 lower-case letters, digits or hyphens, not starting or ending with a hyphen',
    )
  })

  test('a slug made from a name obeys the rule; a card’s short link takes the same steps', () => {
    const long = 'Ça Été Une Très Longue Agence De Cartes Numériques Pour Tous'
    const made = slugFromName(long)
    expect(made.length).toBeLessThanOrEqual(AGENCY_SLUG_MAX_LENGTH)
    expect(isValidAgencySlug(made)).toBe(true)
    expect(made.startsWith('ca-ete-une-tres')).toBe(true)
    expect(slugBaseFromName('Zoë', 'Ångström')).toBe('zoe-angstrom')
    const base = slugBaseFromName('Ça Été', 'Une Très Longue Agence')
    expect(base.length).toBeLessThanOrEqual(SLUG_MAX_LENGTH - 3)
    expect(base.length).toBeGreaterThanOrEqual(SLUG_MIN_LENGTH)
    expect(made.startsWith(base)).toBe(true)
  })
})

test('the homes hold the spec’s numbers and texts', () => {
  expect(MAX_UPLOAD_BYTES).toBe(5 * 1024 * 1024)
  expect(INVALID_IMAGE_MESSAGE).toBe(
    'Invalid file. Please upload a JPG, PNG, or WebP image under 5MB.',
  )
  expect(isAcceptedImageFile({ size: MAX_UPLOAD_BYTES, type: 'image/gif' })).toBe(true)
  expect(isAcceptedImageFile({ size: MAX_UPLOAD_BYTES + 1, type: 'image/png' })).toBe(false)
  expect(isAcceptedImageFile({ size: 10, type: 'image/svg+xml' })).toBe(false)
  expect(IMAGE_PURPOSES.profilePicture).toMatchObject({ width: 500, height: 500 })
  expect(IMAGE_PURPOSES.favicon).toMatchObject({ width: 32, height: 32, exact: true })
  expect(INVITATION_TTL_MS).toBe(7 * 24 * 60 * 60 * 1000)
  expect(INVITATIONS_VALID_FOR).toBe('Invitations are valid for 7 days.')
  expect(TEAM_NAME_TOO_SHORT).toBe('Team name must be at least 2 characters')
  expect(TEAM_NAME_TOO_LONG).toBe('Team name must be at most 50 characters')
  expect(SEARCH_TOO_LONG_MESSAGE).toBe('Search must be at most 100 characters')
  const long = 'a'.repeat(SEARCH_MAX_LENGTH + 1)
  expect(readSearch(new URLSearchParams({ q: ` ${'a'.repeat(SEARCH_MAX_LENGTH)} ` }))).toEqual({
    q: 'a'.repeat(SEARCH_MAX_LENGTH),
    searchError: null,
  })
  expect(readSearch(new URLSearchParams({ q: long }))).toEqual({
    q: long,
    searchError: SEARCH_TOO_LONG_MESSAGE,
  })
  // What the box shows again of a refused query is cut for display only.
  expect(readSearch(new URLSearchParams({ q: 'a'.repeat(1000) })).q).toHaveLength(200)
  expect(readSearch(new URLSearchParams())).toEqual({ q: '', searchError: null })
})

test('NFC writing: Web NFC, and iOS treated as unsupported (spec §5)', () => {
  const android = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/140.0 Mobile'
  const iphone = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15'
  const ipad = 'Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15'
  expect(canWriteNfc(android, true)).toBe(true)
  expect(canWriteNfc(android, false)).toBe(false)
  expect(canWriteNfc(iphone, true)).toBe(false)
  expect(canWriteNfc(ipad, true)).toBe(false)
})
