import { getFormProps, getInputProps, type SubmissionResult } from '@conform-to/react'
import * as AlertDialog from '@radix-ui/react-alert-dialog'
import * as Dialog from '@radix-ui/react-dialog'
import { Form, Link, useActionData, useNavigation } from '@remix-run/react'
import {
  Archive,
  ArchiveRestore,
  CreditCard,
  Eye,
  Mail,
  Pencil,
  Plus,
  Star,
  Trash2,
  WifiOff,
  X,
} from 'lucide-react'
import { useId, useState } from 'react'
import { CardDisplay, type CardView } from '#app/components/cards/card-display'
import { useClientFailureToast } from '#app/components/client-failure'
import { ErrorList, FormMessage, useSchemaForm } from '#app/components/forms'
import { useRootData } from '#app/components/layout/root-data'
import { Button } from '#app/components/ui/button'
import { StatusButton } from '#app/components/ui/status-button'
import { SOURCE_LABELS, VIEW_SOURCES, type ViewSource } from '#app/utils/view-sources'
import { CreateCardSchema } from '#app/validation/cards-list'

// Spec §8: what a failed request says, by the form's intent.
const FAILURES = {
  create: 'Failed to create digital card',
  delete: 'Failed to delete digital card',
  'set-default': 'Failed to set default card',
  archive: 'Failed to archive digital card',
  restore: 'Failed to restore digital card',
}

type ListedCard = CardView & {
  id: string
  title: string
  isDefault: boolean
  /** When it was archived (ADR 095): it then shows nothing anywhere until restored. */
  archivedAt: string | null
  /** The last 14 days' views, in all and by source. */
  views: { views: number; sources: Partial<Record<ViewSource, number>> }
  /** How many people confirmed "Keep me updated" on it (ADR 102). */
  followers: number
}

/** A card's own views of the last 14 days and where they came from. */
function CardViews({ views }: { views: ListedCard['views'] }) {
  const sources = VIEW_SOURCES.filter((source) => (views.sources[source] ?? 0) > 0)
  return (
    <div className="text-sm" data-testid="card-views">
      <p>
        <span className="font-medium tabular-nums">{views.views.toLocaleString('en-US')}</span>{' '}
        {views.views === 1 ? 'view' : 'views'} in the last 14 days
      </p>
      {sources.length ? (
        <ul className="mt-1 flex flex-wrap gap-x-3 text-gray-600 dark:text-gray-400">
          {sources.map((source) => (
            <li key={source} data-source={source}>
              {SOURCE_LABELS[source]} <span className="tabular-nums">{views.sources[source]}</span>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  )
}

type CreateReply = {
  result?: SubmissionResult<string[]>
  intent: string | null
  error: string | null
}

function CreateCardDialog() {
  const [open, setOpen] = useState(false)
  const actionData = useActionData<CreateReply>()
  // Only a refused create is this dialog's (the list's other buttons post to the same action).
  const refused = actionData?.intent === 'create' ? actionData : undefined
  // The list's empty state shows a second Create Card: each dialog's form has its own id.
  const formId = `create-card-${useId()}`
  return (
    <Dialog.Root open={open || Boolean(refused)} onOpenChange={setOpen}>
      <Dialog.Trigger asChild>
        <Button>
          <Plus aria-hidden className="h-4 w-4" /> Create Card
        </Button>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-black/40" />
        <Dialog.Content className="fixed left-1/2 top-1/2 z-50 w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-xl bg-white p-6 shadow-xl dark:bg-gray-900">
          <Dialog.Title className="text-lg font-semibold">Create a new digital card</Dialog.Title>
          <Dialog.Description className="mt-1 text-sm text-gray-600 dark:text-gray-400">
            Start from your profile, or build a new card step by step.
          </Dialog.Description>
          <CreateCardForm id={formId} actionData={refused} />
          <Dialog.Close
            className="absolute right-3 top-3 rounded-md p-1 text-gray-500 hover:bg-gray-100 dark:text-gray-400 dark:hover:bg-gray-800"
            aria-label="Close"
          >
            <X aria-hidden className="h-4 w-4" />
          </Dialog.Close>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  )
}

// Inside the dialog's content: each opening starts empty, without the last opening's messages.
function CreateCardForm({ id, actionData }: { id: string; actionData?: CreateReply }) {
  const [method, setMethod] = useState<'duplicate' | 'new'>('duplicate')
  const navigation = useNavigation()
  const [form, fields] = useSchemaForm(CreateCardSchema, {
    id,
    lastResult: actionData?.result,
    defaultValue: { method: 'duplicate' },
  })
  return (
    <Form method="POST" className="mt-4 flex flex-col gap-4" {...getFormProps(form)}>
      <input type="hidden" name="intent" value="create" />
      {/* A refusal of the whole form (a profile without a name); field messages sit by their field. */}
      {form.errors?.length ? <FormMessage>{form.errors[0]}</FormMessage> : null}
      <div className="flex flex-col gap-1.5">
        <label htmlFor={fields.title.id} className="text-sm font-medium">
          Card title
        </label>
        <input
          {...getInputProps(fields.title, { type: 'text' })}
          placeholder="Leave blank for “{first name}'s Card”"
          className="h-10 rounded-md border border-gray-300 px-3 text-sm font-normal aria-[invalid]:border-red-500 dark:border-gray-700 dark:bg-gray-900"
        />
        <ErrorList id={fields.title.errorId} errors={fields.title.errors} />
      </div>
      <fieldset className="flex flex-col gap-2 text-sm">
        <legend className="mb-1 font-medium">Method</legend>
        {(
          [
            ['duplicate', 'Duplicate from my profile'],
            ['new', 'Create new with the wizard'],
          ] as const
        ).map(([value, label]) => (
          <label key={value} className="flex items-center gap-2">
            <input
              type="radio"
              name={fields.method.name}
              value={value}
              checked={method === value}
              onChange={() => setMethod(value)}
            />
            {label}
          </label>
        ))}
      </fieldset>
      <div className="flex justify-end gap-2">
        <Dialog.Close asChild>
          <Button type="button" variant="secondary">
            Cancel
          </Button>
        </Dialog.Close>
        <StatusButton pending={navigation.state === 'submitting'}>Create</StatusButton>
      </div>
    </Form>
  )
}

/** A button that asks first, then posts one intent for one card (Delete, Archive). */
function ConfirmedCardAction({
  card,
  intent,
  label,
  icon: Icon,
  title,
  description,
  danger = false,
}: {
  card: ListedCard
  intent: 'delete' | 'archive'
  label: string
  icon: typeof Trash2
  title: string
  description: string
  danger?: boolean
}) {
  return (
    <AlertDialog.Root>
      <AlertDialog.Trigger asChild>
        <Button
          variant="ghost"
          size="sm"
          className={danger ? 'text-red-600' : undefined}
          aria-label={`${label} ${card.title}`}
        >
          <Icon aria-hidden className="h-4 w-4" /> {label}
        </Button>
      </AlertDialog.Trigger>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="fixed inset-0 z-40 bg-black/40" />
        <AlertDialog.Content className="fixed left-1/2 top-1/2 z-50 w-[calc(100%-2rem)] max-w-sm -translate-x-1/2 -translate-y-1/2 rounded-xl bg-white p-6 shadow-xl dark:bg-gray-900">
          <AlertDialog.Title className="text-lg font-semibold">{title}</AlertDialog.Title>
          <AlertDialog.Description className="mt-2 text-sm text-gray-600 dark:text-gray-400">
            {description}
          </AlertDialog.Description>
          <div className="mt-6 flex justify-end gap-2">
            <AlertDialog.Cancel asChild>
              <Button variant="secondary">Cancel</Button>
            </AlertDialog.Cancel>
            <Form method="POST">
              <input type="hidden" name="intent" value={intent} />
              <input type="hidden" name="cardId" value={card.id} />
              <Button type="submit" variant={danger ? 'danger' : undefined}>
                {label}
              </Button>
            </Form>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  )
}

const DeleteCardButton = ({ card }: { card: ListedCard }) => (
  <ConfirmedCardAction
    card={card}
    intent="delete"
    label="Delete"
    icon={Trash2}
    title="Delete card"
    description="Are you sure you want to delete this card?"
    danger
  />
)

const ArchiveCardButton = ({ card }: { card: ListedCard }) => (
  <ConfirmedCardAction
    card={card}
    intent="archive"
    label="Archive"
    icon={Archive}
    title="Archive card"
    description="Its link, QR code, NFC tags and wallet passes will show nothing until you restore it. Its views and contacts are kept."
  />
)

/** Archived cards: listed apart, each to restore, edit or delete (ADR 095). */
function ArchivedCards({ cards, listPath }: { cards: ListedCard[]; listPath: string }) {
  return (
    <section aria-labelledby="archived-cards" className="flex flex-col gap-3">
      <div>
        <h2 id="archived-cards" className="text-lg font-semibold">
          Archived
        </h2>
        <p className="text-sm text-gray-600 dark:text-gray-400">
          Nobody can open these cards until you restore them; their views and contacts are kept.
        </p>
      </div>
      <ul className="flex flex-col divide-y divide-gray-200 rounded-2xl border border-gray-200 dark:divide-gray-800 dark:border-gray-800">
        {cards.map((card) => (
          <li
            key={card.id}
            data-testid="archived-card"
            className="flex flex-wrap items-center justify-between gap-2 p-4"
          >
            <div className="min-w-0">
              <h3 className="truncate font-medium">{card.title}</h3>
              {card.archivedAt ? (
                <p className="text-sm text-gray-600 dark:text-gray-400">
                  Archived on{' '}
                  <time dateTime={card.archivedAt}>
                    {new Date(card.archivedAt).toLocaleDateString('en-US', {
                      dateStyle: 'medium',
                      timeZone: 'UTC',
                    })}
                  </time>
                </p>
              ) : null}
            </div>
            <div className="flex flex-wrap gap-1">
              <Form method="POST">
                <input type="hidden" name="intent" value="restore" />
                <input type="hidden" name="cardId" value={card.id} />
                <Button
                  type="submit"
                  variant="ghost"
                  size="sm"
                  aria-label={`Restore ${card.title}`}
                >
                  <ArchiveRestore aria-hidden className="h-4 w-4" /> Restore
                </Button>
              </Form>
              <Button asChild variant="ghost" size="sm">
                <Link to={`${listPath}/edit/${card.id}`} aria-label={`Edit ${card.title}`}>
                  <Pencil aria-hidden className="h-4 w-4" /> Edit
                </Link>
              </Button>
              <DeleteCardButton card={card} />
            </div>
          </li>
        ))}
      </ul>
    </section>
  )
}

export function CardsListPage({ cards, listPath }: { cards: ListedCard[]; listPath: string }) {
  const live = cards.filter((card) => !card.archivedAt)
  const archived = cards.filter((card) => card.archivedAt)
  const productName = useRootData()?.branding.name ?? ''
  useClientFailureToast(useActionData(), FAILURES, 'Failed to update digital card')
  return (
    <main className="mx-auto flex max-w-6xl flex-col gap-6 px-4 py-10">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <div>
          <h1 className="text-2xl font-semibold">Digital Cards</h1>
          <p className="text-sm text-gray-600 dark:text-gray-400">
            Create, edit and share your digital business cards.
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          {/* Each card's QR code and vCard kept on this device for events without a network
              (ADR 104). */}
          <Button asChild variant="secondary">
            <Link to="/offline">
              <WifiOff aria-hidden className="h-4 w-4" /> My cards offline
            </Link>
          </Button>
          <CreateCardDialog />
        </div>
      </div>
      {live.length === 0 ? (
        <section className="flex flex-col items-center gap-3 rounded-2xl border border-dashed border-gray-300 p-12 text-center dark:border-gray-700">
          <CreditCard aria-hidden className="h-10 w-10 text-gray-400" />
          {archived.length === 0 ? (
            <>
              <h2 className="text-lg font-semibold">No digital cards yet</h2>
              <p className="text-sm text-gray-600 dark:text-gray-400">
                Create your first card to start sharing your details.
              </p>
            </>
          ) : (
            <>
              <h2 className="text-lg font-semibold">No active cards</h2>
              <p className="text-sm text-gray-600 dark:text-gray-400">
                Restore an archived card below, or create a new one.
              </p>
            </>
          )}
          <CreateCardDialog />
        </section>
      ) : (
        <ul className="grid gap-6 md:grid-cols-2 lg:grid-cols-3" aria-label="Your cards">
          {live.map((card) => (
            <li
              key={card.id}
              data-testid="card-item"
              data-default={card.isDefault}
              className="flex flex-col gap-4 rounded-2xl border border-gray-200 p-4 dark:border-gray-800"
            >
              <div className="flex items-center justify-between gap-2">
                <h2 className="truncate font-semibold">{card.title}</h2>
                {card.isDefault ? (
                  <span className="rounded-full bg-brand px-2 py-0.5 text-xs font-medium text-brand-foreground">
                    Default
                  </span>
                ) : null}
              </div>
              <CardDisplay card={card} productName={productName} className="mx-auto" />
              <CardViews views={card.views} />
              <p className="text-sm" data-testid="card-followers">
                <span className="font-medium tabular-nums">
                  {card.followers.toLocaleString('en-US')}
                </span>{' '}
                {card.followers === 1 ? 'person follows' : 'people follow'} this card
              </p>
              <div className="flex flex-wrap gap-1">
                <Button asChild variant="ghost" size="sm">
                  <Link to={`/qrcode/${card.id}`}>
                    <Eye aria-hidden className="h-4 w-4" /> View
                  </Link>
                </Button>
                <Button asChild variant="ghost" size="sm">
                  <Link to={`${listPath}/edit/${card.id}`} aria-label={`Edit ${card.title}`}>
                    <Pencil aria-hidden className="h-4 w-4" /> Edit
                  </Link>
                </Button>
                <Button asChild variant="ghost" size="sm">
                  <Link
                    to={`${listPath}/signature/${card.id}`}
                    aria-label={`Signature for ${card.title}`}
                  >
                    <Mail aria-hidden className="h-4 w-4" /> Signature
                  </Link>
                </Button>
                {card.isDefault ? null : (
                  <Form method="POST">
                    <input type="hidden" name="intent" value="set-default" />
                    <input type="hidden" name="cardId" value={card.id} />
                    <Button type="submit" variant="ghost" size="sm">
                      <Star aria-hidden className="h-4 w-4" /> Set as Default
                    </Button>
                  </Form>
                )}
                <ArchiveCardButton card={card} />
                <DeleteCardButton card={card} />
              </div>
            </li>
          ))}
        </ul>
      )}
      {archived.length > 0 ? <ArchivedCards cards={archived} listPath={listPath} /> : null}
    </main>
  )
}
