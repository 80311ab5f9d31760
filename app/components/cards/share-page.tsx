import { Link } from '@remix-run/react'
import { CreditCard, Pencil } from 'lucide-react'
import { CardDisplay, type CardView } from '#app/components/card/card-display'
import { Button } from '#app/components/ui/button'
import { useRootData } from '#app/root'
import { CopyLinkButton } from './share-controls'

export function SharePage({
  card,
  shareUrl,
  cardsPath,
  editPath,
}: {
  card: (CardView & { id: string }) | null
  shareUrl: string | null
  cardsPath: string
  editPath: string | null
}) {
  const productName = useRootData()?.branding.name ?? ''
  return (
    <main className="mx-auto grid max-w-5xl gap-8 px-4 py-10 md:grid-cols-2">
      <section className="flex flex-col gap-4">
        <h1 className="text-2xl font-semibold">Share your card</h1>
        {card && shareUrl ? (
          <>
            <p className="text-sm text-gray-600 dark:text-gray-400">Your card's link:</p>
            <a
              href={shareUrl}
              className="break-all font-medium text-brand-text underline"
              data-testid="share-url"
            >
              {shareUrl}
            </a>
            <div className="flex flex-wrap gap-2">
              <CopyLinkButton url={shareUrl} />
              {editPath ? (
                <Button asChild variant="secondary">
                  <Link to={editPath}>
                    <Pencil aria-hidden className="h-4 w-4" /> Edit
                  </Link>
                </Button>
              ) : null}
            </div>
          </>
        ) : (
          <p className="text-gray-600 dark:text-gray-400">
            You have no digital card yet. Create one to get your link.
          </p>
        )}
        <Button asChild className="self-start">
          <Link to={cardsPath}>
            <CreditCard aria-hidden className="h-4 w-4" /> Manage Your Digital Cards
          </Link>
        </Button>
      </section>
      <section aria-label="Card preview" className="flex justify-center">
        {card ? <CardDisplay card={card} productName={productName} /> : null}
      </section>
    </main>
  )
}
