// The email signature builder (issue 29 point 3, ADR 044): a layout, a preview of the exact HTML
// /card/{id}/signature.html answers, "Copy signature" as rich text and its HTML source, and how to
// paste it into Gmail, Outlook and Apple Mail.
import * as Tabs from '@radix-ui/react-tabs'
import { Link } from '@remix-run/react'
import { ArrowLeft, Code, Copy, FileText, Lock } from 'lucide-react'
import { useEffect, useRef } from 'react'
import { Button } from '#app/components/ui/button'
import { toast } from '#app/components/ui/toasts'
import { cn } from '#app/utils/cn'
import { SIGNATURE_LAYOUT_LABELS, type SignatureLayout } from '#app/validation/email-signature'

type Props = {
  card: { id: string; title: string; name: string }
  layout: SignatureLayout
  layouts: readonly SignatureLayout[]
  html: string
  text: string
  htmlPath: string
  textPath: string
  isPublic: boolean
  qrPath: string
}

/**
 * The signature as rich text (HTML with a plain-text twin) where the browser has ClipboardItem;
 * elsewhere the preview's own document selected and copied, which puts the same rich text there.
 */
async function copyRichText(html: string, text: string, preview: HTMLIFrameElement | null) {
  if (typeof ClipboardItem !== 'undefined' && navigator.clipboard?.write) {
    try {
      await navigator.clipboard.write([
        new ClipboardItem({
          'text/html': new Blob([html], { type: 'text/html' }),
          'text/plain': new Blob([text], { type: 'text/plain' }),
        }),
      ])
      return true
    } catch {
      // Refused (no permission, no focus): try the selection below.
    }
  }
  const doc = preview?.contentDocument
  const selection = doc?.getSelection()
  if (!doc || !selection) return false
  const range = doc.createRange()
  range.selectNodeContents(doc.body)
  selection.removeAllRanges()
  selection.addRange(range)
  const copied = doc.execCommand('copy')
  selection.removeAllRanges()
  return copied
}

const STEPS: { id: string; label: string; steps: string[] }[] = [
  {
    id: 'gmail',
    label: 'Gmail',
    steps: [
      'Click Copy signature above.',
      'In Gmail, click the gear icon, then See all settings.',
      'On the General tab, scroll to Signature and click Create new.',
      'Paste into the signature box (Ctrl+V, or ⌘V on a Mac).',
      'Scroll down and click Save Changes.',
    ],
  },
  {
    id: 'outlook',
    label: 'Outlook',
    steps: [
      'Click Copy signature above.',
      'In Outlook, open Settings, then Mail (or Accounts), then Signatures.',
      'Create a new signature and paste into the editor.',
      'Choose it for new messages and for replies, then click Save.',
    ],
  },
  {
    id: 'apple-mail',
    label: 'Apple Mail',
    steps: [
      'Click Copy signature above (in Safari or any browser on your Mac).',
      'In Mail, open Settings, then Signatures.',
      'Choose your account, click + and name the signature.',
      'Untick "Always match my default message font", then paste into the right-hand pane.',
      'Close the window: Mail saves the signature.',
    ],
  },
]

export function SignatureBuilderPage(props: Props) {
  const preview = useRef<HTMLIFrameElement>(null)

  async function copySignature() {
    const copied = await copyRichText(props.html, props.text, preview.current)
    if (copied) toast.success('Signature copied. Paste it into your email signature settings.')
    else toast.error('Could not copy the signature. Copy the preview by hand instead.')
  }

  async function copySource() {
    try {
      await navigator.clipboard.writeText(props.html)
      toast.success('HTML source copied')
    } catch {
      toast.error('Could not copy the HTML source. Copy it from the box below instead.')
    }
  }

  /** The preview as tall as the signature, so nothing scrolls inside it. */
  function fitToSignature() {
    const body = preview.current?.contentDocument?.body
    if (body && preview.current) preview.current.style.height = `${body.scrollHeight + 16}px`
  }
  // A preview loaded before hydration fired its load event with no listener yet.
  useEffect(() => {
    if (preview.current?.contentDocument?.readyState === 'complete') fitToSignature()
  })

  return (
    <main className="mx-auto flex max-w-4xl flex-col gap-6 px-4 py-8">
      <div className="flex flex-col gap-2">
        <Link
          to={props.qrPath}
          className="inline-flex items-center gap-1 text-sm text-brand-text underline"
        >
          <ArrowLeft aria-hidden className="h-4 w-4" /> Back to sharing
        </Link>
        <h1 className="text-2xl font-semibold">Email Signature</h1>
        <p className="text-sm text-gray-600 dark:text-gray-400">
          For {props.card.title}. Its links open your card and count as views from your email
          signature.
        </p>
      </div>

      {props.isPublic ? null : (
        <p
          role="note"
          className="flex items-start gap-2 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900"
        >
          <Lock aria-hidden className="mt-0.5 h-4 w-4 shrink-0" />
          Your card is not public: its picture, QR code and links open only for the people your
          privacy settings allow.
        </p>
      )}

      <nav aria-label="Signature layout" className="flex flex-wrap gap-2">
        {props.layouts.map((layout) => (
          <Button
            key={layout}
            asChild
            size="sm"
            variant={layout === props.layout ? 'primary' : 'secondary'}
          >
            <Link
              to={layout === 'classic' ? '?' : `?layout=${layout}`}
              preventScrollReset
              replace
              aria-current={layout === props.layout ? 'true' : undefined}
            >
              {SIGNATURE_LAYOUT_LABELS[layout]}
            </Link>
          </Button>
        ))}
      </nav>

      <section aria-labelledby="preview-heading" className="flex flex-col gap-3">
        <h2 id="preview-heading" className="text-lg font-semibold">
          Preview
        </h2>
        {/* The served HTML itself, sandboxed: no script runs; same origin so its images load and
            the copy fallback can select it. */}
        <div className="overflow-x-auto rounded-xl border border-gray-200 bg-white p-4 dark:border-gray-800">
          <iframe
            ref={preview}
            title="Signature preview"
            srcDoc={props.html}
            sandbox="allow-same-origin"
            onLoad={fitToSignature}
            className="block h-40 w-full min-w-[20rem] border-0 bg-white"
            data-testid="signature-preview"
          />
        </div>
        <div className="flex flex-wrap gap-2">
          <Button type="button" onClick={() => void copySignature()}>
            <Copy aria-hidden className="h-4 w-4" /> Copy signature
          </Button>
          <Button type="button" variant="secondary" onClick={() => void copySource()}>
            <Code aria-hidden className="h-4 w-4" /> Copy HTML source
          </Button>
          <Button asChild variant="ghost">
            <a href={props.textPath}>
              <FileText aria-hidden className="h-4 w-4" /> Plain text version
            </a>
          </Button>
        </div>
        <details className="text-sm">
          <summary className="cursor-pointer font-medium">HTML source</summary>
          <textarea
            readOnly
            value={props.html}
            aria-label="HTML source"
            rows={6}
            className="mt-2 w-full rounded-lg border border-gray-300 p-2 font-mono text-xs dark:border-gray-700 dark:bg-gray-900"
          />
        </details>
      </section>

      <section aria-labelledby="instructions-heading" className="flex flex-col gap-3">
        <h2 id="instructions-heading" className="text-lg font-semibold">
          Add it to your email
        </h2>
        <Tabs.Root defaultValue="gmail" className="flex flex-col gap-3">
          <Tabs.List aria-label="Email app" className="flex flex-wrap gap-1">
            {STEPS.map((app) => (
              <Tabs.Trigger
                key={app.id}
                value={app.id}
                className={cn(
                  'min-h-11 rounded-lg px-3 py-2 text-sm font-medium',
                  'data-[state=active]:bg-brand data-[state=active]:text-brand-foreground',
                  'data-[state=inactive]:bg-gray-100 dark:data-[state=inactive]:bg-gray-800',
                )}
              >
                {app.label}
              </Tabs.Trigger>
            ))}
          </Tabs.List>
          {STEPS.map((app) => (
            <Tabs.Content key={app.id} value={app.id}>
              <ol className="list-decimal space-y-1 pl-6 text-sm">
                {app.steps.map((step) => (
                  <li key={step}>{step}</li>
                ))}
              </ol>
            </Tabs.Content>
          ))}
        </Tabs.Root>
        <p className="text-sm text-gray-600 dark:text-gray-400">
          Your mail app may ask to show the signature's images the first time: they load from this
          site.
        </p>
      </section>
    </main>
  )
}
