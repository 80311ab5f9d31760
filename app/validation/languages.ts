// The languages the visitor-facing pages speak (issue 45 point 5, ADR 105), and the agency's
// choice of them: which it offers and which one a visitor gets whose browser asks for none of
// them. Shared by the Branding and System Settings forms and their actions.
import { z } from 'zod'

/** Base language subtags; the first is the product's own (the spec's texts are English). */
export const LANGUAGES = ['en', 'de', 'fr', 'es', 'nl'] as const
export type Language = (typeof LANGUAGES)[number]
export const SOURCE_LANGUAGE: Language = 'en'

/** Each language in its own words: what a switcher and the settings list show. */
export const LANGUAGE_NAMES: Record<Language, string> = {
  en: 'English',
  de: 'Deutsch',
  fr: 'Français',
  es: 'Español',
  nl: 'Nederlands',
}

export const isLanguage = (value: unknown): value is Language =>
  typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value)

export type LanguageSettings = { defaultLanguage: Language; languages: Language[] }

/** What an organization that never chose gets: every language, English first. */
export const LANGUAGE_DEFAULTS: LanguageSettings = {
  defaultLanguage: SOURCE_LANGUAGE,
  languages: [...LANGUAGES],
}

export const OFFER_ONE_LANGUAGE = 'Offer at least one language'
export const DEFAULT_MUST_BE_OFFERED = 'The default language must be one you offer'

const LanguageSchema = z.enum(LANGUAGES, { error: 'Choose a language from the list' })

const languageFields = {
  defaultLanguage: LanguageSchema,
  languages: z
    .array(LanguageSchema, { error: OFFER_ONE_LANGUAGE })
    .min(1, OFFER_ONE_LANGUAGE)
    // Kept in the product's order, once each, whatever order the form sent them in.
    .transform((chosen) => LANGUAGES.filter((language) => chosen.includes(language))),
}

/** The default among the offered languages, the message on the default's field. */
function defaultOffered<Schema extends z.ZodType<LanguageSettings>>(schema: Schema) {
  return schema.refine((value) => value.languages.includes(value.defaultLanguage), {
    message: DEFAULT_MUST_BE_OFFERED,
    path: ['defaultLanguage'],
    when: (payload) => typeof payload.value === 'object' && payload.value !== null,
  })
}

/** The settings: one default, a set of offered languages (checkboxes), the default among them. */
export const LanguageSettingsSchema = defaultOffered(z.object(languageFields))

/** What is stored (organization_settings.preferences.languages): anything else reads as none. */
export function readStoredLanguages(stored: unknown): LanguageSettings | null {
  const parsed = LanguageSettingsSchema.safeParse(stored)
  return parsed.success ? parsed.data : null
}

/** The form's intent on the Branding screen and in System Settings → General. */
export const LANGUAGES_INTENT = 'languages'
export const LanguageSettingsFormSchema = defaultOffered(
  z.object({ intent: z.literal(LANGUAGES_INTENT), ...languageFields }),
)

export const LANGUAGES_SAVED = 'Languages saved'
