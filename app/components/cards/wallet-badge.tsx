import { Wallet } from 'lucide-react'
import { useTranslate } from '#app/components/layout/use-translate'

/**
 * A wallet's badge as its guidelines describe it: a black rounded button with the wallet's mark
 * and "Add to … Wallet" in white, never restyled in the agency's colours. Drawn here (the
 * official artwork is not bundled): a wallet glyph and the words, whose text is the link's name.
 */
export function WalletBadge({ href, wallet }: { href: string; wallet: 'Apple' | 'Google' }) {
  const t = useTranslate()
  return (
    <a
      href={href}
      className="inline-flex min-h-12 items-center gap-3 rounded-xl border border-gray-500 bg-black px-4 py-2 text-white hover:bg-gray-900 focus-visible:outline-2 focus-visible:outline-offset-2"
      data-testid={`${wallet.toLowerCase()}-wallet-badge`}
      data-wallet={wallet.toLowerCase()}
    >
      <Wallet aria-hidden className="h-6 w-6 shrink-0" />
      <span className="flex flex-col text-left leading-tight">
        <span className="text-xs">{t('card.addTo')}</span>
        <span className="text-base font-semibold">{wallet} Wallet</span>
      </span>
    </a>
  )
}
