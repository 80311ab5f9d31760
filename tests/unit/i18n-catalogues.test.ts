// The visitor's language (issue 45 point 5, ADR 105): every catalogue has every key with the
// same placeholders, plurals follow the language's rules, and Accept-Language is negotiated
// within the host's languages.
import { describe, expect, test } from 'vitest'
import { ENROLMENT_LINK_FAILED_MESSAGE } from '#app/auth/enrolment-email.server'
import { PASSKEY_FAILED_MESSAGE } from '#app/auth/passkey-ceremonies.server'
import { WRONG_CODE_MESSAGE } from '#app/auth/two-factor.server'
import { rateLimitMessage } from '#app/rate-limits/rate-limit.server'
import { en, type MessageKey } from '#app/utils/i18n/catalogue-en'
import {
  acceptedLanguages,
  chooseLanguage,
  languageOfRequest,
  languagePreferenceKey,
} from '#app/utils/i18n/negotiate'
import { CATALOGUES, formatDateTime, translateEnglish, translator } from '#app/utils/i18n/translate'
import { pageLanguage } from '#app/utils/i18n/translated-pages'
import { ACCOUNT_EXISTS_MESSAGE } from '#app/validation/auth'
import { INVALID_CONFIRMATION_MESSAGE } from '#app/validation/email-confirmation'
import {
  LANGUAGE_DEFAULTS,
  LANGUAGES,
  LanguageSettingsSchema,
  readStoredLanguages,
} from '#app/validation/languages'
import { nameTooLong, nameTooShort } from '#app/validation/names'
import { ssoRequiredMessage } from '#app/validation/sso'
import { CODE_MESSAGE, RECOVERY_CODE_MESSAGE } from '#app/validation/two-factor'

const placeholders = (message: unknown): string[] => {
  const texts = typeof message === 'string' ? [message] : Object.values(message as object)
  return [
    ...new Set(
      texts.flatMap((text) => [...String(text).matchAll(/\{(\w+)\}/g)].map((m) => m[1] ?? '')),
    ),
  ].sort()
}

describe('catalogues', () => {
  const keys = Object.keys(en) as MessageKey[]

  test.each(LANGUAGES)('%s has every key of English and no other', (language) => {
    expect(Object.keys(CATALOGUES[language]).sort()).toEqual([...keys].sort())
  })

  test.each(LANGUAGES)('%s keeps the placeholders of every English message', (language) => {
    for (const key of keys) {
      expect({ key, placeholders: placeholders(CATALOGUES[language][key]) }).toEqual({
        key,
        placeholders: placeholders(en[key]),
      })
    }
  })

  test.each(LANGUAGES)(
    '%s: a plural is a plural in every language, in its categories',
    (language) => {
      const categories = new Intl.PluralRules(language).resolvedOptions().pluralCategories
      for (const key of keys) {
        const message = CATALOGUES[language][key]
        expect(typeof message).toBe(typeof en[key])
        if (typeof message === 'string') {
          expect(message.trim(), `${language} ${key}`).not.toBe('')
          continue
        }
        expect(message.other, `${language} ${key}`).toBeTruthy()
        for (const form of Object.keys(message)) expect(categories).toContain(form)
      }
    },
  )

  test('English keeps the spec texts (they are the contract)', () => {
    const t = translator('en')
    expect(t('card.saveContact')).toBe('Save Contact')
    expect(t('card.connectWith', { firstName: 'Ada' })).toBe('Connect with Ada')
    expect(t('card.notFoundText')).toBe(
      "Sorry, we couldn't find the contact card you're looking for.",
    )
    expect(t('lead.thanks', { firstName: 'Ada' })).toBe('Thanks! Ada will be in touch.')
  })

  test('plurals by Intl.PluralRules, numbers by Intl.NumberFormat', () => {
    expect(translator('en')('lead.phoneTooLong', { count: 1 })).toBe(
      'Phone must be at most 1 character',
    )
    expect(translator('en')('lead.phoneTooLong', { count: 50 })).toBe(
      'Phone must be at most 50 characters',
    )
    expect(translator('fr')('lead.companyTooLong', { count: 1 })).toContain('1 caractère')
    expect(translator('nl')('lead.companyTooLong', { count: 200 })).toContain('200 tekens')
    expect(translator('de')('lead.companyTooLong', { count: 1000 })).toContain('1.000 Zeichen')
  })

  test('dates by Intl.DateTimeFormat in the language', () => {
    const date = new Date(Date.UTC(2026, 2, 4, 9, 30))
    expect(formatDateTime(date, 'en')).toContain('March 4, 2026')
    expect(formatDateTime(date, 'de')).toContain('4. März 2026')
    expect(formatDateTime(date, 'fr')).toContain('4 mars 2026')
    expect(formatDateTime(date, 'es')).toContain('4 de marzo de 2026')
    expect(formatDateTime(date, 'nl')).toContain('4 maart 2026')
  })

  test('a shared schema’s English message in the visitor’s language, others as they are', () => {
    const t = translator('de')
    expect(translateEnglish('Please enter your name', t)).toBe('Bitte geben Sie Ihren Namen ein')
    expect(translateEnglish('Phone must be at most 50 characters', t)).toBe(
      'Die Telefonnummer darf höchstens 50 Zeichen haben',
    )
    expect(translateEnglish('Something else entirely', t)).toBe('Something else entirely')
  })

  test('the sign-in’s refusals made below, by pattern: the limit, single sign-on, name lengths', () => {
    const de = translator('de')
    const en = translator('en')
    // The limit, with its minutes in the language's plural; English as the limit writes it.
    expect(rateLimitMessage(60)).toBe('Too many attempts. Please wait 1 minute and try again.')
    expect(rateLimitMessage(14 * 60 + 1)).toBe(
      'Too many attempts. Please wait 15 minutes and try again.',
    )
    expect(translateEnglish(rateLimitMessage(60), de)).toBe(
      'Zu viele Versuche. Bitte warten Sie 1 Minute und versuchen Sie es dann erneut.',
    )
    expect(translateEnglish(rateLimitMessage(900), translator('fr'))).toBe(
      'Trop de tentatives. Veuillez patienter 15 minutes et réessayer.',
    )
    expect(translateEnglish(rateLimitMessage(900), en)).toBe(rateLimitMessage(900))
    // The agency's single sign-on, naming its domain.
    const sso = ssoRequiredMessage('acme.example')
    expect(sso).toBe(
      'Addresses at acme.example sign in with single sign-on. Use "Sign in with SSO" instead.',
    )
    expect(translateEnglish(sso, de)).toBe(
      'Adressen bei acme.example melden sich mit Single Sign-on an. Verwenden Sie stattdessen „Mit SSO anmelden“.',
    )
    expect(translateEnglish(sso, en)).toBe(sso)
    // Sign-up's names: the label and the number in the language.
    expect(translateEnglish(nameTooShort('First name'), de)).toBe(
      'Vorname muss mindestens 2 Zeichen lang sein',
    )
    expect(translateEnglish(nameTooLong('Last name', 100), translator('nl'))).toBe(
      'Achternaam mag hoogstens 100 tekens lang zijn',
    )
    expect(translateEnglish(nameTooShort('First name'), en)).toBe(nameTooShort('First name'))
  })

  test('the second step’s and sign-up’s messages: English as the schemas write them, translated', () => {
    const de = translator('de')
    for (const message of [
      CODE_MESSAGE,
      RECOVERY_CODE_MESSAGE,
      WRONG_CODE_MESSAGE,
      ENROLMENT_LINK_FAILED_MESSAGE,
      PASSKEY_FAILED_MESSAGE,
      ACCOUNT_EXISTS_MESSAGE,
      INVALID_CONFIRMATION_MESSAGE,
    ]) {
      expect(translateEnglish(message, translator('en'))).toBe(message)
      expect(translateEnglish(message, de)).not.toBe(message)
    }
    expect(translateEnglish(WRONG_CODE_MESSAGE, de)).toBe(
      'Dieser Code stimmt nicht. Bitte versuchen Sie es erneut.',
    )
    expect(de('twoFactor.emailedLink', { email: 'a@b.test', count: 30 })).toContain('30 Minuten')
    expect(translator('es')('signUp.passwordHint', { count: 6 })).toBe('Al menos 6 caracteres.')
  })
})

describe('negotiation', () => {
  test('the accepted product languages in the browser’s order, regional tags matching', () => {
    expect(acceptedLanguages('de-DE,de;q=0.9,en;q=0.8')).toEqual(['de', 'en'])
    expect(acceptedLanguages('fr-CH, es;q=0.5, nl;q=0.7')).toEqual(['fr', 'nl', 'es'])
    expect(acceptedLanguages('ja, zh-CN')).toEqual([])
    expect(acceptedLanguages('de;q=0, en')).toEqual(['en'])
    expect(acceptedLanguages('')).toEqual([])
    expect(acceptedLanguages(null)).toEqual([])
  })

  test('the first offered language, else the host’s default', () => {
    const settings = { defaultLanguage: 'nl' as const, languages: ['en' as const, 'nl' as const] }
    expect(chooseLanguage(['de', 'en'], settings)).toBe('en')
    expect(chooseLanguage(['de', 'fr'], settings)).toBe('nl')
    expect(chooseLanguage([], settings)).toBe('nl')
    expect(chooseLanguage(['de'], LANGUAGE_DEFAULTS)).toBe('de')
  })

  test('the switcher’s ?lang= wins when offered', () => {
    const settings = { defaultLanguage: 'en' as const, languages: ['en' as const, 'fr' as const] }
    const request = (url: string) => new Request(url, { headers: { 'Accept-Language': 'fr-FR' } })
    expect(languageOfRequest(request('http://a.localhost/card/x?lang=en'), settings)).toBe('en')
    expect(languageOfRequest(request('http://a.localhost/card/x?lang=de'), settings)).toBe('fr')
    expect(languageOfRequest(request('http://a.localhost/card/x'), settings)).toBe('fr')
  })

  test('only the card and sign-in pages speak the visitor’s language', () => {
    const german = (path: string) =>
      new Request(`http://a.localhost${path}`, { headers: { 'Accept-Language': 'de' } })
    expect(pageLanguage(german('/card/abc'), LANGUAGE_DEFAULTS)).toBe('de')
    expect(pageLanguage(german('/c/ada'), LANGUAGE_DEFAULTS)).toBe('de')
    expect(pageLanguage(german('/contact/abc'), LANGUAGE_DEFAULTS)).toBe('de')
    expect(pageLanguage(german('/auth/login'), LANGUAGE_DEFAULTS)).toBe('de')
    expect(pageLanguage(german('/auth/reset-password'), LANGUAGE_DEFAULTS)).toBe('de')
    expect(pageLanguage(german('/auth/register'), LANGUAGE_DEFAULTS)).toBe('de')
    expect(pageLanguage(german('/auth/two-factor'), LANGUAGE_DEFAULTS)).toBe('de')
    expect(pageLanguage(german('/auth/two-factor.data'), LANGUAGE_DEFAULTS)).toBe('de')
    expect(pageLanguage(german('/auth/confirm-email'), LANGUAGE_DEFAULTS)).toBe('de')
    // Not in the catalogues (ADR 105): English, and `lang="en"` says so.
    expect(pageLanguage(german('/auth/sso'), LANGUAGE_DEFAULTS)).toBe('de')
    expect(pageLanguage(german('/auth/sso/callback'), LANGUAGE_DEFAULTS)).toBe('en')
    expect(pageLanguage(german('/account/two-factor'), LANGUAGE_DEFAULTS)).toBe('en')
    expect(pageLanguage(german('/dashboard/end-user'), LANGUAGE_DEFAULTS)).toBe('en')
  })

  test('the page cache key part depends only on the ranked product languages', () => {
    expect(languagePreferenceKey('de-DE,de;q=0.9,en;q=0.8')).toBe('de,en')
    expect(languagePreferenceKey('de-AT,en-GB;q=0.5')).toBe('de,en')
    expect(languagePreferenceKey(undefined)).toBe('')
  })
})

describe('settings', () => {
  test('at least one language, and the default among them', () => {
    expect(LanguageSettingsSchema.safeParse({ defaultLanguage: 'de', languages: [] }).success).toBe(
      false,
    )
    const notOffered = LanguageSettingsSchema.safeParse({
      defaultLanguage: 'de',
      languages: ['en'],
    })
    expect(notOffered.error?.issues[0]?.message).toBe('The default language must be one you offer')
    expect(
      LanguageSettingsSchema.parse({ defaultLanguage: 'de', languages: ['nl', 'de', 'de'] }),
    ).toEqual({ defaultLanguage: 'de', languages: ['de', 'nl'] })
  })

  test('anything unusable stored reads as no choice', () => {
    expect(readStoredLanguages({ defaultLanguage: 'xx', languages: ['en'] })).toBeNull()
    expect(readStoredLanguages(undefined)).toBeNull()
  })
})
