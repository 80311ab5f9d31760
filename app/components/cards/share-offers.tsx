// What the QR screen offers besides the link (issue 29 point 5, ADR 044): the wallet badges for
// whoever sees the card, the email signature and the virtual background for its owner. The
// loader decides what is offered (app/cards/share-route.server.ts); each offer's route passes the card
// gate again.
import { Link } from '@remix-run/react'
import { Download, Mail } from 'lucide-react'
import { type FormEvent, useState } from 'react'
import type { WalletOffers } from '#app/cards/wallet-offers.server'
import { WalletBadge } from '#app/components/cards/wallet-badge'
import { Button } from '#app/components/ui/button'
import { TitledSection } from '#app/components/ui/titled-section'
import { toast } from '#app/components/ui/toasts'
import {
  VIRTUAL_BACKGROUND_LAYOUTS as LAYOUTS,
  VIRTUAL_BACKGROUND_THEMES as THEMES,
  VIRTUAL_BACKGROUND_SIZES,
  type VirtualBackgroundOptions,
  virtualBackgroundPath,
} from '#app/validation/virtual-background'

export type ShareOffers = {
  wallet: WalletOffers
  signaturePath: string | null
  backgroundCardId: string | null
}

const LAYOUT_LABELS = { classic: 'Classic', panel: 'Panel', minimal: 'Minimal' } as const
const THEME_LABELS = { light: 'Light', dark: 'Dark' } as const

function Select<K extends keyof VirtualBackgroundOptions>({
  label,
  name,
  choices,
  options,
  set,
}: {
  label: string
  name: K
  choices: readonly VirtualBackgroundOptions[K][]
  options: VirtualBackgroundOptions
  set: (change: Partial<VirtualBackgroundOptions>) => void
}) {
  return (
    <label className="flex min-w-0 flex-col gap-1 text-sm font-medium">
      {label}
      <select
        name={name}
        value={options[name]}
        onChange={(event) => set({ [name]: event.target.value })}
        className="h-10 w-full min-w-0 rounded-lg border border-gray-300 bg-white px-2 dark:border-gray-700 dark:bg-gray-900"
      >
        {choices.map((option) => (
          <option key={option} value={option}>
            {labelOf(option)}
          </option>
        ))}
      </select>
    </label>
  )
}

const labelOf = (option: string) =>
  (LAYOUT_LABELS as Record<string, string>)[option] ??
  (THEME_LABELS as Record<string, string>)[option] ??
  option.replace('x', ' × ')

/**
 * Size, layout and theme, a thumbnail of the result, and its download. Without JavaScript the
 * form opens the PNG itself (the route takes the same query).
 */
const SIZES = Object.keys(VIRTUAL_BACKGROUND_SIZES) as VirtualBackgroundOptions['size'][]

function BackgroundForm({ cardId }: { cardId: string }) {
  const [options, setOptions] = useState<VirtualBackgroundOptions>({
    size: '1920x1080',
    layout: 'classic',
    theme: 'light',
  })
  const path = virtualBackgroundPath(cardId, options)
  const set = (change: Partial<VirtualBackgroundOptions>) =>
    setOptions((current) => ({ ...current, ...change }))

  function download(event: FormEvent) {
    event.preventDefault()
    const anchor = document.createElement('a')
    anchor.href = path
    // A download, not a navigation; the file's name is the route's (background.png).
    anchor.download = 'background.png'
    document.body.append(anchor)
    anchor.click()
    anchor.remove()
    toast.success('Your virtual background is downloading')
  }

  return (
    <form
      method="get"
      action={virtualBackgroundPath(cardId)}
      onSubmit={download}
      className="flex flex-col gap-3"
      aria-labelledby="background-heading"
    >
      <h3 id="background-heading" className="font-semibold">
        Virtual background
      </h3>
      <p className="text-sm text-gray-600 dark:text-gray-400">
        For video calls: your card's QR code in the corner, the middle left free for you.
      </p>
      <div className="grid gap-2 sm:grid-cols-3">
        <Select label="Size" name="size" choices={SIZES} options={options} set={set} />
        <Select label="Layout" name="layout" choices={LAYOUTS} options={options} set={set} />
        <Select label="Theme" name="theme" choices={THEMES} options={options} set={set} />
      </div>
      <img
        src={path}
        alt="Preview of the virtual background"
        width={320}
        height={180}
        loading="lazy"
        className="aspect-video w-full max-w-xs rounded-lg border border-gray-200 object-cover dark:border-gray-800"
        data-testid="background-preview"
      />
      <div>
        <Button type="submit" variant="secondary">
          <Download aria-hidden className="h-4 w-4" /> Download background
        </Button>
      </div>
    </form>
  )
}

export function ShareOffersSection({ offers }: { offers: ShareOffers }) {
  const { wallet, signaturePath, backgroundCardId } = offers
  const hasWallet = Boolean(wallet.apple || wallet.google)
  if (!hasWallet && !signaturePath && !backgroundCardId) return null
  return (
    <TitledSection
      id="offers-heading"
      title={signaturePath || backgroundCardId ? 'More ways to use this card' : 'Save this card'}
      className="flex flex-col gap-6 rounded-2xl border border-gray-200 p-6 dark:border-gray-800"
      titleClassName="text-lg font-semibold"
      testId="share-offers"
    >
      {hasWallet ? (
        <div className="flex flex-wrap gap-3">
          {wallet.apple ? <WalletBadge href={wallet.apple} wallet="Apple" /> : null}
          {wallet.google ? <WalletBadge href={wallet.google} wallet="Google" /> : null}
        </div>
      ) : null}
      {signaturePath ? (
        <div className="flex flex-col items-start gap-2">
          <h3 className="font-semibold">Email signature</h3>
          <p className="text-sm text-gray-600 dark:text-gray-400">
            Your card in every email you send, in your agency's colours.
          </p>
          <Button asChild variant="secondary">
            <Link to={signaturePath}>
              <Mail aria-hidden className="h-4 w-4" /> Email signature
            </Link>
          </Button>
        </div>
      ) : null}
      {backgroundCardId ? <BackgroundForm cardId={backgroundCardId} /> : null}
    </TitledSection>
  )
}
