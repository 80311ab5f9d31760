// Messages in a language (ADR 105): typed catalogues, `{name}` placeholders, plurals by
// Intl.PluralRules and dates by Intl.DateTimeFormat, so the card page carries no i18n runtime
// beyond the few strings it shows (the browser's Intl does the grammar).
import { type Language, SOURCE_LANGUAGE } from '#app/validation/languages'
import { PASSWORD_LENGTH_PATTERN } from '#app/validation/passwords'
import { SSO_REQUIRED_MESSAGE } from '#app/validation/sso'
import { de } from './catalogue-de'
import { type Catalogue, en, type MessageKey, type PluralMessage } from './catalogue-en'
import { es } from './catalogue-es'
import { fr } from './catalogue-fr'
import { nl } from './catalogue-nl'

export type { MessageKey } from './catalogue-en'

export const CATALOGUES: Record<Language, Catalogue> = { en, de, fr, es, nl }

type Values = Record<string, string | number>

const PLACEHOLDER = /\{(\w+)\}/g

function fill(text: string, values: Values, language: Language) {
  return text.replace(PLACEHOLDER, (whole, name: string) => {
    const value = values[name]
    if (value === undefined) return whole
    return typeof value === 'number' ? new Intl.NumberFormat(language).format(value) : value
  })
}

function pluralText(message: PluralMessage, count: number, language: Language) {
  const category = new Intl.PluralRules(language).select(count) as keyof PluralMessage
  return message[category] ?? message.other
}

export type Translate = (key: MessageKey, values?: Values) => string

/** `t(key, values)`: a plural message picks its form by `values.count`. */
export function translator(language: Language): Translate {
  const catalogue = CATALOGUES[language]
  return (key, values = {}) => {
    const message = catalogue[key] as string | PluralMessage
    const text =
      typeof message === 'string'
        ? message
        : pluralText(message, Number(values.count ?? 0), language)
    return fill(text, values, language)
  }
}

/** A route's meta in the page's language, which the root loader chose (ADR 105). */
export const rootTranslator = (matches: readonly { data?: unknown }[] | undefined) =>
  translator(
    (matches?.[0]?.data as { language?: Language } | undefined)?.language ?? SOURCE_LANGUAGE,
  )

/** A date and time as the language writes it, in UTC unless a time zone is given. */
export function formatDateTime(date: Date, language: Language, timeZone = 'UTC') {
  return new Intl.DateTimeFormat(language, {
    // dateStyle cannot name the zone: the parts spelled out, as `long` + `short` would show them.
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZone,
    timeZoneName: 'short',
  }).format(date)
}

/** The English text's key, for messages made in English below (zod schemas, refusals). */
const KEY_OF_ENGLISH = new Map<string, MessageKey>(
  (Object.entries(en) as [MessageKey, unknown][]).flatMap(([key, message]) =>
    typeof message === 'string' && !/\{\w+\}/.test(message) ? [[message, key]] : [],
  ),
)

/**
 * A message the shared schemas wrote in English, in the visitor's language when the catalogue
 * has it (the validation layer stays language-free: one schema for form and action).
 */
export function translateEnglish(message: string, t: Translate) {
  const key = KEY_OF_ENGLISH.get(message)
  if (key) return t(key)
  const tooLong = /^(Phone|Company) must be at most (\d+) characters$/.exec(message)
  if (tooLong) {
    const key = tooLong[1] === 'Phone' ? 'lead.phoneTooLong' : 'lead.companyTooLong'
    return t(key, { count: Number(tooLong[2]) })
  }
  const passwordLength = PASSWORD_LENGTH_PATTERN.exec(message)
  if (passwordLength) {
    const key = passwordLength[1] === 'least' ? 'password.tooShort' : 'password.tooLong'
    return t(key, { count: Number(passwordLength[2]) })
  }
  const nameLength = NAME_LENGTH.exec(message)
  if (nameLength) {
    const key = nameLength[2] === 'least' ? 'name.tooShort' : 'name.tooLong'
    const label = t(NAME_LABELS[nameLength[1] as keyof typeof NAME_LABELS])
    return t(key, { label, count: Number(nameLength[3]) })
  }
  const limited = TOO_MANY_ATTEMPTS.exec(message)
  if (limited) return t('signIn.tooManyAttempts', { count: Number(limited[1]) })
  const sso = SSO_REQUIRED.exec(message)
  if (sso) return t('signIn.useSso', { domain: sso[1] as string })
  return message
}

/** Sign-up's name fields, as `nameField` starts their messages (app/validation/names.ts). */
const NAME_LABELS = {
  'First name': 'signUp.firstName',
  'Last name': 'signUp.lastName',
  'Company name': 'signUp.companyName',
} as const satisfies Record<string, MessageKey>
const NAME_LENGTH = /^(First name|Last name|Company name) must be at (least|most) (\d+) characters$/
/** The limit's and the SSO refusal's English (their homes: the catalogue, app/validation/sso.ts). */
const TOO_MANY_ATTEMPTS = /^Too many attempts\. Please wait (\d+) minutes? and try again\.$/
const SSO_REQUIRED = new RegExp(
  `^${SSO_REQUIRED_MESSAGE.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace('{domain}', '(.+)')}$`,
)
