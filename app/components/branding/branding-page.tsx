// The agency's Branding screen (spec §2.12): Visual Branding, Domain Settings and Preview tabs
// around one form, so Save Changes saves every tab and the preview shows unsaved changes.
import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { Form, useActionData, useNavigation } from '@remix-run/react'
import { Eye, Globe, Palette } from 'lucide-react'
import { type InputHTMLAttributes, useId, useState } from 'react'
import { ErrorList, Field, FormMessage, useSchemaForm } from '#app/components/forms'
import { ImageField } from '#app/components/image-field'
import { ProfileTabs } from '#app/components/profile/profile-tabs'
import {
  LanguageSettingsForm,
  LanguageSettingsSection,
  useLanguageSettingsForm,
} from '#app/components/settings/language-settings'
import { Button } from '#app/components/ui/button'
import { StatusButton } from '#app/components/ui/status-button'
import { toast } from '#app/components/ui/toasts'
import type { DomainState } from '#app/domains/custom-domain-verification.server'
import type { SendingDomainState } from '#app/domains/sending-domain-verification.server'
import { BRANDING_DEFAULTS, BrandingSchema } from '#app/validation/branding'
import { isHexColor } from '#app/validation/color'
import { LANGUAGES_INTENT, type LanguageSettings } from '#app/validation/languages'
import type { LegalLinks } from '#app/validation/legal'
import { BrandingPreview } from './branding-preview'
import {
  ConsentTextForm,
  ConsentTextSection,
  type ConsentTextVersion,
  useConsentTextForm,
} from './consent-text'
import { DomainVerification, VerifyDomainForm } from './domain-verification'
import { SendingDomainForms, SendingDomainSection, useSendingDomainForm } from './sending-domain'

type Branding = {
  companyName: string
  primaryColor: string
  secondaryColor: string
  whiteLabelActive: boolean
  logoUrl: string | null
  faviconUrl: string | null
}

export type BrandingPageProps = {
  canManage: boolean
  branding: Branding
  legal: LegalLinks
  /** The card page footer's "Get your own card" address (ADR 083); empty for sign-up. */
  getYourOwnCardUrl: string
  domain: DomainState
  sendingDomain: SendingDomainState
  subdomainHost: string
  consentTexts: ConsentTextVersion[]
  /** The languages its visitor pages speak (ADR 105). */
  languages: LanguageSettings
}

function ColorField({
  label,
  name,
  value,
  fallback,
  errors,
  onChange,
}: {
  label: string
  name: string
  value: string
  fallback: string
  errors?: string[]
  onChange: (value: string) => void
}) {
  const id = useId()
  return (
    <div className="flex min-w-0 items-end gap-3">
      <Field
        className="min-w-0 flex-1"
        label={label}
        errors={errors}
        hint={`Hex, such as ${fallback}`}
        inputProps={{
          id,
          name,
          value,
          onChange: (event) => onChange(event.currentTarget.value),
          spellCheck: false,
          autoComplete: 'off',
        }}
      />
      <input
        type="color"
        aria-label={`${label} picker`}
        value={isHexColor(value) ? value.toLowerCase() : fallback}
        onChange={(event) => onChange(event.currentTarget.value)}
        className={`mb-6 h-10 w-12 shrink-0 cursor-pointer rounded-md border border-gray-300 bg-white p-1 dark:border-gray-700 dark:bg-gray-900 ${errors?.length ? 'mb-12' : ''}`}
      />
    </div>
  )
}

/** For a domain or an address typed as it is: no spelling marks, no capital first letter. */
const NO_AUTOCORRECT: InputHTMLAttributes<HTMLInputElement> = {
  spellCheck: false,
  autoCapitalize: 'none',
}

export function BrandingPage({
  canManage,
  branding,
  legal,
  getYourOwnCardUrl,
  domain,
  sendingDomain,
  subdomainHost,
  consentTexts,
  languages,
}: BrandingPageProps) {
  const data = useActionData() as
    | { intent: string | null; result?: SubmissionResult<string[]> }
    | undefined
  const navigation = useNavigation()
  const saving = navigation.state !== 'idle' && navigation.formData?.get('intent') === 'save'
  // The form's values live here so the preview follows them; Reset puts the saved ones back.
  const saved = {
    companyName: branding.companyName,
    primaryColor: branding.primaryColor,
    secondaryColor: branding.secondaryColor,
    customDomain: domain.domain ?? '',
    whiteLabelActive: branding.whiteLabelActive,
    logoUrl: branding.logoUrl,
    ...legal,
    getYourOwnCardUrl,
  }
  const [values, setValues] = useState(saved)
  // Remounts the image fields on Reset, dropping an upload that was not saved.
  const [generation, setGeneration] = useState(0)
  const set = <K extends keyof typeof values>(key: K, value: (typeof values)[K]) =>
    setValues((previous) => ({ ...previous, [key]: value }))

  const [form, fields] = useSchemaForm(BrandingSchema, {
    id: `branding-${generation}`,
    // The sending domain's add form shares the action; its reply is not this form's.
    lastResult:
      data?.intent === 'add-sending-domain' ||
      data?.intent === 'save-consent' ||
      data?.intent === LANGUAGES_INTENT
        ? undefined
        : data?.result,
  })

  /** A text field bound to its value here, so the preview follows what is typed. */
  const boundField = (
    key:
      | 'companyName'
      | 'customDomain'
      | 'privacyPolicyUrl'
      | 'termsOfServiceUrl'
      | 'supportEmail'
      | 'accessibilityEmail'
      | 'getYourOwnCardUrl',
    label: string,
    input: InputHTMLAttributes<HTMLInputElement>,
    hint?: string,
  ) => (
    <Field
      label={label}
      errors={fields[key].errors}
      hint={hint}
      inputProps={{
        id: fields[key].id,
        name: fields[key].name,
        value: values[key],
        onChange: (event) => set(key, event.currentTarget.value),
        ...input,
      }}
    />
  )

  const colorField = (key: 'primaryColor' | 'secondaryColor', label: string) => (
    <ColorField
      label={label}
      name={fields[key].name}
      value={values[key]}
      fallback={BRANDING_DEFAULTS[key]}
      errors={fields[key].errors}
      onChange={(value) => set(key, value)}
    />
  )

  const sendingDomainForm = useSendingDomainForm()
  const consentForm = useConsentTextForm()
  const languageForm = useLanguageSettingsForm()

  function reset() {
    setValues(saved)
    setGeneration((n) => n + 1)
    toast.success('Preview Reset')
  }

  const readOnly = !canManage
  // The logo and favicon fields: the saved image, the server's errors, read-only for a viewer.
  const imageProps = (name: 'logo' | 'favicon', purpose: 'brandLogo' | 'favicon') => ({
    name,
    purpose,
    currentUrl: branding[`${name}Url`],
    errors: form.allErrors[name],
    readOnly,
  })
  const tabs = [
    {
      id: 'visual',
      label: 'Visual Branding',
      icon: Palette,
      content: (
        <fieldset disabled={readOnly} className="flex flex-col gap-6">
          <legend className="sr-only">Visual Branding</legend>
          <div className="grid gap-6 sm:grid-cols-2">
            <ImageField
              key={`logo-${generation}`}
              label="Logo"
              {...imageProps('logo', 'brandLogo')}
              hint="Recommended size: 200x80 px"
              onUploaded={(result) => set('logoUrl', result.url)}
            />
            <ImageField
              key={`favicon-${generation}`}
              label="Favicon"
              {...imageProps('favicon', 'favicon')}
              hint="Recommended size: 32x32 px (also served as /favicon.ico)"
            />
          </div>
          <div className="grid gap-6 sm:grid-cols-2">
            {colorField('primaryColor', 'Primary Color')}
            {colorField('secondaryColor', 'Secondary Color')}
          </div>
        </fieldset>
      ),
    },
    {
      id: 'domain',
      label: 'Domain Settings',
      icon: Globe,
      content: (
        <div className="flex flex-col gap-6">
          <fieldset disabled={readOnly} className="flex flex-col gap-4">
            <legend className="sr-only">Domain Settings</legend>
            {boundField('companyName', 'Company Name', { autoComplete: 'organization' })}
            {boundField(
              'customDomain',
              'Custom Domain',
              { placeholder: 'cards.example.com', ...NO_AUTOCORRECT },
              `Leave empty to use ${subdomainHost} only. Your site stays on ${subdomainHost} as well.`,
            )}
            <div className="flex items-start gap-3 rounded-lg border border-gray-200 p-4 dark:border-gray-800">
              <input
                type="checkbox"
                id={fields.whiteLabelActive.id}
                name={fields.whiteLabelActive.name}
                checked={values.whiteLabelActive}
                onChange={(event) => set('whiteLabelActive', event.currentTarget.checked)}
                aria-describedby={`${fields.whiteLabelActive.id}-description`}
                className="mt-0.5 h-5 w-5 shrink-0 accent-brand"
              />
              <div className="flex flex-col gap-1">
                <label htmlFor={fields.whiteLabelActive.id} className="text-sm font-medium">
                  Activate white labeling
                </label>
                <p
                  id={`${fields.whiteLabelActive.id}-description`}
                  className="text-sm text-gray-600 dark:text-gray-400"
                >
                  Your name, colours, logo and favicon on every page of your site. Off, your site
                  shows the platform's branding.
                </p>
                <ErrorList errors={fields.whiteLabelActive.errors} />
              </div>
            </div>
          </fieldset>
          <fieldset
            disabled={readOnly}
            className="flex flex-col gap-4 border-t border-gray-200 pt-6 dark:border-gray-800"
          >
            <legend className="contents">
              <h2 className="text-lg font-semibold">Legal and support</h2>
            </legend>
            <p className="text-sm text-gray-600 dark:text-gray-400">
              Shown in your site's footer, on the sign-up form and in every email. Leave a field
              empty to show the platform's default.
            </p>
            {boundField('privacyPolicyUrl', 'Privacy Policy URL', {
              type: 'url',
              placeholder: 'https://example.com/privacy',
              ...NO_AUTOCORRECT,
            })}
            {boundField('termsOfServiceUrl', 'Terms of Service URL', {
              type: 'url',
              placeholder: 'https://example.com/terms',
              ...NO_AUTOCORRECT,
            })}
            {boundField('supportEmail', 'Support Email', {
              type: 'email',
              placeholder: 'support@example.com',
              autoComplete: 'email',
            })}
            {boundField(
              'accessibilityEmail',
              'Accessibility Email',
              { type: 'email', placeholder: 'accessibility@example.com', autoComplete: 'email' },
              'Named on your accessibility statement (/accessibility) for requests about access. Leave it empty to name your support email.',
            )}
            {boundField(
              'getYourOwnCardUrl',
              '"Get your own card" link',
              {
                type: 'url',
                placeholder: 'https://example.com/get-a-card',
                ...NO_AUTOCORRECT,
              },
              `The link at the foot of your cards' pages for the people who receive them. Leave it empty to send them to your sign-up page.`,
            )}
          </fieldset>
          <ConsentTextSection
            versions={consentTexts}
            canManage={canManage}
            consentForm={consentForm}
          />
          <LanguageSettingsSection
            settings={languages}
            canManage={canManage}
            languageForm={languageForm}
            description="The languages your cards' pages and sign-in pages speak to visitors: each visitor gets the first of these their browser asks for, else the default. The cards' own texts stay as their owners wrote them."
          />
          <DomainVerification
            state={domain}
            canManage={canManage}
            unsaved={values.customDomain.trim().toLowerCase() !== (domain.domain ?? '')}
          />
          <SendingDomainSection
            state={sendingDomain}
            canManage={canManage}
            whiteLabelActive={branding.whiteLabelActive}
            addForm={sendingDomainForm}
          />
        </div>
      ),
    },
    {
      id: 'preview',
      label: 'Preview',
      icon: Eye,
      content: (
        <BrandingPreview
          companyName={values.companyName}
          primaryColor={values.primaryColor}
          secondaryColor={values.secondaryColor}
          logoUrl={values.logoUrl}
        />
      ),
    },
  ]

  return (
    <main className="mx-auto flex w-full max-w-4xl flex-col gap-6 px-4 py-8 sm:py-10">
      <div className="flex flex-col gap-1">
        <h1 className="text-2xl font-semibold sm:text-3xl">Branding</h1>
        <p className="text-gray-600 dark:text-gray-400">
          Your logo, colours and domain, applied to every page of your site.
        </p>
      </div>
      <Form
        method="POST"
        encType="multipart/form-data"
        replace
        preventScrollReset
        className="flex flex-col gap-6"
        {...getFormProps(form)}
      >
        <input type="hidden" name="intent" value="save" />
        {form.errors?.length ? <FormMessage>{form.errors.join(' ')}</FormMessage> : null}
        <ProfileTabs tabs={tabs} label="Branding sections" keepMounted />
        {readOnly ? (
          <p className="text-sm text-gray-600 dark:text-gray-400">
            Only an agency admin can change the branding.
          </p>
        ) : (
          <div className="flex flex-col-reverse gap-3 border-t border-gray-200 pt-4 sm:flex-row sm:justify-end dark:border-gray-800">
            <Button type="button" variant="secondary" onClick={reset}>
              Reset
            </Button>
            <StatusButton pending={saving} pendingText="Saving...">
              Save Changes
            </StatusButton>
          </div>
        )}
      </Form>
      <VerifyDomainForm />
      <SendingDomainForms form={sendingDomainForm[0]} />
      <ConsentTextForm form={consentForm[0]} />
      <LanguageSettingsForm form={languageForm[0]} />
    </main>
  )
}
