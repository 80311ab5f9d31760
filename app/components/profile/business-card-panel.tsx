import { Link } from '@remix-run/react'
import { CreditCard, Download, Pencil, QrCode, Settings2 } from 'lucide-react'
import type { CardExtrasView } from '#app/cards/card-extras'
import { CardDisplay, type CardView } from '#app/components/cards/card-display'
import { Button } from '#app/components/ui/button'
import { EmptyState } from '#app/components/ui/empty-state'
import { Panel } from '#app/components/ui/panel'

export type ProfileCard = CardView & {
  id: string
  title: string
  email: string
  workEmail: string
  extras?: CardExtrasView
}

/** The user's default card, with the ways to share and manage it. */
export function BusinessCardPanel({
  card,
  productName,
  digitalCardsPath,
  showVcard = false,
}: {
  card: ProfileCard | null
  productName: string
  digitalCardsPath: string
  showVcard?: boolean
}) {
  if (!card) {
    return (
      <Panel title="Your Business Card" description="The card people see when you share it.">
        <EmptyState
          icon={CreditCard}
          title="No digital cards yet"
          action={
            <Button asChild>
              <Link to="/onboarding">Create your card</Link>
            </Button>
          }
        >
          Create your digital business card to share your details with a link or a QR code.
        </EmptyState>
      </Panel>
    )
  }
  return (
    <Panel title="Your Business Card" description={`Your default card: ${card.title}`}>
      <div className="flex flex-col items-center gap-6">
        <CardDisplay
          card={card}
          productName={productName}
          extras={card.extras}
          emails={[card.workEmail, card.email]}
        />
        <div className="flex w-full flex-col gap-3 sm:w-auto sm:flex-row sm:flex-wrap sm:justify-center">
          {showVcard ? (
            <Button asChild variant="secondary">
              {/* A file download: the browser fetches it, not the client router. */}
              <a href={`/card/${card.id}/vcard`} download>
                <Download aria-hidden className="h-4 w-4" /> Download vCard
              </a>
            </Button>
          ) : null}
          {/* The card's fields and images are the editor's alone (ADR 078): one place to edit. */}
          <Button asChild variant="secondary">
            <Link to={`${digitalCardsPath}/edit/${card.id}`}>
              <Pencil aria-hidden className="h-4 w-4" /> Edit Card Details
            </Link>
          </Button>
          <Button asChild variant="secondary">
            <Link to="/qrcode">
              <QrCode aria-hidden className="h-4 w-4" /> Show QR Code
            </Link>
          </Button>
          <Button asChild>
            <Link to={digitalCardsPath}>
              <Settings2 aria-hidden className="h-4 w-4" /> Manage Your Digital Cards
            </Link>
          </Button>
        </div>
      </div>
    </Panel>
  )
}
