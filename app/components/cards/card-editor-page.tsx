import {
  type FieldMetadata,
  getFormProps,
  getInputProps,
  getSelectProps,
  getTextareaProps,
} from '@conform-to/react'
import { Form, Link, useActionData, useFetcher, useNavigation } from '@remix-run/react'
import { ArrowLeft } from 'lucide-react'
import { useEffect, useState } from 'react'
import { parseSwatch, type StoredBackground } from '#app/cards/backgrounds'
import type { CardExtrasView } from '#app/cards/card-extras'
import { type CardArea, cardEditPath, cardsListPath } from '#app/cards/card-paths'
import { BackgroundSwatches } from '#app/components/cards/background-swatches'
import { CardDisplay, type CardView } from '#app/components/cards/card-display'
import { ErrorList, Field, FormMessage, useSchemaForm } from '#app/components/forms'
import { ImageField } from '#app/components/image-field'
import { Button } from '#app/components/ui/button'
import { StatusButton } from '#app/components/ui/status-button'
import { toast } from '#app/components/ui/toasts'
import { useRootData } from '#app/root'
import { isClientFailure, useClientFailureToast } from '#app/utils/client-failure'
import { cn } from '#app/utils/cn'
import {
  LINK_KIND_RULES,
  LINK_KINDS,
  LINKS_MAX,
  type LinkKind,
  PHONE_TYPE_LABELS,
  PHONE_TYPES,
} from '#app/validation/card-details'
import { CardDetailsSchema } from '#app/validation/profile'

type EditableCard = CardView &
  CardExtrasView & {
    id: string
    title: string
    email: string
    workEmail: string
    noindex: boolean
  }
/** The one action reply (ADR 035), and the background a fetcher's post applied. */
type ActionReply = {
  result: { error?: Record<string, string[] | null> } | null
  intent: string | null
  error: string | null
  applied?: string
}

/** An image field's refusal, from the reply's messages by field. */
function imageErrors(reply: ActionReply | undefined, field: string) {
  return reply?.result?.error?.[field] ?? undefined
}

const UPDATE_FAILED = 'Failed to update digital card'
const NO_INTENT_MESSAGES = {}

/** Colours and gradients apply at once; an uploaded image waits for 'Apply Changes'. */
function BackgroundPicker({
  card,
  onPreview,
}: {
  card: EditableCard
  onPreview: (background: StoredBackground) => void
}) {
  const fetcher = useFetcher<ActionReply>()
  const [pendingImage, setPendingImage] = useState<{ mediaId: string; url: string } | null>(null)
  const [imageKey, setImageKey] = useState(0)
  const current = card.background
  const selected = current.kind === 'image' ? null : `${current.kind}:${current.value}`

  useEffect(() => {
    if (fetcher.state !== 'idle' || !fetcher.data) return
    if (isClientFailure(fetcher.data)) toast.error(UPDATE_FAILED)
    else if (fetcher.data.error) toast.error('Failed to save background changes')
    else if (fetcher.data.applied === 'image') toast.success('Changes applied successfully')
    else toast.success('Background updated')
  }, [fetcher.state, fetcher.data])

  return (
    <div className="flex flex-col gap-4">
      <BackgroundSwatches
        name="swatch"
        selected={pendingImage ? null : selected}
        onChoose={(value) => {
          const choice = parseSwatch(value)
          if (!choice) return
          setPendingImage(null)
          onPreview({ kind: choice.kind, value: choice.value, imageUrl: null })
          fetcher.submit(
            { intent: 'background', kind: choice.kind, value: choice.value },
            { method: 'POST' },
          )
        }}
      />
      <ImageField
        key={imageKey}
        name="backgroundUpload"
        label="Background image"
        purpose="background"
        currentUrl={current.kind === 'image' ? current.imageUrl : null}
        hint="Recommended 1200×600 px. Click Apply Changes to use it."
        onUploaded={(result) => {
          setPendingImage(result)
          onPreview({ kind: 'image', value: '', imageUrl: result.url })
        }}
      />
      {pendingImage ? (
        <div className="flex gap-2">
          <Button
            type="button"
            onClick={() => {
              fetcher.submit(
                {
                  intent: 'background',
                  kind: 'image',
                  backgroundMediaId: pendingImage.mediaId,
                },
                { method: 'POST' },
              )
              setPendingImage(null)
            }}
          >
            Apply Changes
          </Button>
          <Button
            type="button"
            variant="secondary"
            onClick={() => {
              setPendingImage(null)
              setImageKey((k) => k + 1)
              onPreview(current)
              toast('Changes canceled')
            }}
          >
            Cancel
          </Button>
        </div>
      ) : null}
    </div>
  )
}

const SELECT_CLASS =
  'h-10 rounded-md border border-gray-300 bg-white px-2 text-sm shadow-sm dark:border-gray-700 dark:bg-gray-900'

/** A phone's kind (mobile or work), a native select so it works without JavaScript. */
function PhoneTypeSelect({ meta, label }: { meta: FieldMetadata<string>; label: string }) {
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={meta.id} className="text-sm font-medium">
        {label}
      </label>
      <select {...getSelectProps(meta)} className={SELECT_CLASS}>
        {PHONE_TYPES.map((type) => (
          <option key={type} value={type}>
            {PHONE_TYPE_LABELS[type]}
          </option>
        ))}
      </select>
      <ErrorList id={meta.errorId} errors={meta.errors} />
    </div>
  )
}

type LinkFields = FieldMetadata<
  { kind: LinkKind; label?: string; url?: string },
  Record<string, unknown>,
  string[]
>

/**
 * The links in order: the card's own, then empty rows up to the limit's worth of two more. A row
 * left without an address is not kept, so clearing one removes it; the form needs no script.
 */
function LinkRows({ rows, errors }: { rows: LinkFields[]; errors?: string[] }) {
  return (
    <fieldset className="flex flex-col gap-3 sm:col-span-2">
      <legend className="text-sm font-medium">Links</legend>
      <p className="text-xs text-gray-500">
        Up to {LINKS_MAX} links, shown in this order. Addresses start with https://; a WhatsApp link
        may be a phone number. Clear an address to remove its link.
      </p>
      <ErrorList errors={errors} />
      {rows.map((row, index) => {
        const link = row.getFieldset()
        return (
          <div
            key={row.key}
            className="grid gap-2 rounded-md border border-gray-200 p-3 sm:grid-cols-[9rem_1fr_2fr] dark:border-gray-800"
            data-testid="link-row"
          >
            <div className="flex flex-col gap-1.5">
              <label htmlFor={link.kind.id} className="text-xs font-medium">
                Link {index + 1} kind
              </label>
              <select {...getSelectProps(link.kind)} className={SELECT_CLASS}>
                {LINK_KINDS.map((kind) => (
                  <option key={kind} value={kind}>
                    {kind === 'custom' ? 'Custom' : LINK_KIND_RULES[kind].name}
                  </option>
                ))}
              </select>
            </div>
            <Field
              label={`Link ${index + 1} label`}
              hint="Custom links only"
              inputProps={getInputProps(link.label, { type: 'text' })}
              errors={link.label.errors}
            />
            <Field
              label={`Link ${index + 1} address`}
              inputProps={{ ...getInputProps(link.url, { type: 'text' }), inputMode: 'url' }}
              errors={link.url.errors}
            />
          </div>
        )
      })}
    </fieldset>
  )
}

export function CardEditorPage({
  card,
  step,
  area,
}: {
  card: EditableCard
  step: 'details' | 'visuals' | 'review'
  area: CardArea
}) {
  const productName = useRootData()?.branding.name ?? ''
  const actionData = useActionData<ActionReply>()
  useClientFailureToast(actionData, NO_INTENT_MESSAGES, UPDATE_FAILED)
  const navigation = useNavigation()
  const pending = navigation.state === 'submitting'
  const [preview, setPreview] = useState<StoredBackground>(card.background)
  useEffect(() => setPreview(card.background), [card.background])
  const [form, fields] = useSchemaForm(CardDetailsSchema, {
    id: `card-details-${card.id}`,
    lastResult: (actionData?.result as never) ?? undefined,
    // The checkbox's value as a form sends it.
    defaultValue: {
      ...card,
      noindex: card.noindex ? 'on' : undefined,
      links: [
        ...card.links,
        ...Array.from({ length: 2 }, () => ({ kind: 'custom' as const, label: '', url: '' })),
      ].slice(0, Math.max(LINKS_MAX, card.links.length)),
    },
  })
  const listPath = cardsListPath(area)
  const tabs = [
    ['details', 'Card Details'],
    ['visuals', 'Visuals & Images'],
  ] as const

  return (
    <main className="mx-auto flex max-w-6xl flex-col gap-6 px-4 py-10">
      <div className="flex items-center gap-3">
        <Button asChild variant="ghost" size="sm" aria-label="Back to digital cards">
          <Link to={listPath}>
            <ArrowLeft aria-hidden className="h-4 w-4" />
          </Link>
        </Button>
        <h1 className="text-2xl font-semibold">
          {step === 'review' ? 'Review Card' : 'Edit Digital Card'}
        </h1>
      </div>
      <div className="grid gap-8 md:grid-cols-[1fr_22rem]">
        <section className="flex flex-col gap-6">
          {step !== 'review' ? (
            <nav
              aria-label="Editor sections"
              className="flex gap-2 overflow-x-auto border-b border-gray-200 dark:border-gray-800"
            >
              {tabs.map(([value, label]) => (
                <Link
                  key={value}
                  to={cardEditPath(area, card.id, value)}
                  aria-current={step === value ? 'page' : undefined}
                  className={cn(
                    '-mb-px whitespace-nowrap border-b-2 px-3 py-2 text-sm font-medium',
                    step === value
                      ? 'border-brand text-brand-text'
                      : 'border-transparent text-gray-600 hover:text-gray-900',
                  )}
                >
                  {label}
                </Link>
              ))}
            </nav>
          ) : null}
          {step === 'details' ? (
            <Form method="POST" className="grid gap-4 sm:grid-cols-2" {...getFormProps(form)}>
              <input type="hidden" name="intent" value="details" />
              {form.errors?.length ? <FormMessage>{form.errors.join(' ')}</FormMessage> : null}
              <Field
                className="sm:col-span-2"
                label="Title"
                inputProps={getInputProps(fields.title, { type: 'text' })}
                errors={fields.title.errors}
              />
              <Field
                label="First name"
                inputProps={getInputProps(fields.firstName, { type: 'text' })}
                errors={fields.firstName.errors}
              />
              <Field
                label="Last name"
                inputProps={getInputProps(fields.lastName, { type: 'text' })}
                errors={fields.lastName.errors}
              />
              <Field
                label="Personal email"
                inputProps={getInputProps(fields.email, { type: 'email' })}
                errors={fields.email.errors}
              />
              <Field
                label="Work email"
                inputProps={getInputProps(fields.workEmail, { type: 'email' })}
                errors={fields.workEmail.errors}
              />
              <Field
                label="Phone"
                inputProps={getInputProps(fields.phoneNumber, { type: 'tel' })}
                errors={fields.phoneNumber.errors}
              />
              <Field
                label="Company"
                inputProps={getInputProps(fields.company, { type: 'text' })}
                errors={fields.company.errors}
              />
              <Field
                label="Job title"
                inputProps={getInputProps(fields.jobTitle, { type: 'text' })}
                errors={fields.jobTitle.errors}
              />
              <Field
                label="Website"
                inputProps={getInputProps(fields.website, { type: 'text' })}
                errors={fields.website.errors}
              />
              <Field
                label="Pronouns"
                hint="For example she/her"
                inputProps={getInputProps(fields.pronouns, { type: 'text' })}
                errors={fields.pronouns.errors}
              />
              <PhoneTypeSelect meta={fields.phoneType} label="Phone type" />
              <Field
                label="Second phone"
                inputProps={getInputProps(fields.phone2, { type: 'tel' })}
                errors={fields.phone2.errors}
              />
              <PhoneTypeSelect meta={fields.phone2Type} label="Second phone type" />
              <div className="flex flex-col gap-1.5 sm:col-span-2">
                <label htmlFor={fields.bio.id} className="text-sm font-medium">
                  Headline or short bio
                </label>
                <textarea
                  {...getTextareaProps(fields.bio)}
                  rows={3}
                  className="rounded-md border border-gray-300 p-3 text-sm aria-[invalid]:border-red-500 dark:border-gray-700 dark:bg-gray-900"
                />
                <ErrorList id={fields.bio.errorId} errors={fields.bio.errors} />
              </div>
              <fieldset className="grid gap-4 sm:col-span-2 sm:grid-cols-2">
                <legend className="mb-2 text-sm font-medium">Address</legend>
                <Field
                  className="sm:col-span-2"
                  label="Street"
                  inputProps={{
                    ...getInputProps(fields.addressStreet, { type: 'text' }),
                    autoComplete: 'street-address',
                  }}
                  errors={fields.addressStreet.errors}
                />
                <Field
                  label="City"
                  inputProps={getInputProps(fields.addressCity, { type: 'text' })}
                  errors={fields.addressCity.errors}
                />
                <Field
                  label="Region"
                  inputProps={getInputProps(fields.addressRegion, { type: 'text' })}
                  errors={fields.addressRegion.errors}
                />
                <Field
                  label="Postal code"
                  inputProps={getInputProps(fields.addressPostalCode, { type: 'text' })}
                  errors={fields.addressPostalCode.errors}
                />
                <Field
                  label="Country"
                  inputProps={getInputProps(fields.addressCountry, { type: 'text' })}
                  errors={fields.addressCountry.errors}
                />
              </fieldset>
              <LinkRows rows={fields.links.getFieldList()} errors={fields.links.errors} />
              <label className="flex items-center gap-2 text-sm sm:col-span-2">
                <input type="checkbox" name="noindex" defaultChecked={card.noindex} />
                Hide this card from search engines
              </label>
              <StatusButton pending={pending} className="sm:col-span-2 sm:justify-self-end">
                Next
              </StatusButton>
            </Form>
          ) : step === 'visuals' ? (
            <div className="flex flex-col gap-6">
              <Form method="POST" encType="multipart/form-data" className="flex flex-col gap-6">
                <input type="hidden" name="intent" value="visuals" />
                <ImageField
                  name="logo"
                  label="Logo"
                  purpose="logo"
                  currentUrl={card.logoUrl}
                  errors={imageErrors(actionData, 'logo')}
                />
                <ImageField
                  name="profilePicture"
                  label="Profile picture"
                  purpose="profilePicture"
                  currentUrl={card.profilePictureUrl}
                  errors={imageErrors(actionData, 'profilePicture')}
                />
                <StatusButton pending={pending} className="self-end">
                  Next
                </StatusButton>
              </Form>
              <BackgroundPicker card={card} onPreview={setPreview} />
            </div>
          ) : (
            <div className="flex flex-col gap-4">
              <p className="text-sm text-gray-600 dark:text-gray-400">
                Check your card. You can go back to any section before saving.
              </p>
              <div className="flex flex-wrap gap-2">
                <Button asChild variant="secondary">
                  <Link to={cardEditPath(area, card.id, 'details')}>Back to Editing</Link>
                </Button>
                <Button asChild variant="secondary">
                  <Link to={cardEditPath(area, card.id, 'visuals')}>Edit Visuals</Link>
                </Button>
                <Form method="POST">
                  <input type="hidden" name="intent" value="finish" />
                  <StatusButton pending={pending}>Save Card</StatusButton>
                </Form>
              </div>
            </div>
          )}
        </section>
        <aside aria-label="Preview" className="flex flex-col items-center gap-2">
          <p className="text-sm font-medium text-gray-500">Preview</p>
          <CardDisplay
            card={{ ...card, background: preview }}
            productName={productName}
            extras={card}
            emails={[card.workEmail, card.email]}
          />
        </aside>
      </div>
    </main>
  )
}
