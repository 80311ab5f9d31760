// "My cards offline" (issue 45 point 4, ADR 104): each card's QR code and vCard, kept on this
// device by the service worker for when there is no network, and a form to capture a lead at an
// event. A lead is stored in the browser's queue first and sent when the network is there; the
// count of those waiting, a toast for each that arrived, and the server's message for one it
// refused (kept until it is corrected or discarded: nothing is lost silently).
import { getFormProps } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { CloudOff, Download } from 'lucide-react'
import { type FormEvent, useCallback, useEffect, useMemo, useState } from 'react'
import { ContactFields } from '#app/components/contacts/contact-form-fields'
import { ErrorList, useSchemaForm } from '#app/components/forms'
import { useRootData } from '#app/components/layout/root-data'
import { Button } from '#app/components/ui/button'
import { TitledSection } from '#app/components/ui/titled-section'
import { preloadToasts, toast } from '#app/components/ui/toasts'
import {
  announceOwner,
  browserLeadStore,
  keepForOffline,
  pageResources,
  sendLead,
} from '#app/leads/offline-browser'
import {
  captureLead,
  flushLeads,
  oneRoundAtATime,
  type QueuedLead,
  queuedLeads,
  waitingText,
} from '#app/leads/offline-queue'
import type { offlineLoader } from '#app/leads/offline-route.server'
import { type OfflineLeadFields, OfflineLeadFieldsSchema } from '#app/validation/offline-lead'

type Cards = Awaited<ReturnType<typeof offlineLoader>>['cards']
type Readiness = 'checking' | 'kept' | 'offline' | 'unsupported' | 'failed'

const READINESS_TEXT: Record<Readiness, string> = {
  checking: 'Saving your cards on this device…',
  kept: 'Ready offline: your cards, QR codes and vCards are saved on this device.',
  offline: 'You are offline: this is what this device saved.',
  unsupported: 'This browser cannot keep pages offline.',
  failed: 'Some of your cards could not be saved on this device; open this page again online.',
}

const SECTION =
  'flex flex-col gap-4 rounded-xl border border-gray-200 bg-white p-4 shadow-sm dark:border-gray-800 dark:bg-gray-950'

export function OfflinePage({ cards }: { cards: Cards }) {
  const owner = useRootData()?.user?.offlineKey ?? null
  const [readiness, setReadiness] = useState<Readiness>('checking')
  const [leads, setLeads] = useState<QueuedLead[]>([])

  // While online, the worker keeps (or refreshes) the page and each card's files for this owner.
  useEffect(() => {
    if (!owner) return
    if (!navigator.onLine) {
      // Ready for a lead's toast: the worker answers the toasts' script from what it kept.
      void preloadToasts()
      setReadiness('offline')
      return
    }
    // The toasts' own script first, so that it is among what the page keeps: a lead that arrives
    // (or is refused) says so in a toast, and that must not need the network.
    preloadToasts()
      .then(() =>
        keepForOffline(owner, [
          ...pageResources(document),
          ...cards.flatMap((card) => [card.qrUrl, card.vcardUrl]),
        ]),
      )
      .then((kept) => setReadiness(kept === null ? 'unsupported' : kept.failed ? 'failed' : 'kept'))
      .catch(() => setReadiness('failed'))
  }, [owner, cards])

  const reload = useCallback(async () => {
    if (owner) setLeads(await queuedLeads(browserLeadStore, owner))
  }, [owner])

  const flush = useMemo(
    () =>
      oneRoundAtATime(async () => {
        if (!owner) return
        try {
          const report = await flushLeads(browserLeadStore, owner, sendLead)
          for (const { lead, message } of report.arrived) {
            toast.success(message, { description: lead.fields.fullName })
          }
          for (const { lead, message } of report.refused) {
            toast.error(`${lead.fields.fullName}: ${message}`)
          }
        } finally {
          await reload()
        }
      }),
    [owner, reload],
  )

  useEffect(() => {
    announceOwner(owner)
    reload().then(flush)
    window.addEventListener('online', flush)
    return () => window.removeEventListener('online', flush)
  }, [owner, reload, flush])

  const waiting = leads.filter((lead) => lead.refusal === null).length
  const refused = leads.filter((lead) => lead.refusal !== null)
  const [editing, setEditing] = useState<QueuedLead | null>(null)

  async function capture(fields: OfflineLeadFields) {
    if (!owner) return false
    try {
      await captureLead(browserLeadStore, owner, fields, new Date())
    } catch {
      // Storage refused (a private window, a full disk): the details stay in the form.
      toast.error('This browser could not keep the lead; please note it elsewhere')
      return false
    }
    // A corrected lead is a new one: new details under the old key would be refused.
    if (editing) await browserLeadStore.remove(editing.key)
    setEditing(null)
    // No toast here: the count below (a status) says the lead is waiting.
    await reload()
    void flush()
    return true
  }

  async function discard(lead: QueuedLead) {
    await browserLeadStore.remove(lead.key)
    if (editing?.key === lead.key) setEditing(null)
    await reload()
  }

  return (
    <main className="mx-auto flex w-full max-w-3xl flex-col gap-6 px-4 py-10">
      <div className="flex flex-col gap-2">
        <h1 className="text-2xl font-semibold">My cards offline</h1>
        <p
          role="status"
          data-readiness={readiness}
          className="flex items-center gap-2 text-sm text-gray-700 dark:text-gray-300"
        >
          {readiness === 'offline' ? <CloudOff aria-hidden className="h-4 w-4 shrink-0" /> : null}
          {READINESS_TEXT[readiness]}
        </p>
      </div>
      <TitledSection
        id="offline-cards"
        title="Your cards"
        className={SECTION}
        titleClassName="text-lg font-semibold"
      >
        {cards.length === 0 ? (
          <p className="text-sm text-gray-700 dark:text-gray-300">You have no card to show yet.</p>
        ) : (
          <ul className="grid grid-cols-1 gap-4 sm:grid-cols-2">
            {cards.map((card) => (
              <li
                key={card.id}
                className="flex flex-col items-center gap-3 rounded-lg border border-gray-200 p-4 dark:border-gray-800"
              >
                <p className="text-center">
                  <span className="block font-medium">{card.name}</span>
                  <span className="block text-sm text-gray-600 dark:text-gray-400">
                    {card.title}
                  </span>
                </p>
                {/* White behind the code in dark mode too: a scanner needs the contrast. */}
                <img
                  src={card.qrUrl}
                  alt={`QR code of ${card.title}`}
                  width={192}
                  height={192}
                  className="h-48 w-48 rounded bg-white p-2"
                />
                <Button asChild variant="secondary" size="sm">
                  <a href={card.vcardUrl}>
                    <Download aria-hidden className="h-4 w-4" /> vCard of {card.title}
                  </a>
                </Button>
              </li>
            ))}
          </ul>
        )}
      </TitledSection>
      <TitledSection
        id="offline-lead"
        title="Capture a lead"
        className={SECTION}
        titleClassName="text-lg font-semibold"
      >
        <p className="text-sm text-gray-700 dark:text-gray-300">
          Met someone at an event? Their details are kept on this device and added to your contacts
          as soon as there is a network, once.
        </p>
        <LeadForm
          key={editing?.key ?? 'new'}
          editing={editing}
          onCapture={capture}
          disabled={!owner}
        />
        <p role="status" className="text-sm font-medium" data-testid="leads-waiting">
          {waitingText(waiting) ?? 'No lead waiting to send.'}
        </p>
        {refused.length ? (
          <ul aria-label="Leads the server refused" className="flex flex-col gap-2">
            {refused.map((lead) => (
              <li
                key={lead.key}
                className="flex flex-col gap-2 rounded-lg border border-danger-edge p-3 sm:flex-row sm:items-center"
              >
                <p className="flex-1 text-sm">
                  <span className="block font-medium">{lead.fields.fullName}</span>
                  <span className="block text-red-700 dark:text-red-300">{lead.refusal}</span>
                </p>
                <div className="flex gap-2">
                  <Button variant="secondary" size="sm" onClick={() => setEditing(lead)}>
                    Correct {lead.fields.fullName}
                  </Button>
                  <Button variant="ghost" size="sm" onClick={() => discard(lead)}>
                    Discard {lead.fields.fullName}
                  </Button>
                </div>
              </li>
            ))}
          </ul>
        ) : null}
      </TitledSection>
    </main>
  )
}

function LeadForm({
  editing,
  onCapture,
  disabled,
}: {
  editing: QueuedLead | null
  onCapture: (fields: OfflineLeadFields) => Promise<boolean>
  disabled: boolean
}) {
  const [form, fields] = useSchemaForm(OfflineLeadFieldsSchema, {
    id: 'offline-lead-form',
    defaultValue: editing?.fields,
  })
  const formProps = getFormProps(form)
  // No post: the lead goes to the queue (this page works without a network, not without
  // JavaScript). conform checks the fields first and stops a form with mistakes.
  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    formProps.onSubmit(event)
    if (event.defaultPrevented) return
    event.preventDefault()
    const element = event.currentTarget
    const parsed = parseWithZod(new FormData(element), { schema: OfflineLeadFieldsSchema })
    if (parsed.status !== 'success') return
    // Emptied only once the lead is kept: a refused save leaves what was typed.
    if (await onCapture(parsed.value)) element.reset()
  }
  return (
    <form {...formProps} onSubmit={onSubmit} className="flex flex-col gap-4">
      <ErrorList id={form.errorId} errors={form.errors} />
      <ContactFields fields={fields} />
      <Button type="submit" className="self-start" disabled={disabled}>
        Save lead
      </Button>
    </form>
  )
}
