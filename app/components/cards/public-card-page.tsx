import {
  type FormMetadata,
  getFormProps,
  getInputProps,
  getTextareaProps,
  type SubmissionResult,
} from '@conform-to/react'
import { Form, Link, useFetcher, useNavigate, useSearchParams } from '@remix-run/react'
import { BellRing, CalendarClock, Check, Download, QrCode, UserPlus } from 'lucide-react'
import { type ReactNode, useEffect, useRef, useState } from 'react'
import type { CardExtrasView } from '#app/cards/card-extras'
import type { WalletOffers } from '#app/cards/wallet-offers.server'
import { CardDisplay, type CardView } from '#app/components/cards/card-display'
import { VideoFacade } from '#app/components/cards/video-facade'
import { WalletBadge } from '#app/components/cards/wallet-badge'
import { isClientFailure } from '#app/components/client-failure'
import { ErrorList, FormField, FormMessage, useSchemaForm } from '#app/components/forms'
import { useRootData } from '#app/components/layout/root-data'
import { useTranslate } from '#app/components/layout/use-translate'
import { BackButton } from '#app/components/ui/back-button'
import { Button } from '#app/components/ui/button'
import { StatusButton } from '#app/components/ui/status-button'
import { TitledSection } from '#app/components/ui/titled-section'
import { toast } from '#app/components/ui/toasts'
import { LANGUAGE_PARAM } from '#app/utils/i18n/negotiate'
import type { Translate } from '#app/utils/i18n/translate'
import { LANGUAGE_NAMES } from '#app/validation/languages'
import { FollowSchema, LeadSchema } from '#app/validation/public-card'

type Reply = {
  message: string | null
  ok: boolean
  result?: SubmissionResult<string[]>
}

/** What a card's address shows in place of a card: a heading, a text, the way home. */
function CardNotice({
  titleRow,
  testId,
  children,
}: {
  titleRow?: ReactNode
  testId?: string
  children: ReactNode
}) {
  const t = useTranslate()
  return (
    <main className="mx-auto flex max-w-xl flex-col gap-6 px-4 py-10">
      {titleRow}
      <section
        data-testid={testId}
        className="flex flex-col items-center gap-4 rounded-2xl border border-gray-200 p-10 text-center dark:border-gray-800"
      >
        {children}
        <Button asChild>
          <Link to="/">{t('card.goHome')}</Link>
        </Button>
      </section>
    </main>
  )
}

export function CardNotFound() {
  const t = useTranslate()
  return (
    <CardNotice
      titleRow={
        <div className="flex items-center gap-3">
          <BackButton to="/" />
          <p className="text-lg font-semibold">{t('card.notFoundTitle')}</p>
        </div>
      }
    >
      <h1 className="text-2xl font-semibold">{t('card.notFoundHeading')}</h1>
      <p className="text-gray-600 dark:text-gray-400">{t('card.notFoundText')}</p>
    </CardNotice>
  )
}

/**
 * A departed person's card (ADR 049): the agency's message instead of the card. Nothing of the
 * person's card is on it; the tenant's home is one tap away.
 */
export function CardForwarded({ message }: { message: string }) {
  const t = useTranslate()
  return (
    <CardNotice testId="card-forwarded">
      <h1 className="text-2xl font-semibold">{t('card.forwardedHeading')}</h1>
      <p className="whitespace-pre-line break-words text-gray-600 dark:text-gray-400">{message}</p>
    </CardNotice>
  )
}

/** Spec §8: the export toast names the platform the file was made for. */
function exportToast(t: Translate) {
  const ua = navigator.userAgent
  if (/iPhone|iPad|iPod/i.test(ua)) return [t('card.exportedIos'), t('card.exportPrompt')] as const
  if (/Android|Mobile/i.test(ua)) {
    return [t('card.exportedMobile'), t('card.exportPrompt')] as const
  }
  if (/Macintosh|Mac OS X/i.test(ua)) return [t('card.exportedMac'), undefined] as const
  if (/Windows/i.test(ua)) return [t('card.exportedWindows'), undefined] as const
  return [t('card.exportedFile'), undefined] as const
}

/** The server's message; when the request itself failed (network, 5xx), `failure` (spec §8). */
function useReplyToast(fetcher: ReturnType<typeof useFetcher<Reply>>, failure: string) {
  useEffect(() => {
    if (fetcher.state !== 'idle' || !fetcher.data) return
    if (isClientFailure(fetcher.data)) toast.error(failure)
    else if (!fetcher.data.message) return
    else if (fetcher.data.ok) toast.success(fetcher.data.message)
    else toast.error(fetcher.data.message)
  }, [fetcher.state, fetcher.data, failure])
}

/** One of the forms a visitor fills in under the card (leave details, keep me updated). */
function VisitorFormSection({
  id,
  title,
  intro,
  children,
}: {
  id: string
  title: string
  intro: ReactNode
  children: ReactNode
}) {
  return (
    <TitledSection
      id={id}
      title={title}
      className="w-full rounded-2xl border border-gray-200 p-6 dark:border-gray-800"
      titleClassName="text-lg font-semibold"
    >
      <p className="mb-4 text-sm text-gray-600 dark:text-gray-400">{intro}</p>
      {children}
    </TitledSection>
  )
}

/**
 * Such a form, posted by its fetcher with its intent. `data-{intent}-form` and `data-failure` are
 * for card-visitor.js, the page's script without React.
 */
function VisitorForm<Schema extends Record<string, unknown>>({
  fetcher,
  form,
  intent,
  failure,
  className,
  children,
}: {
  fetcher: ReturnType<typeof useFetcher<Reply>>
  form: FormMetadata<Schema, string[]>
  intent: 'lead' | 'follow'
  failure: string
  className: string
  children: ReactNode
}) {
  const t = useTranslate()
  return (
    <fetcher.Form
      method="POST"
      className={className}
      {...{ [`data-${intent}-form`]: true }}
      data-failure={failure}
      {...getFormProps(form)}
    >
      <input type="hidden" name="intent" value={intent} />
      {/* Honeypot: hidden from people and from assistive technology. */}
      <div aria-hidden className="absolute -left-[9999px] h-0 w-0 overflow-hidden">
        <label>
          {t('lead.website')}
          <input type="text" name="website" tabIndex={-1} autoComplete="off" />
        </label>
      </div>
      {children}
    </fetcher.Form>
  )
}

/** The agency's consent text the lead form asks the visitor to agree to (ADR 050). */
export type LeadConsentView = { id: string; body: string }

function LeadForm({
  firstName,
  consent,
  vcardUrl,
  vcardFilename,
  bookingUrl,
  signedIn,
}: {
  firstName: string
  consent: LeadConsentView | null
  vcardUrl: string
  vcardFilename: string
  /** The owner's booking link, the next step a thank-you offers. */
  bookingUrl: string | null
  signedIn: boolean
}) {
  const t = useTranslate()
  const fetcher = useFetcher<Reply>()
  const failure = t('lead.failure')
  useEffect(() => {
    if (fetcher.state === 'idle' && isClientFailure(fetcher.data)) toast.error(failure)
  }, [fetcher.state, fetcher.data, failure])
  // The server's reply resets the form after a lead is taken (resetForm), as card-visitor.js does.
  const [form, fields] = useSchemaForm(LeadSchema, {
    id: 'lead',
    lastResult: fetcher.data?.result,
  })
  return (
    <VisitorFormSection
      id="lead-heading"
      title={t('lead.heading', { firstName })}
      intro={t('lead.noAccount')}
    >
      <VisitorForm
        fetcher={fetcher}
        form={form}
        intent="lead"
        failure={failure}
        className="grid gap-4 sm:grid-cols-2"
      >
        <FormField label={t('lead.yourName')} field={fields.fullName} autoComplete="name" />
        <FormField
          label={t('lead.yourEmail')}
          field={fields.email}
          type="email"
          autoComplete="email"
        />
        <FormField
          label={t('lead.yourPhone')}
          field={fields.phoneNumber}
          type="tel"
          autoComplete="tel"
        />
        <FormField
          label={t('lead.yourCompany')}
          field={fields.company}
          autoComplete="organization"
        />
        <div className="flex flex-col gap-1.5 sm:col-span-2">
          <label htmlFor={fields.note.id} className="text-sm font-medium">
            {t('lead.note')}
          </label>
          <textarea
            {...getTextareaProps(fields.note)}
            rows={3}
            className="rounded-md border border-gray-300 p-3 text-sm font-normal aria-[invalid]:border-red-500 dark:border-gray-700 dark:bg-gray-900"
          />
          <ErrorList id={fields.note.errorId} errors={fields.note.errors} />
        </div>
        {consent ? (
          // The version shown is posted back: the lead records the words it agreed to.
          // Laid out as a grid so the error list (ours, or card-visitor.js's) sits under the text.
          <div className="grid grid-cols-[auto_1fr] items-start gap-x-3 gap-y-1.5 sm:col-span-2 [&>ul]:col-start-2">
            <input type="hidden" name="consentTextId" value={consent.id} />
            <input
              {...getInputProps(fields.consent, { type: 'checkbox', value: 'on' })}
              required
              className="mt-0.5 h-4 w-4 rounded border-gray-300 dark:border-gray-700"
            />
            <label
              htmlFor={fields.consent.id}
              className="whitespace-pre-line text-sm text-gray-700 dark:text-gray-300"
            >
              {consent.body}
            </label>
            <ErrorList id={fields.consent.errorId} errors={fields.consent.errors} />
          </div>
        ) : null}
        <ErrorList errors={form.errors} />
        {fetcher.data?.ok && fetcher.data.message ? (
          <div className="sm:col-span-2">
            <FormMessage tone="info">{fetcher.data.message}</FormMessage>
          </div>
        ) : null}
        <StatusButton
          pending={fetcher.state !== 'idle'}
          className="sm:col-span-2 sm:justify-self-end"
        >
          {t('lead.send')}
        </StatusButton>
      </VisitorForm>
      <LeadThanks
        firstName={firstName}
        vcardUrl={vcardUrl}
        vcardFilename={vcardFilename}
        bookingUrl={bookingUrl}
        shown={Boolean(fetcher.data?.ok)}
      />
      {signedIn ? null : (
        // The spec's connect flow for a person with an account: sign in, then connected.
        <Form method="POST" data-connect-form className="mt-4 text-sm">
          <input type="hidden" name="intent" value="connect" />
          <span className="text-gray-600 dark:text-gray-400">{t('lead.haveAccount')} </span>
          <button type="submit" className="font-medium text-brand-text underline">
            {t('lead.signInToConnect')}
          </button>
        </Form>
      )}
    </VisitorFormSection>
  )
}

/**
 * "Keep me updated" (ADR 102): the visitor's address gets a link to confirm; once confirmed, an
 * email with the new contact card whenever the title, company, phone, email or photo changes.
 */
function FollowForm({ firstName }: { firstName: string }) {
  const t = useTranslate()
  const fetcher = useFetcher<Reply>()
  const failure = t('follow.failure')
  useReplyToast(fetcher, failure)
  const [form, fields] = useSchemaForm(FollowSchema, {
    id: 'follow',
    lastResult: fetcher.data?.result,
  })
  return (
    <VisitorFormSection
      id="follow-heading"
      title={t('follow.heading')}
      intro={t('follow.text', { firstName })}
    >
      <VisitorForm
        fetcher={fetcher}
        form={form}
        intent="follow"
        failure={failure}
        className="flex flex-col gap-4 sm:flex-row sm:items-start"
      >
        <div className="flex-1">
          <FormField
            label={t('follow.email')}
            field={fields.email}
            type="email"
            autoComplete="email"
          />
        </div>
        <ErrorList errors={form.errors} />
        {fetcher.data?.ok && fetcher.data.message ? (
          <FormMessage tone="info">{fetcher.data.message}</FormMessage>
        ) : null}
        <StatusButton pending={fetcher.state !== 'idle'} variant="secondary" className="sm:mt-6">
          <BellRing aria-hidden className="h-4 w-4" /> {t('follow.heading')}
        </StatusButton>
      </VisitorForm>
    </VisitorFormSection>
  )
}

/**
 * After the details are sent: the owner's contact to save and the owner's next step (their
 * booking link, where the card has one). Rendered hidden with the page, so card-visitor.js (the
 * page without React) shows the same panel as React does.
 */
function LeadThanks({
  firstName,
  vcardUrl,
  vcardFilename,
  bookingUrl,
  shown,
}: {
  firstName: string
  vcardUrl: string
  vcardFilename: string
  bookingUrl: string | null
  shown: boolean
}) {
  const t = useTranslate()
  return (
    <div
      data-lead-thanks
      hidden={!shown}
      className="mt-4 flex flex-col gap-3 rounded-xl bg-gray-50 p-4 dark:bg-gray-900"
    >
      <p className="text-sm font-medium">{t('lead.keepTheirs', { firstName })}</p>
      <div className="flex flex-wrap gap-2">
        <Button asChild variant="secondary">
          <a href={vcardUrl} download data-save-contact data-filename={vcardFilename}>
            <Download aria-hidden className="h-4 w-4" /> {t('lead.saveTheirContact', { firstName })}
          </a>
        </Button>
        {bookingUrl ? (
          <Button asChild>
            <a href={bookingUrl} target="_blank" rel="noopener noreferrer">
              <CalendarClock aria-hidden className="h-4 w-4" /> {t('lead.book', { firstName })}
            </a>
          </Button>
        ) : null}
      </div>
    </div>
  )
}

/**
 * What a recipient does with the card besides saving it (issue 41 point 6): show its QR code to
 * the person beside them (a disclosure, so it works without JavaScript, its image loaded only
 * when opened), and keep it in a wallet where one is configured.
 */
function PassItOn({
  firstName,
  qrUrl,
  wallet,
}: {
  firstName: string
  qrUrl: string
  wallet: WalletOffers
}) {
  const t = useTranslate()
  // A phone is offered its own platform's wallet only, as each platform's guidelines ask; the
  // page itself is the same for every device (card-visitor.js does this without React).
  const [platform, setPlatform] = useState<'ios' | 'android' | null>(null)
  useEffect(() => {
    const agent = navigator.userAgent
    setPlatform(/iPhone|iPad|iPod/.test(agent) ? 'ios' : /Android/.test(agent) ? 'android' : null)
  }, [])
  const apple = wallet.apple && platform !== 'android' ? wallet.apple : null
  const google = wallet.google && platform !== 'ios' ? wallet.google : null
  return (
    <div className="flex w-full max-w-sm flex-col items-center gap-3">
      <details
        className="group w-full rounded-xl border border-gray-200 dark:border-gray-800"
        data-show-qr
      >
        <summary className="flex min-h-11 cursor-pointer list-none items-center justify-center gap-2 rounded-xl px-4 text-sm font-medium hover:bg-gray-50 dark:hover:bg-gray-900 [&::-webkit-details-marker]:hidden">
          <QrCode aria-hidden className="h-4 w-4" />
          <span className="group-open:hidden">{t('card.showQr')}</span>
          <span className="hidden group-open:inline">{t('card.hideQr')}</span>
        </summary>
        <div className="flex flex-col items-center gap-2 px-4 pb-4">
          <img
            src={qrUrl}
            alt={t('card.qrAlt', { firstName })}
            loading="lazy"
            width={220}
            height={220}
            className="h-56 w-56 rounded-lg bg-white p-2"
          />
          <p className="text-center text-xs text-gray-600 dark:text-gray-400">{t('card.qrHint')}</p>
        </div>
      </details>
      {apple || google ? (
        <div className="flex flex-wrap justify-center gap-2">
          {apple ? <WalletBadge href={apple} wallet="Apple" /> : null}
          {google ? <WalletBadge href={google} wallet="Google" /> : null}
        </div>
      ) : null}
    </div>
  )
}

/**
 * The page's languages as links (ADR 105): a visitor whose browser asked for another language
 * picks theirs. A `?lang=` page is never cached, and each link says its language in its own.
 */
function LanguageSwitcher() {
  const root = useRootData()
  const t = useTranslate()
  const offered = root?.languages ?? []
  if (offered.length < 2) return null
  return (
    <nav aria-label={t('card.language')} className="w-full max-w-sm">
      <ul className="flex flex-wrap justify-center gap-x-3 gap-y-1 text-sm">
        {offered.map((language) => (
          <li key={language}>
            <a
              href={`?${LANGUAGE_PARAM}=${language}`}
              hrefLang={language}
              lang={language}
              aria-current={language === root?.language ? 'true' : undefined}
              className="inline-flex min-h-6 items-center underline-offset-2 hover:underline aria-[current]:font-semibold aria-[current]:underline"
            >
              {LANGUAGE_NAMES[language]}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  )
}

/** The words card-visitor.js (the page without React) says, in the page's language. */
function VisitorMessages({ t }: { t: Translate }) {
  const messages = {
    notifications: t('frame.notifications'),
    closeToast: t('frame.closeToast'),
    redirecting: t('frame.redirecting'),
    video: t('frame.video'),
    exportedIos: t('card.exportedIos'),
    exportedMobile: t('card.exportedMobile'),
    exportedMac: t('card.exportedMac'),
    exportedWindows: t('card.exportedWindows'),
    exportedFile: t('card.exportedFile'),
    exportPrompt: t('card.exportPrompt'),
    exportFailed: t('card.exportFailed'),
  }
  return <div hidden data-visitor-messages={JSON.stringify(messages)} />
}

export function PublicCardPage({
  card,
  extras,
  vcardUrl,
  signedIn,
  isOwner,
  connected = false,
  consent = null,
  qrUrl,
  wallet = { apple: null, google: null },
}: {
  card: CardView & { id: string; email: string; workEmail: string }
  extras: CardExtrasView
  vcardUrl: string
  signedIn: boolean
  isOwner: boolean
  /** A signed-in visitor already in the owner's contacts. */
  connected?: boolean
  consent?: LeadConsentView | null
  qrUrl: string
  wallet?: WalletOffers
}) {
  const productName = useRootData()?.branding.name ?? ''
  const t = useTranslate()
  const connect = useFetcher<Reply>()
  const autoConnect = useFetcher<Reply>()
  const save = useFetcher<Reply>()
  useReplyToast(connect, t('card.connectFailed', { firstName: card.firstName }))
  useReplyToast(autoConnect, t('card.autoConnectFailed'))
  useReplyToast(save, t('card.saveFailed'))
  const [searchParams] = useSearchParams()
  const navigate = useNavigate()
  const autoConnected = useRef(false)

  // Back from sign-in with ?connect=1: connect once, then drop the flag from the URL. The flag
  // goes only once the connection has answered: a navigation started alongside the submission
  // would race it (and its revalidation) for the page's state.
  useEffect(() => {
    if (autoConnected.current || !signedIn || isOwner || searchParams.get('connect') !== '1') return
    autoConnected.current = true
    autoConnect.submit({ intent: 'connect' }, { method: 'POST' })
  }, [signedIn, isOwner, searchParams, autoConnect])
  useEffect(() => {
    if (!autoConnected.current || autoConnect.state !== 'idle' || !autoConnect.data) return
    if (searchParams.get('connect') !== '1') return
    navigate(`/card/${card.id}`, { replace: true, preventScrollReset: true })
  }, [autoConnect.state, autoConnect.data, searchParams, navigate, card.id])

  async function saveContact(event: React.MouseEvent) {
    event.preventDefault()
    try {
      const response = await fetch(vcardUrl)
      if (!response.ok) throw new Error('vCard failed')
      const blob = await response.blob()
      const link = document.createElement('a')
      link.href = URL.createObjectURL(blob)
      link.download = `${card.firstName}_${card.lastName}.vcf`
      document.body.append(link)
      link.click()
      link.remove()
      setTimeout(() => URL.revokeObjectURL(link.href), 10_000)
      const [title, description] = exportToast(t)
      toast.success(title, { description })
    } catch {
      toast.error(t('card.exportFailed'), {
        description: signedIn ? t('card.exportFailedSaved') : undefined,
      })
    }
    if (signedIn && !isOwner) save.submit({ intent: 'save' }, { method: 'POST' })
  }

  // On a phone the card comes first: a slim title row, and "Save Contact" held at the bottom of
  // the screen (the page keeps room for it), full width and 48 px high.
  return (
    <main className="mx-auto flex max-w-xl flex-col items-center gap-4 px-4 pt-2 pb-28 sm:gap-6 sm:pt-6 sm:pb-8">
      {/* A recipient gets no app chrome (issue 41 point 6, ADR 080): the spec's back button and
          title are for a signed-in person, who has an app to go back to. */}
      {signedIn ? (
        <div className="flex w-full items-center gap-2">
          <BackButton to="/" />
          <h1 className="text-base font-semibold">{t('card.title')}</h1>
        </div>
      ) : (
        <h1 className="sr-only">{t('card.title')}</h1>
      )}
      <CardDisplay
        card={card}
        productName={productName}
        extras={extras}
        emails={[card.workEmail, card.email]}
      />
      {extras.videoUrl ? (
        <VideoFacade videoUrl={extras.videoUrl} firstName={card.firstName} card={card} />
      ) : null}
      <div className="flex w-full max-w-sm flex-col gap-3">
        <div className="fixed inset-x-0 bottom-0 z-20 border-t border-gray-200 bg-white/95 p-3 sm:static sm:border-0 sm:bg-transparent sm:p-0 dark:border-gray-800 dark:bg-gray-950/95 sm:dark:bg-transparent">
          <Button asChild size="lg" className="h-12 w-full">
            <a
              href={vcardUrl}
              download
              onClick={saveContact}
              data-save-contact
              data-filename={`${card.firstName}_${card.lastName}.vcf`}
            >
              <Download aria-hidden className="h-4 w-4" /> {t('card.saveContact')}
            </a>
          </Button>
        </div>
        {isOwner ? null : signedIn ? (
          // Signed in: one tap, and then the button says it is done (issue 41 point 7).
          connected || connect.data?.ok || autoConnect.data?.ok ? (
            <Button size="lg" variant="secondary" className="h-12 w-full" disabled>
              <Check aria-hidden className="h-4 w-4 shrink-0" />
              <span className="truncate">
                {t('card.connectedWith', { firstName: card.firstName })}
              </span>
            </Button>
          ) : (
            <Form
              method="POST"
              data-connect-form
              onSubmit={(event) => {
                event.preventDefault()
                connect.submit({ intent: 'connect' }, { method: 'POST' })
              }}
            >
              <input type="hidden" name="intent" value="connect" />
              <StatusButton
                pending={connect.state !== 'idle' || autoConnect.state !== 'idle'}
                size="lg"
                variant="secondary"
                className="h-12 w-full whitespace-nowrap"
              >
                <UserPlus aria-hidden className="h-4 w-4 shrink-0" />
                <span className="truncate">
                  {t('card.connectWith', { firstName: card.firstName })}
                </span>
              </StatusButton>
            </Form>
          )
        ) : (
          // Signed out: connecting is the exchange form below, no account needed (issue 41
          // point 7); a person with an account signs in from the form's foot.
          <Button asChild size="lg" variant="secondary" className="h-12 w-full">
            <a href="#lead-heading">
              <UserPlus aria-hidden className="h-4 w-4 shrink-0" />
              <span className="truncate">
                {t('card.connectWith', { firstName: card.firstName })}
              </span>
            </a>
          </Button>
        )}
      </div>
      <PassItOn firstName={card.firstName} qrUrl={qrUrl} wallet={wallet} />
      {isOwner ? null : (
        <LeadForm
          firstName={card.firstName}
          consent={consent}
          vcardUrl={vcardUrl}
          vcardFilename={`${card.firstName}_${card.lastName}.vcf`}
          bookingUrl={extras.links.find((link) => link.kind === 'booking')?.url ?? null}
          signedIn={signedIn}
        />
      )}
      {isOwner ? null : <FollowForm firstName={card.firstName} />}
      <LanguageSwitcher />
      <VisitorMessages t={t} />
    </main>
  )
}
