import { getFormProps } from '@conform-to/react'
import { Form, Link, useActionData, useFetcher, useLocation, useNavigation } from '@remix-run/react'
import { useEffect, useState } from 'react'
import type { CardExtrasView } from '#app/cards/card-extras'
import { type CardArea, cardEditPath, cardsListPath } from '#app/cards/card-paths'
import { BackgroundSwatches } from '#app/components/cards/background-swatches'
import { CardExtrasFields, withBlankLinkRows } from '#app/components/cards/card-details-fields'
import { CardDisplay, type CardView } from '#app/components/cards/card-display'
import { ShortLinkForm } from '#app/components/cards/short-link-form'
import { VideoFacade } from '#app/components/cards/video-facade'
import { isClientFailure, useClientFailureToast } from '#app/components/client-failure'
import { FormField, FormMessage, useSchemaForm } from '#app/components/forms'
import { ImageField } from '#app/components/image-field'
import { useRootData } from '#app/components/layout/root-data'
import { BackButton } from '#app/components/ui/back-button'
import { Button } from '#app/components/ui/button'
import { StatusButton } from '#app/components/ui/status-button'
import { toast } from '#app/components/ui/toasts'
import { useUnsavedChanges } from '#app/components/unsaved-changes'
import { cn } from '#app/utils/cn'
import { parseSwatch, type StoredBackground } from '#app/validation/backgrounds'
import { lockedMessage, type TemplateField } from '#app/validation/card-templates'
import { CardDetailsSchema } from '#app/validation/profile'
import { type DirectoryCardField, directoryHeldHint } from '#app/validation/scim'

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
  onPendingChange,
}: {
  card: EditableCard
  onPreview: (background: StoredBackground) => void
  /** An uploaded image waits for Apply Changes: unsaved until then. */
  onPendingChange: (pending: boolean) => void
}) {
  const fetcher = useFetcher<ActionReply>()
  const brandColor = useRootData()?.branding.primaryColor
  const [pendingImage, setPendingImage] = useState<{ mediaId: string; url: string } | null>(null)
  const [imageKey, setImageKey] = useState(0)
  const current = card.background
  const selected = current.kind === 'image' ? null : `${current.kind}:${current.value}`
  useEffect(() => onPendingChange(pendingImage !== null), [pendingImage, onPendingChange])

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

/** The details form's fields, as the form holds them (the card's other values are not its own). */
const DETAIL_FIELDS = Object.keys(
  CardDetailsSchema.shape,
) as (keyof typeof CardDetailsSchema.shape)[]

/**
 * What the preview draws while the person types (issue 41 point 5): the saved card with the
 * form's current text over it. Only text the form holds is taken; a link row counts once it
 * has an address.
 */
function draftOf(card: EditableCard, value: Record<string, unknown> | undefined): EditableCard {
  if (!value) return card
  const text = (name: string) => (typeof value[name] === 'string' ? (value[name] as string) : '')
  const draft: Record<string, unknown> = { ...card }
  for (const name of DETAIL_FIELDS) {
    if (name === 'links' || name === 'noindex') continue
    if (typeof card[name as keyof EditableCard] === 'string') draft[name] = text(name)
  }
  const rows = Array.isArray(value.links) ? (value.links as Record<string, unknown>[]) : []
  draft.links = rows
    .filter((row) => typeof row?.url === 'string' && row.url.trim() !== '')
    .map((row) => ({
      kind: (typeof row.kind === 'string' && row.kind ? row.kind : 'website') as never,
      label: typeof row.label === 'string' ? row.label : '',
      url: row.url as string,
    }))
  return draft as EditableCard
}

export function CardEditorPage({
  card,
  step,
  area,
  shortLink,
  locked = [],
  directory = [],
  archivedAt = null,
}: {
  card: EditableCard
  step: 'details' | 'visuals' | 'review'
  area: CardArea
  shortLink: { slug: string; origin: string }
  /** The card template's locked fields (ADR 048): read only here, kept by the server anyway. */
  locked?: TemplateField[]
  /** The fields the agency's directory holds for the owner (issue 42): read only, kept anyway. */
  directory?: DirectoryCardField[]
  /** Set for an archived card (ADR 095): nobody can open it until it is restored. */
  archivedAt?: string | null
}) {
  const productName = useRootData()?.branding.name ?? ''
  const actionData = useActionData<ActionReply>()
  useClientFailureToast(actionData, NO_INTENT_MESSAGES, UPDATE_FAILED)
  // The preview follows the form: what is typed, the images chosen, the background picked.
  const [draft, setDraft] = useState<EditableCard>(card)
  useEffect(() => setDraft(card), [card])
  // A save (a new location) starts the forms afresh from the saved values: nothing unsaved.
  const { key } = useLocation()
  const listPath = cardsListPath(area)
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
      {archivedAt ? (
        <div
          role="status"
          className="flex flex-wrap items-center justify-between gap-3 rounded-xl border border-amber-300 bg-amber-50 p-4 text-sm text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100"
        >
          <p>
            This card is archived: its link, QR code and NFC tags show nothing until you restore it.
          </p>
          <Form method="POST" action={listPath}>
            <input type="hidden" name="intent" value="restore" />
            <input type="hidden" name="cardId" value={card.id} />
            <Button type="submit" variant="secondary" size="sm">
              Restore
            </Button>
          </Form>
        </div>
      ) : null}
      {/* Two columns from lg, as in the wizard: at md the sidebar leaves the form too little
          room beside a 22rem preview, and the page grew wider than a tablet (ADR 110). */}
      <div className="grid gap-8 lg:grid-cols-[minmax(0,1fr)_22rem]">
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
            <>
              <DetailsForm
                key={key}
                card={card}
                area={area}
                locked={locked}
                directory={directory}
                lastResult={actionData?.result ?? undefined}
                onDraft={setDraft}
              />
              <ShortLinkForm cardId={card.id} slug={shortLink.slug} origin={shortLink.origin} />
            </>
          ) : step === 'visuals' ? (
            <VisualsForm
              key={key}
              card={card}
              area={area}
              locked={locked}
              reply={actionData}
              onDraft={setDraft}
            />
          ) : (
            <div className="flex flex-col gap-4">
              <p className="text-sm text-gray-600 dark:text-gray-400">
                Every change is live once you press Save. This is your card as people see it.
              </p>
              <div className="flex flex-wrap gap-2">
                <Button asChild variant="secondary">
                  <Link to={cardEditPath(area, card.id, 'details')}>Back to Editing</Link>
                </Button>
                <Button asChild variant="secondary">
                  <Link to={cardEditPath(area, card.id, 'visuals')}>Edit Visuals</Link>
                </Button>
                <Button asChild>
                  <Link to={listPath}>Done</Link>
                </Button>
              </div>
            </div>
          )}
        </section>
        <aside
          aria-label="Preview"
          className="flex flex-col items-center gap-2 lg:sticky lg:top-4 lg:self-start"
        >
          <p className="text-sm font-medium text-gray-500 dark:text-gray-400">Preview</p>
          <CardDisplay
            card={draft}
            productName={productName}
            extras={draft}
            emails={[draft.workEmail, draft.email]}
          />
          {draft.videoUrl ? (
            <VideoFacade
              videoUrl={draft.videoUrl}
              firstName={draft.firstName}
              card={draft}
              playable={false}
            />
          ) : null}
        </aside>
      </div>
    </main>
  )
}

/** The tab's end: Save (the one step that makes a change public) and the review of the card. */
function SaveBar({
  area,
  cardId,
  pending,
  form,
}: {
  area: CardArea
  cardId: string
  pending: boolean
  form?: string
}) {
  return (
    <div className="flex flex-wrap items-center justify-end gap-2 border-t border-gray-200 pt-4 sm:col-span-2 dark:border-gray-800">
      <Button asChild variant="secondary">
        <Link to={cardEditPath(area, cardId, 'review')}>Review Card</Link>
      </Button>
      <StatusButton pending={pending} pendingText="Saving…" form={form}>
        Save
      </StatusButton>
    </div>
  )
}

function DetailsForm({
  card,
  area,
  locked,
  directory,
  lastResult,
  onDraft,
}: {
  card: EditableCard
  area: CardArea
  locked: TemplateField[]
  directory: DirectoryCardField[]
  lastResult: ActionReply['result'] | undefined
  onDraft: (draft: EditableCard) => void
}) {
  const isLocked = (field: TemplateField) => locked.includes(field)
  // A field the template locks, or the directory holds, is read-only, and its hint says why
  // (the template's lock wins where both apply, as it does on the server).
  const holdOf = (field: TemplateField | DirectoryCardField) =>
    locked.includes(field as TemplateField)
      ? lockedMessage(field as TemplateField)
      : directory.includes(field as DirectoryCardField)
        ? directoryHeldHint(field as DirectoryCardField)
        : undefined
  const lockedProps = (field: TemplateField | DirectoryCardField) => {
    const hint = holdOf(field)
    return {
      ...(hint ? { readOnly: true, 'aria-describedby': `locked-${field}` } : {}),
      hint,
      hintId: `locked-${field}`,
    }
  }
  const navigation = useNavigation()
  const pending = navigation.state === 'submitting'
  // Only the form's own fields: a value it does not hold would count as a change forever.
  const defaultValue = Object.fromEntries(
    DETAIL_FIELDS.map((name) => [name, card[name as keyof EditableCard]]),
  )
  const [form, fields] = useSchemaForm(CardDetailsSchema, {
    id: `card-details-${card.id}`,
    lastResult: (lastResult as never) ?? undefined,
    // The checkbox's value as a form sends it.
    defaultValue: {
      ...defaultValue,
      noindex: card.noindex ? 'on' : undefined,
      links: withBlankLinkRows(card.links),
    },
  })
  const unsaved = useUnsavedChanges(form.dirty)
  const value = form.value as Record<string, unknown> | undefined
  useEffect(() => onDraft(draftOf(card, value)), [card, value, onDraft])
  return (
    <Form
      method="POST"
      className="grid gap-4 sm:grid-cols-2"
      {...getFormProps(form)}
      onSubmit={(event) => {
        getFormProps(form).onSubmit(event)
        if (!event.defaultPrevented) unsaved.markSubmitting()
      }}
    >
      <input type="hidden" name="intent" value="details" />
      {form.errors?.length ? <FormMessage>{form.errors.join(' ')}</FormMessage> : null}
      <FormField className="sm:col-span-2" label="Title" field={fields.title} />
      <FormField label="First name" field={fields.firstName} />
      <FormField label="Last name" field={fields.lastName} />
      <FormField label="Personal email" field={fields.email} type="email" />
      <FormField label="Work email" field={fields.workEmail} type="email" />
      <FormField
        label="Phone"
        field={fields.phoneNumber}
        type="tel"
        {...lockedProps('phoneNumber')}
      />
      <FormField label="Company" field={fields.company} {...lockedProps('company')} />
      <FormField label="Job title" field={fields.jobTitle} {...lockedProps('jobTitle')} />
      <FormField label="Department" field={fields.department} {...lockedProps('department')} />
      <FormField label="Website" field={fields.website} {...lockedProps('website')} />
      <FormField
        className="sm:col-span-2"
        label="Video"
        field={fields.videoUrl}
        type="url"
        inputMode="url"
        placeholder="https://www.youtube.com/watch?v=…"
        hint="A YouTube or Vimeo link. Your card shows it as a video to play."
      />
      <CardExtrasFields
        fields={fields}
        intents={form}
        locked={{
          address: holdOf('address'),
          links: isLocked('links')
            ? { hint: lockedMessage('links'), links: card.links }
            : undefined,
        }}
      />
      <label className="flex items-center gap-2 text-sm sm:col-span-2">
        <input type="checkbox" name="noindex" defaultChecked={card.noindex} />
        Hide this card from search engines
      </label>
      <SaveBar area={area} cardId={card.id} pending={pending} />
      {unsaved.dialog}
    </Form>
  )
}

function VisualsForm({
  card,
  area,
  locked,
  reply,
  onDraft,
}: {
  card: EditableCard
  area: CardArea
  locked: TemplateField[]
  reply: ActionReply | undefined
  onDraft: (draft: EditableCard) => void
}) {
  const navigation = useNavigation()
  const pending = navigation.state === 'submitting'
  const visualsFormId = `card-visuals-${card.id}`
  // Images chosen or removed but not saved yet: the preview shows them, leaving asks first.
  const [images, setImages] = useState<
    Partial<Record<'logo' | 'profilePicture' | 'cover', string | null>>
  >({})
  const [background, setBackground] = useState<StoredBackground>(card.background)
  const [backgroundPending, setBackgroundPending] = useState(false)
  const unsaved = useUnsavedChanges(Object.keys(images).length > 0 || backgroundPending)
  useEffect(() => {
    onDraft({
      ...card,
      background,
      ...('logo' in images ? { logoUrl: images.logo ?? null } : {}),
      ...('profilePicture' in images ? { profilePictureUrl: images.profilePicture ?? null } : {}),
      ...('cover' in images ? { coverUrl: images.cover ?? null } : {}),
    })
  }, [card, images, background, onDraft])
  const imageProps = (name: 'logo' | 'profilePicture' | 'cover') => ({
    name,
    purpose: name,
    currentUrl: card[`${name}Url`] ?? null,
    errors: imageErrors(reply, name),
    onUploaded: (result: { url: string }) => setImages((now) => ({ ...now, [name]: result.url })),
    onRemoved: () => setImages((now) => ({ ...now, [name]: null })),
  })
  return (
    <div className="flex flex-col gap-6">
      <Form
        id={visualsFormId}
        method="POST"
        encType="multipart/form-data"
        className="flex flex-col gap-6"
        onSubmit={unsaved.markSubmitting}
      >
        <input type="hidden" name="intent" value="visuals" />
        {locked.includes('logo') ? (
          <div className="flex flex-col gap-2">
            <p className="text-sm font-medium">Logo</p>
            {card.logoUrl ? (
              <img src={card.logoUrl} alt="Logo" className="h-16 w-16 object-contain" />
            ) : null}
            <p className="text-xs text-gray-500 dark:text-gray-400">{lockedMessage('logo')}</p>
          </div>
        ) : (
          <ImageField label="Logo" {...imageProps('logo')} />
        )}
        <ImageField label="Profile picture" {...imageProps('profilePicture')} />
        {/* A banner across the card page's top (issue 41 point 6, ADR 083), the owner's own
            as the profile picture is: templates do not set it. */}
        <ImageField
          label="Cover image"
          hint="Shown across the top of your card, 3:1. Recommended 1200×400 px."
          {...imageProps('cover')}
        />
      </Form>
      {locked.includes('background') ? (
        <p className="text-sm text-gray-600 dark:text-gray-400">{lockedMessage('background')}</p>
      ) : (
        <BackgroundPicker
          card={card}
          onPreview={setBackground}
          onPendingChange={setBackgroundPending}
        />
      )}
      {/* The tab's own Save, at its end as on Card Details (issue 30): it submits the images'
          form above (the form attribute, so it works without JavaScript too); a colour or
          gradient applies on its own, an uploaded background with its Apply Changes. */}
      <SaveBar area={area} cardId={card.id} pending={pending} form={visualsFormId} />
      {unsaved.dialog}
    </div>
  )
}
