import { getFormProps } from '@conform-to/react'
import { Form, Link, useActionData, useFetcher, useNavigation } from '@remix-run/react'
import { useEffect, useState } from 'react'
import type { CardExtrasView } from '#app/cards/card-extras'
import { type CardArea, cardEditPath, cardsListPath } from '#app/cards/card-paths'
import { BackgroundSwatches } from '#app/components/cards/background-swatches'
import { CardExtrasFields, withBlankLinkRows } from '#app/components/cards/card-details-fields'
import { CardDisplay, type CardView } from '#app/components/cards/card-display'
import { ShortLinkForm } from '#app/components/cards/short-link-form'
import { isClientFailure, useClientFailureToast } from '#app/components/client-failure'
import { FormField, FormMessage, useSchemaForm } from '#app/components/forms'
import { ImageField } from '#app/components/image-field'
import { useRootData } from '#app/components/layout/root-data'
import { BackButton } from '#app/components/ui/back-button'
import { Button } from '#app/components/ui/button'
import { StatusButton } from '#app/components/ui/status-button'
import { toast } from '#app/components/ui/toasts'
import { cn } from '#app/utils/cn'
import { parseSwatch, type StoredBackground } from '#app/validation/backgrounds'
import { lockedMessage, type TemplateField } from '#app/validation/card-templates'
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
  const brandColor = useRootData()?.branding.primaryColor
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
        brandColor={brandColor}
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

export function CardEditorPage({
  card,
  step,
  area,
  shortLink,
  locked = [],
}: {
  card: EditableCard
  step: 'details' | 'visuals' | 'review'
  area: CardArea
  shortLink: { slug: string; origin: string }
  /** The card template's locked fields (ADR 048): read only here, kept by the server anyway. */
  locked?: TemplateField[]
}) {
  const isLocked = (field: TemplateField) => locked.includes(field)
  // The card's logo and profile picture: the field's name is its purpose too.
  const imageProps = (name: 'logo' | 'profilePicture') => ({
    name,
    purpose: name,
    currentUrl: card[`${name}Url`],
    errors: imageErrors(actionData, name),
  })
  // A field the template locks is read-only, and its hint says why.
  const lockedProps = (field: TemplateField) => ({
    ...(isLocked(field) ? { readOnly: true, 'aria-describedby': `locked-${field}` } : {}),
    hint: isLocked(field) ? lockedMessage(field) : undefined,
    hintId: `locked-${field}`,
  })
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
      links: withBlankLinkRows(card.links),
    },
  })
  const listPath = cardsListPath(area)
  const visualsFormId = `card-visuals-${card.id}`
  const tabs = [
    ['details', 'Card Details'],
    ['visuals', 'Visuals & Images'],
  ] as const

  return (
    <main className="mx-auto flex max-w-6xl flex-col gap-6 px-4 py-10">
      <div className="flex items-center gap-3">
        <BackButton to={listPath} label="Back to digital cards" />
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
                      : 'border-transparent text-gray-600 hover:text-gray-900 dark:text-gray-400 dark:hover:text-gray-100',
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
              <FormField className="sm:col-span-2" label="Title" field={fields.title} />
              <FormField label="First name" field={fields.firstName} />
              <FormField label="Last name" field={fields.lastName} />
              <FormField label="Personal email" field={fields.email} type="email" />
              <FormField label="Work email" field={fields.workEmail} type="email" />
              <FormField label="Phone" field={fields.phoneNumber} type="tel" />
              <FormField label="Company" field={fields.company} {...lockedProps('company')} />
              <FormField label="Job title" field={fields.jobTitle} />
              <FormField label="Website" field={fields.website} {...lockedProps('website')} />
              <CardExtrasFields
                fields={fields}
                intents={form}
                locked={{
                  address: isLocked('address') ? lockedMessage('address') : undefined,
                  links: isLocked('links')
                    ? { hint: lockedMessage('links'), links: card.links }
                    : undefined,
                }}
              />
              <label className="flex items-center gap-2 text-sm sm:col-span-2">
                <input type="checkbox" name="noindex" defaultChecked={card.noindex} />
                Hide this card from search engines
              </label>
              <StatusButton pending={pending} className="sm:col-span-2 sm:justify-self-end">
                Next
              </StatusButton>
            </Form>
          ) : null}
          {step === 'details' ? (
            <ShortLinkForm cardId={card.id} slug={shortLink.slug} origin={shortLink.origin} />
          ) : step === 'visuals' ? (
            <div className="flex flex-col gap-6">
              <Form
                id={visualsFormId}
                method="POST"
                encType="multipart/form-data"
                className="flex flex-col gap-6"
              >
                <input type="hidden" name="intent" value="visuals" />
                {isLocked('logo') ? (
                  <div className="flex flex-col gap-2">
                    <p className="text-sm font-medium">Logo</p>
                    {card.logoUrl ? (
                      <img src={card.logoUrl} alt="Logo" className="h-16 w-16 object-contain" />
                    ) : null}
                    <p className="text-xs text-gray-500 dark:text-gray-400">
                      {lockedMessage('logo')}
                    </p>
                  </div>
                ) : (
                  <ImageField label="Logo" {...imageProps('logo')} />
                )}
                <ImageField label="Profile picture" {...imageProps('profilePicture')} />
              </Form>
              {isLocked('background') ? (
                <p className="text-sm text-gray-600 dark:text-gray-400">
                  {lockedMessage('background')}
                </p>
              ) : (
                <BackgroundPicker card={card} onPreview={setPreview} />
              )}
              {/* The tab's own action, at its end as on Card Details (issue 30): it submits the
                  images' form above (the form attribute, so it works without JavaScript too);
                  the background applies on its own. */}
              <div className="flex justify-end border-t border-gray-200 pt-4 dark:border-gray-800">
                <StatusButton pending={pending} form={visualsFormId}>
                  Next
                </StatusButton>
              </div>
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
          <p className="text-sm font-medium text-gray-500 dark:text-gray-400">Preview</p>
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
