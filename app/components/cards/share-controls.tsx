import * as Dialog from '@radix-ui/react-dialog'
import { Check, Copy, Mail, MessageSquare, Nfc, Share2 } from 'lucide-react'
import { Fragment, useEffect, useState } from 'react'
import { Button } from '#app/components/ui/button'
import { toast } from '#app/components/ui/toasts'
import { browserCanWriteNfc } from '#app/utils/nfc'
import { withSource } from '#app/utils/view-sources'

/** Whether this device can write an NFC tag (app/utils/nfc.ts); false until hydrated. */
export function useNfcSupport() {
  const [supported, setSupported] = useState(false)
  useEffect(() => {
    setSupported(browserCanWriteNfc())
  }, [])
  return supported
}

/**
 * A URL that wraps only where a reader would break it (issue 41 point 13): after the scheme's
 * `//`, and after `/`, `.`, `-`, `?`, `&` or `=` in its path, never inside the host or a word. A
 * part longer than the line still wraps rather than pushing the page sideways
 * (`overflow-wrap: break-word` on the container).
 */
export function BreakableUrl({ url }: { url: string }) {
  // The host stays whole (a name read in pieces misleads); the path breaks at its separators.
  const [, origin = '', path = ''] = /^([a-z][a-z0-9+.-]*:\/\/[^/?#]*)?(.*)$/i.exec(url) ?? []
  const parts = [...origin.split(/(?<=\/\/)/), ...path.split(/(?<=[/.\-?&=])/)].filter(Boolean)
  return (
    <>
      {parts.map((part, index) => (
        // The parts of one URL never change order: the index is their identity.
        // biome-ignore lint/suspicious/noArrayIndexKey: see above
        <Fragment key={index}>
          {index > 0 ? <wbr /> : null}
          <span>{part}</span>
        </Fragment>
      ))}
    </>
  )
}

/**
 * The device share sheet where there is one; otherwise a bottom sheet with email, text message
 * and 'Copy Link'. Each hands out the link marked with its channel, so its views count as the
 * share sheet's or the copied link's (ADR 039).
 */
export function ShareButton({ url, title }: { url: string; title: string }) {
  const [sheet, setSheet] = useState(false)
  async function share() {
    if (typeof navigator.share === 'function') {
      try {
        await navigator.share({ title, url: withSource(url, 'share') })
        return
      } catch (error) {
        if (error instanceof DOMException && error.name === 'AbortError') return
      }
    }
    setSheet(true)
  }
  return (
    <>
      <Button type="button" variant="secondary" onClick={() => void share()} aria-label="Share">
        <Share2 aria-hidden className="h-4 w-4" /> Share
      </Button>
      <Dialog.Root open={sheet} onOpenChange={setSheet}>
        <Dialog.Portal>
          <Dialog.Overlay className="fixed inset-0 z-40 bg-black/40" />
          <Dialog.Content className="fixed inset-x-0 bottom-0 z-50 mx-auto flex max-w-lg flex-col gap-4 rounded-t-2xl bg-white p-6 shadow-xl dark:bg-gray-900">
            <Dialog.Title className="text-lg font-semibold">Share your card</Dialog.Title>
            <Dialog.Description className="text-sm text-gray-600 [overflow-wrap:break-word] dark:text-gray-400">
              <BreakableUrl url={url} />
            </Dialog.Description>
            <div className="grid gap-2 sm:grid-cols-3">
              <Button asChild variant="secondary">
                <a href={shareByEmail(title, url)}>
                  <Mail aria-hidden className="h-4 w-4" /> Email
                </a>
              </Button>
              <Button asChild variant="secondary">
                <a href={shareByText(title, url)}>
                  <MessageSquare aria-hidden className="h-4 w-4" /> Text message
                </a>
              </Button>
              <CopyLinkButton url={url} label="Copy Link" />
            </div>
            <Dialog.Close asChild>
              <Button variant="ghost">Close</Button>
            </Dialog.Close>
          </Dialog.Content>
        </Dialog.Portal>
      </Dialog.Root>
    </>
  )
}

/** A new email with the card's link, marked as the share sheet's (ADR 039). */
function shareByEmail(title: string, url: string) {
  const query = new URLSearchParams({ subject: title, body: withSource(url, 'share') })
  // mailto wants %20 for spaces; URLSearchParams writes +.
  return `mailto:?${query.toString().replaceAll('+', '%20')}`
}

/** A new text message with the card's link (`sms:?&body=` opens on iOS and Android alike). */
function shareByText(title: string, url: string) {
  return `sms:?&body=${encodeURIComponent(`${title} ${withSource(url, 'share')}`)}`
}

const NFC_UNSUPPORTED = 'NFC is not supported on this device'

type NfcState = 'idle' | 'scanning' | 'success' | 'error'

type NdefWriter = {
  write(
    message: { records: { recordType: string; mediaType?: string; data: string }[] },
    options?: { signal?: AbortSignal },
  ): Promise<void>
}

/**
 * Writes the card's vCard to an NFC tag: idle → 'Ready to Scan' → 'Success!' or 'Error'. The
 * vCard asked for with `?for=n` carries the card link marked as the tag's (card-files.server.ts).
 */
export function NfcShareButton({ vcardUrl }: { vcardUrl: string }) {
  const supported = useNfcSupport()
  const [open, setOpen] = useState(false)
  const [state, setState] = useState<NfcState>('idle')
  const [controller, setController] = useState<AbortController | null>(null)

  useEffect(() => {
    if (state === 'success') {
      // Spec §9: success closes after 2 s; the next opening starts from idle again.
      const timer = setTimeout(() => {
        setOpen(false)
        setState('idle')
      }, 2000)
      return () => clearTimeout(timer)
    }
    if (state === 'error') {
      const timer = setTimeout(() => setState('idle'), 3000)
      return () => clearTimeout(timer)
    }
  }, [state])

  if (!supported) return null

  async function write() {
    const abort = new AbortController()
    setController(abort)
    setState('scanning')
    try {
      const vcard = await (await fetch(`${vcardUrl}?for=n`)).text()
      const Reader = (window as unknown as { NDEFReader: new () => NdefWriter }).NDEFReader
      await new Reader().write(
        { records: [{ recordType: 'mime', mediaType: 'text/vcard', data: vcard }] },
        { signal: abort.signal },
      )
      setState('success')
    } catch (error) {
      if (abort.signal.aborted) return setState('idle')
      setState('error')
      // Web NFC rejects with NotSupportedError when the device has no usable NFC adapter.
      toast.error(
        error instanceof DOMException && error.name === 'NotSupportedError'
          ? NFC_UNSUPPORTED
          : 'Failed to write to NFC tag. Please try again.',
      )
    }
  }

  const titles: Record<NfcState, string> = {
    idle: 'Share via NFC',
    scanning: 'Ready to Scan',
    success: 'Success!',
    error: 'Error',
  }
  return (
    <Dialog.Root
      open={open}
      onOpenChange={(next) => {
        setOpen(next)
        if (!next) {
          controller?.abort()
          setState('idle')
        }
      }}
    >
      <Dialog.Trigger asChild>
        <Button type="button" variant="secondary">
          <Nfc aria-hidden className="h-4 w-4" /> Share via NFC
        </Button>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-black/40" />
        <Dialog.Content className="fixed left-1/2 top-1/2 z-50 flex w-[calc(100%-2rem)] max-w-sm -translate-x-1/2 -translate-y-1/2 flex-col items-center gap-4 rounded-xl bg-white p-6 text-center shadow-xl dark:bg-gray-900">
          <Dialog.Title className="text-lg font-semibold">{titles[state]}</Dialog.Title>
          <Dialog.Description className="text-sm text-gray-600 dark:text-gray-400">
            {state === 'scanning'
              ? 'Hold your phone near the NFC tag.'
              : state === 'success'
                ? 'Your card was written to the tag.'
                : state === 'error'
                  ? 'Failed to write to NFC tag. Please try again.'
                  : 'Write your contact card to an NFC tag.'}
          </Dialog.Description>
          {state === 'scanning' ? (
            <Button
              variant="secondary"
              onClick={() => {
                controller?.abort()
                setState('idle')
              }}
            >
              Cancel
            </Button>
          ) : state === 'error' ? (
            <Button onClick={() => void write()}>Try Again</Button>
          ) : state === 'idle' ? (
            <Button onClick={() => void write()}>Start</Button>
          ) : null}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  )
}

/** The card's QR code, or the spec's error with 'Try Again'. */
export function QrImage({ src, alt }: { src: string; alt: string }) {
  const [failed, setFailed] = useState(false)
  if (failed) {
    return (
      <div
        role="alert"
        className="flex h-48 w-48 flex-col items-center justify-center gap-3 rounded-lg border border-red-200 bg-red-50 p-4 text-center text-sm text-red-700"
      >
        Failed to generate QR code
        <Button size="sm" variant="secondary" onClick={() => window.location.reload()}>
          Try Again
        </Button>
      </div>
    )
  }
  return (
    <img
      src={src}
      alt={alt}
      width={192}
      height={192}
      className="h-48 w-48 rounded-lg bg-white p-1 shadow"
      data-testid="qr-code"
      onError={() => {
        setFailed(true)
        toast.error('Failed to generate QR code. Please try again.')
      }}
    />
  )
}

/** Copies the card link marked as a copied link's (ADR 039). */
export function CopyLinkButton({ url, label = 'Copy link' }: { url: string; label?: string }) {
  const [copied, setCopied] = useState(false)
  useEffect(() => {
    if (!copied) return
    const timer = setTimeout(() => setCopied(false), 3000) // spec: 'Copied!' for 3 s
    return () => clearTimeout(timer)
  }, [copied])
  return (
    <Button
      type="button"
      variant="secondary"
      onClick={async () => {
        await navigator.clipboard.writeText(withSource(url, 'link'))
        setCopied(true)
      }}
    >
      {copied ? (
        <Check aria-hidden className="h-4 w-4" />
      ) : (
        <Copy aria-hidden className="h-4 w-4" />
      )}
      {copied ? 'Copied!' : label}
    </Button>
  )
}
