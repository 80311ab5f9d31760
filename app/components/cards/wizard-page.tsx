// The onboarding wizard's screen (/onboarding, `?mode=card` for a new card): steps 1 to 3 are
// the profile's fields, step 4 its images and background, step 5 the card to create. Its loader
// and action are the wizard module's (app/cards/wizard-route.server.ts).
import { getFormProps } from '@conform-to/react'
import { Form, Link, useActionData, useNavigation } from '@remix-run/react'
import { useState } from 'react'
import type { CardExtrasView } from '#app/cards/card-extras'
import { WIZARD_STEPS, wizardUrl } from '#app/cards/wizard'
import type { WizardRefusal, wizardLoader } from '#app/cards/wizard-route.server'
import { BackgroundSwatches } from '#app/components/cards/background-swatches'
import {
  AddressFields,
  BioField,
  LinkRows,
  PhoneTypeSelect,
  withBlankLinkRows,
} from '#app/components/cards/card-details-fields'
import { CardDisplay, type CardView } from '#app/components/cards/card-display'
import { FormField, FormMessage, NameFields, useSchemaForm } from '#app/components/forms'
import { ImageField } from '#app/components/image-field'
import { useRootData } from '#app/components/layout/root-data'
import { BackButton } from '#app/components/ui/back-button'
import { Button } from '#app/components/ui/button'
import { StatusButton } from '#app/components/ui/status-button'
import { parseSwatch, type StoredBackground } from '#app/validation/backgrounds'
import { WizardContactSchema, WizardNameSchema, WizardWorkSchema } from '#app/validation/profile'

/** The wizard loader's answer: the step, the mode and the draft with its images' URLs. */
export type WizardPageProps = Awaited<ReturnType<typeof wizardLoader>>

function StepHeader({ step, title, back }: { step: number; title: string; back: string }) {
  return (
    <div className="flex flex-col gap-4">
      <div className="flex items-center gap-3">
        <BackButton to={back} />
        <h1 className="text-2xl font-semibold">{title}</h1>
      </div>
      <div className="flex flex-col gap-2">
        <p className="text-sm text-gray-600 dark:text-gray-400">
          Step {step} of {WIZARD_STEPS}
        </p>
        <div
          className="h-2 w-full overflow-hidden rounded-full bg-gray-200 dark:bg-gray-800"
          role="progressbar"
          aria-valuemin={1}
          aria-valuemax={WIZARD_STEPS}
          aria-valuenow={step}
          aria-label="Wizard progress"
        >
          <div
            className="h-full bg-brand transition-all"
            style={{ width: `${(step / WIZARD_STEPS) * 100}%` }}
          />
        </div>
      </div>
    </div>
  )
}

const STEP_TITLES = ['Your name', 'How to reach you', 'Your work', 'Visual elements', 'Review']

type Draft = WizardPageProps['draft']

/** A step form's fields as typed so far, its link rows (step 3) apart, for the live preview. */
function typedValues(form: HTMLFormElement) {
  const values: Record<string, string> = {}
  const rows: Record<string, string>[] = []
  let hasLinks = false
  for (const [key, value] of new FormData(form)) {
    if (typeof value !== 'string') continue
    const link = /^links\[(\d+)\]\.(kind|label|url)$/.exec(key)
    if (!link) {
      values[key] = value
      continue
    }
    hasLinks = true
    const index = Number(link[1])
    rows[index] = { ...rows[index], [link[2] as string]: value }
  }
  const links = rows
    .filter((row) => row?.url?.trim())
    .map((row) => ({
      kind: (row.kind || 'custom') as Draft['links'][number]['kind'],
      label: row.label ?? '',
      url: row.url ?? '',
    }))
  return { values, links: hasLinks ? links : null }
}

/**
 * The card as the wizard would create it now: the saved draft, the current step's fields as
 * typed, and the images and background chosen on step 4 before Continue.
 */
function previewCard(
  draft: Draft,
  typed: ReturnType<typeof typedValues> | null,
  images: { logoUrl: string | null; profilePictureUrl: string | null },
  background: StoredBackground,
): { card: CardView; extras: CardExtrasView; workEmail: string } {
  const merged = { ...draft, ...typed?.values, links: typed?.links ?? draft.links } as Draft
  const named = merged.firstName.trim() || merged.lastName.trim()
  return {
    card: {
      // A name to show before one is typed: the card would otherwise read "?".
      firstName: named ? merged.firstName : 'Your name',
      lastName: named ? merged.lastName : '',
      jobTitle: merged.jobTitle,
      company: merged.company,
      phoneNumber: merged.phoneNumber,
      website: merged.website,
      ...images,
      background,
    },
    extras: merged,
    workEmail: merged.workEmail,
  }
}

function CardPreview({
  productName,
  preview,
}: {
  productName: string
  preview: ReturnType<typeof previewCard>
}) {
  return (
    <aside
      aria-label="Card preview"
      className="flex min-w-0 flex-col items-center gap-2 lg:sticky lg:top-6 lg:self-start"
    >
      <p className="text-sm font-medium text-gray-600 dark:text-gray-400">Card preview</p>
      <CardDisplay
        card={preview.card}
        productName={productName}
        extras={preview.extras}
        emails={[preview.workEmail]}
      />
    </aside>
  )
}

export function WizardPage({
  step,
  mode,
  draft,
  logoUrl,
  profilePictureUrl,
  backgroundImageUrl,
}: WizardPageProps) {
  const actionData = useActionData<WizardRefusal>()
  const navigation = useNavigation()
  const root = useRootData()
  const productName = root?.branding.name ?? ''
  const brandColor = root?.branding.primaryColor
  const title = mode === 'card' ? 'Create New Digital Card' : 'Create Your Profile'
  const back = step === 1 ? '/' : wizardUrl(mode, step - 1)
  const pending = navigation.state === 'submitting'
  const schema = step === 1 ? WizardNameSchema : step === 2 ? WizardContactSchema : WizardWorkSchema
  const [form, fields] = useSchemaForm(schema, {
    id: `wizard-${step}`,
    lastResult: actionData?.result ?? undefined,
    defaultValue: { ...draft, links: withBlankLinkRows(draft.links) },
  })
  const imageErrors: Record<string, string> = actionData?.imageErrors ?? {}
  // A step 4 image field: its name is its purpose, its errors the server's for that name.
  const imageProps = (name: 'logo' | 'profilePicture' | 'background') => ({
    name,
    purpose: name,
    errors: imageErrors[name] ? [imageErrors[name]] : undefined,
  })
  const [swatch, setSwatch] = useState(
    draft.backgroundKind === 'image' ? null : `${draft.backgroundKind}:${draft.backgroundValue}`,
  )
  // The live preview's inputs: what this step's form holds as typed (for this step only: the
  // next step's draft has it saved), and step 4's uploads before Continue.
  const [typed, setTyped] = useState<{
    step: number
    value: ReturnType<typeof typedValues>
  } | null>(null)
  const [images, setImages] = useState({ logoUrl, profilePictureUrl, backgroundImageUrl })
  const choice = parseSwatch(swatch)
  const saved: StoredBackground = {
    kind: draft.backgroundKind,
    value: draft.backgroundValue,
    imageUrl: backgroundImageUrl,
  }
  // Step 4 shows its choice at once: a swatch, else an uploaded image, else what is saved.
  const background: StoredBackground =
    step < 4
      ? saved
      : choice
        ? { kind: choice.kind, value: choice.value, imageUrl: null }
        : images.backgroundImageUrl
          ? { kind: 'image', value: '', imageUrl: images.backgroundImageUrl }
          : saved
  const preview = previewCard(
    draft,
    typed?.step === step ? typed.value : null,
    step >= 4 ? images : { logoUrl, profilePictureUrl },
    background,
  )
  const onInput = (event: React.FormEvent<HTMLFormElement>) =>
    setTyped({ step, value: typedValues(event.currentTarget) })

  return (
    <main
      className={
        step < 5
          ? 'mx-auto grid w-full max-w-6xl gap-6 px-4 py-10 lg:grid-cols-[minmax(0,1fr)_22rem] lg:gap-10'
          : 'mx-auto flex w-full max-w-2xl flex-col gap-6 px-4 py-10'
      }
    >
      <div className="flex min-w-0 flex-col gap-6">
        <StepHeader step={step} title={title} back={back} />
        <section className="rounded-2xl border border-gray-200 p-6 dark:border-gray-800">
          <h2 className="mb-4 text-lg font-semibold">{STEP_TITLES[step - 1]}</h2>
          {step <= 3 ? (
            <Form
              method="POST"
              className="flex flex-col gap-4"
              {...getFormProps(form)}
              onInput={onInput}
              onChange={onInput}
            >
              {step === 1 ? (
                <NameFields fields={fields} autoFocus />
              ) : step === 2 ? (
                <>
                  <FormField
                    label="Work email"
                    field={fields.workEmail}
                    type="email"
                    autoComplete="email"
                    autoFocus
                  />
                  <FormField
                    label="Phone number"
                    field={fields.phoneNumber}
                    type="tel"
                    autoComplete="tel"
                  />
                  <PhoneTypeSelect meta={fields.phoneType} label="Phone type" />
                  <FormField label="Second phone" field={fields.phone2} type="tel" />
                  <PhoneTypeSelect meta={fields.phone2Type} label="Second phone type" />
                  <AddressFields fields={fields} />
                </>
              ) : (
                <>
                  <FormField
                    label="Company"
                    field={fields.company}
                    autoComplete="organization"
                    autoFocus
                  />
                  <FormField
                    label="Job title"
                    field={fields.jobTitle}
                    autoComplete="organization-title"
                  />
                  <FormField label="Department" field={fields.department} />
                  <FormField
                    label="Website"
                    field={fields.website}
                    autoComplete="url"
                    placeholder="https://example.com"
                  />
                  <FormField label="Pronouns" hint="For example she/her" field={fields.pronouns} />
                  <BioField meta={fields.bio} />
                  <LinkRows
                    name={fields.links.name}
                    rows={fields.links.getFieldList()}
                    errors={fields.links.errors}
                    intents={form}
                  />
                </>
              )}
              <StatusButton pending={pending} pendingText="Saving..." className="self-end">
                Continue
              </StatusButton>
            </Form>
          ) : step === 4 ? (
            <Form method="POST" encType="multipart/form-data" className="flex flex-col gap-6">
              <ImageField
                label="Logo"
                {...imageProps('logo')}
                currentUrl={logoUrl}
                hint="Recommended 200×80 px."
                onUploaded={({ url }) => setImages((was) => ({ ...was, logoUrl: url }))}
                onRemoved={() => setImages((was) => ({ ...was, logoUrl: null }))}
              />
              <ImageField
                label="Profile picture"
                {...imageProps('profilePicture')}
                currentUrl={profilePictureUrl}
                onUploaded={({ url }) => setImages((was) => ({ ...was, profilePictureUrl: url }))}
                onRemoved={() => setImages((was) => ({ ...was, profilePictureUrl: null }))}
              />
              <BackgroundSwatches
                name="backgroundChoice"
                selected={swatch}
                onChoose={setSwatch}
                brandColor={brandColor}
              />
              <ImageField
                label="Or upload a background image"
                {...imageProps('background')}
                currentUrl={backgroundImageUrl}
                hint="Recommended 1200×600 px."
                onUploaded={({ url }) => {
                  setSwatch(null)
                  setImages((was) => ({ ...was, backgroundImageUrl: url }))
                }}
              />
              <StatusButton pending={pending} pendingText="Saving..." className="self-end">
                Continue
              </StatusButton>
            </Form>
          ) : (
            <div className="flex flex-col items-center gap-6">
              <CardDisplay
                productName={productName}
                card={{
                  ...draft,
                  logoUrl,
                  profilePictureUrl,
                  background: {
                    kind: draft.backgroundKind,
                    value: draft.backgroundValue,
                    imageUrl: backgroundImageUrl,
                  },
                }}
              />
              <dl className="grid w-full grid-cols-1 gap-2 text-sm sm:grid-cols-2">
                {(
                  [
                    ['Name', `${draft.firstName} ${draft.lastName}`],
                    ['Work email', draft.workEmail],
                    ['Phone', draft.phoneNumber],
                    ['Company', draft.company],
                    ['Job title', draft.jobTitle],
                    ['Department', draft.department],
                    ['Website', draft.website],
                  ] as const
                ).map(([label, value]) => (
                  <div key={label}>
                    <dt className="text-gray-500 dark:text-gray-400">{label}</dt>
                    <dd className="font-medium">{value || '—'}</dd>
                  </div>
                ))}
              </dl>
              <div className="flex w-full flex-wrap justify-between gap-3">
                <div className="flex gap-2">
                  <Button asChild variant="secondary">
                    <Link to={wizardUrl(mode, 2)}>Edit Contact</Link>
                  </Button>
                  <Button asChild variant="secondary">
                    <Link to={wizardUrl(mode, 4)}>Edit Images</Link>
                  </Button>
                </div>
                <Form method="POST">
                  <StatusButton
                    pending={pending}
                    pendingText={mode === 'card' ? 'Creating card...' : 'Creating profile...'}
                  >
                    {mode === 'card' ? 'Create Card' : 'Create Profile'}
                  </StatusButton>
                </Form>
              </div>
            </div>
          )}
          {form.errors?.length ? <FormMessage>{form.errors.join(' ')}</FormMessage> : null}
        </section>
      </div>
      {/* Beside each step on wide screens, below it on phones; step 5's card is the review. */}
      {step < 5 ? <CardPreview productName={productName} preview={preview} /> : null}
    </main>
  )
}
