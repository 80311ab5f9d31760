// The languages a host's visitor pages speak (ADR 105): which ones it offers and the one for a
// browser that asks for none of them. On the agency's Branding screen and in the super admin's
// System Settings. Its form sits outside any surrounding form (forms do not nest); its fields
// and button join it by id, like the consent text's.
import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { Form, useActionData, useNavigation } from '@remix-run/react'
import { Languages } from 'lucide-react'
import { ErrorList, useSchemaForm } from '#app/components/forms'
import { SELECT_CLASS } from '#app/components/ui/select'
import { StatusButton } from '#app/components/ui/status-button'
import { Subsection } from '#app/components/ui/titled-section'
import {
  LANGUAGE_NAMES,
  LANGUAGES,
  LANGUAGES_INTENT,
  type LanguageSettings,
  LanguageSettingsFormSchema,
} from '#app/validation/languages'

export function useLanguageSettingsForm() {
  const data = useActionData() as
    | { intent: string | null; result?: SubmissionResult<string[]> }
    | undefined
  return useSchemaForm(LanguageSettingsFormSchema, {
    id: 'language-settings-form',
    lastResult: data?.intent === LANGUAGES_INTENT ? data.result : undefined,
  })
}

type LanguageForm = ReturnType<typeof useLanguageSettingsForm>

/** The outer form; render it outside any other form. */
export function LanguageSettingsForm({ form }: { form: LanguageForm[0] }) {
  return <Form method="POST" replace preventScrollReset {...getFormProps(form)} />
}

export function LanguageSettingsSection({
  settings,
  canManage,
  languageForm,
  description,
}: {
  settings: LanguageSettings
  canManage: boolean
  languageForm: LanguageForm
  description: string
}) {
  const [form, fields] = languageForm
  const navigation = useNavigation()
  const saving =
    navigation.state !== 'idle' && navigation.formData?.get('intent') === LANGUAGES_INTENT
  const offeredErrors = fields.languages.errors
  return (
    <Subsection id="language-settings-title" icon={Languages} title="Languages" testId="languages">
      <p className="text-sm text-gray-600 dark:text-gray-400">{description}</p>
      <fieldset
        className="flex flex-col gap-2"
        aria-describedby={offeredErrors?.length ? fields.languages.errorId : undefined}
      >
        <legend className="mb-1 text-sm font-medium">Offered languages</legend>
        <div className="flex flex-wrap gap-x-5 gap-y-2">
          {LANGUAGES.map((language) => (
            <label key={language} className="flex min-h-6 items-center gap-2 text-sm">
              <input
                type="checkbox"
                name={fields.languages.name}
                value={language}
                form={form.id}
                defaultChecked={settings.languages.includes(language)}
                disabled={!canManage}
                className="h-4 w-4 rounded border-gray-300 dark:border-gray-700"
              />
              <span lang={language}>{LANGUAGE_NAMES[language]}</span>
            </label>
          ))}
        </div>
        <ErrorList id={fields.languages.errorId} errors={offeredErrors} />
      </fieldset>
      <div className="flex flex-col gap-1.5">
        <label htmlFor={fields.defaultLanguage.id} className="text-sm font-medium">
          Default language
        </label>
        <select
          id={fields.defaultLanguage.id}
          name={fields.defaultLanguage.name}
          form={form.id}
          defaultValue={settings.defaultLanguage}
          disabled={!canManage}
          aria-invalid={fields.defaultLanguage.errors?.length ? true : undefined}
          aria-describedby={
            fields.defaultLanguage.errors?.length ? fields.defaultLanguage.errorId : undefined
          }
          className={SELECT_CLASS}
        >
          {LANGUAGES.map((language) => (
            <option key={language} value={language} lang={language}>
              {LANGUAGE_NAMES[language]}
            </option>
          ))}
        </select>
        <ErrorList id={fields.defaultLanguage.errorId} errors={fields.defaultLanguage.errors} />
      </div>
      {canManage ? (
        <StatusButton
          type="submit"
          form={form.id}
          name="intent"
          value={LANGUAGES_INTENT}
          variant="secondary"
          pending={saving}
          pendingText="Saving..."
          className="self-start"
        >
          Save languages
        </StatusButton>
      ) : null}
    </Subsection>
  )
}

/** The section with its own form beside it, where no other form surrounds it. */
export function LanguageSettingsPanel({
  settings,
  description,
}: {
  settings: LanguageSettings
  description: string
}) {
  const languageForm = useLanguageSettingsForm()
  return (
    <>
      <LanguageSettingsForm form={languageForm[0]} />
      <LanguageSettingsSection
        settings={settings}
        canManage
        languageForm={languageForm}
        description={description}
      />
    </>
  )
}
