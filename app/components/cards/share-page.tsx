import { Link } from '@remix-run/react'
import { CreditCard, Download, Pencil, QrCode, SearchX, UserPlus } from 'lucide-react'
import type { CardExtrasView } from '#app/cards/card-extras'
import { CardDisplay, type CardView } from '#app/components/cards/card-display'
import { useRootData } from '#app/components/layout/root-data'
import { Button } from '#app/components/ui/button'
import { TitledSection } from '#app/components/ui/titled-section'
import {
  BreakableUrl,
  CopyLinkButton,
  NfcShareButton,
  QrImage,
  ShareButton,
} from './share-controls'
import { type ShareOffers, ShareOffersSection } from './share-offers'

export type ShareScreen =
  | {
      status: 'card'
      card: CardView & { id: string; email: string; workEmail: string }
      extras: CardExtrasView
      isProfile: boolean
      shareUrl: string
      qrSrc: string
      /** The QR code for print: PNG at print resolution and SVG. */
      qrDownloads: { png: string; svg: string }
      vcardUrl: string
      signedIn: boolean
      cardsPath: string | null
      editPath: string | null
      offers: ShareOffers
      /** `/qrcode` only: a profile the owner's visibility keeps from some viewers. */
      restrictedProfile?: boolean
      privacyPath?: string | null
    }
  | {
      status: 'empty'
      reason: 'no-name' | 'namesake' | 'unshared'
      privacyPath: string | null
      cardsPath: string
      createPath: string
      createLabel: string
    }
  | { status: 'not-found' }

function PageTitle({ children }: { children?: React.ReactNode }) {
  // Spec §2: the share button sits in the page's own header row.
  return (
    <div className="flex items-center justify-between gap-4">
      <h1 className="text-2xl font-semibold">QR Code</h1>
      {children}
    </div>
  )
}

/** Spec §2: visitors who are not signed in are invited to make a card of their own. */
function SignUpBanner() {
  return (
    <aside
      aria-labelledby="signup-banner-heading"
      className="flex flex-col gap-3 rounded-xl border border-brand/30 bg-brand/5 p-4 sm:flex-row sm:items-center sm:justify-between"
      data-testid="signup-banner"
    >
      <div className="flex flex-col gap-1">
        <h2 id="signup-banner-heading" className="font-semibold">
          Want a digital business card like this?
        </h2>
        <p className="text-sm text-gray-600 dark:text-gray-400">
          Create your own for free and share it by QR code, link or NFC.
        </p>
      </div>
      <div className="flex shrink-0 gap-2">
        <Button asChild>
          <Link to="/auth/register">
            <UserPlus aria-hidden className="h-4 w-4" /> Sign Up
          </Link>
        </Button>
        <Button asChild variant="secondary">
          <Link to="/auth/login">Log In</Link>
        </Button>
      </div>
    </aside>
  )
}

function Notice({
  icon: Icon,
  title,
  children,
}: {
  icon: typeof QrCode
  title: string
  children: React.ReactNode
}) {
  return (
    <section className="flex flex-col items-center gap-3 rounded-xl border border-dashed border-gray-300 px-6 py-12 text-center dark:border-gray-700">
      <Icon aria-hidden className="h-8 w-8 text-gray-500 dark:text-gray-400" />
      <h2 className="text-lg font-semibold">{title}</h2>
      {children}
    </section>
  )
}

function ManageCardsLink({ to }: { to: string }) {
  return (
    <Button asChild variant="secondary">
      <Link to={to}>
        <CreditCard aria-hidden className="h-4 w-4" /> Manage Your Digital Cards
      </Link>
    </Button>
  )
}

export function SharePage(screen: ShareScreen) {
  const productName = useRootData()?.branding.name ?? ''

  if (screen.status === 'not-found') {
    return (
      <main className="mx-auto flex max-w-5xl flex-col gap-6 px-4 py-8">
        <PageTitle />
        <Notice icon={SearchX} title="Card Not Found">
          <p className="text-gray-600 dark:text-gray-400">
            Sorry, we couldn't find the digital card you're looking for.
          </p>
          <Button asChild>
            <Link to="/">Go to Home</Link>
          </Button>
        </Notice>
      </main>
    )
  }

  if (screen.status === 'empty') {
    return (
      <main className="mx-auto flex max-w-5xl flex-col gap-6 px-4 py-8">
        <PageTitle />
        <Notice icon={QrCode} title="No card to share yet">
          <EmptyReason screen={screen} />
          <div className="flex flex-wrap justify-center gap-2">
            <Button asChild>
              <Link to={screen.createPath}>{screen.createLabel}</Link>
            </Button>
            {screen.createPath !== screen.cardsPath ? (
              <ManageCardsLink to={screen.cardsPath} />
            ) : null}
          </div>
        </Notice>
      </main>
    )
  }

  const { card, shareUrl } = screen
  const name = `${card.firstName} ${card.lastName}`.trim()
  return (
    <main className="mx-auto flex max-w-5xl flex-col gap-6 px-4 py-8">
      <PageTitle>
        <ShareButton url={shareUrl} title={`${name} · Digital Card`} />
      </PageTitle>
      {screen.signedIn ? null : <SignUpBanner />}
      {screen.restrictedProfile ? (
        <p
          className="rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100"
          data-testid="profile-restricted"
        >
          Your profile is not public: only the people your privacy settings allow can open this
          link.{' '}
          {screen.privacyPath ? (
            <Link to={screen.privacyPath} className="font-medium underline">
              Change who can see your profile
            </Link>
          ) : null}
        </p>
      ) : null}
      {/* Spec §9: one column below 768 px (Tailwind's md), two from there. */}
      <div className="grid items-start gap-8 md:grid-cols-2">
        <TitledSection
          id="qr-heading"
          title={<>Scan to open {screen.isProfile ? 'my profile' : 'the card'}</>}
          className="flex flex-col items-center gap-4 rounded-2xl border border-gray-200 p-6 dark:border-gray-800"
          titleClassName="text-lg font-semibold"
          testId="qr-panel"
        >
          <QrImage src={screen.qrSrc} alt={`QR code linking to ${name}'s card`} />
          <a
            href={shareUrl}
            className="max-w-full text-center text-sm font-medium text-brand-text underline [overflow-wrap:break-word]"
            data-testid="share-url"
          >
            <BreakableUrl url={shareUrl} />
          </a>
          <div className="flex flex-wrap justify-center gap-2">
            <Button asChild variant="secondary" size="sm">
              <a href={screen.qrDownloads.png} download>
                <Download aria-hidden className="h-4 w-4" /> Download PNG
              </a>
            </Button>
            <Button asChild variant="secondary" size="sm">
              <a href={screen.qrDownloads.svg} download>
                <Download aria-hidden className="h-4 w-4" /> Download SVG
              </a>
            </Button>
          </div>
          <div className="flex flex-wrap justify-center gap-2">
            <CopyLinkButton url={shareUrl} />
            <NfcShareButton vcardUrl={screen.vcardUrl} />
          </div>
          {screen.cardsPath || screen.editPath ? (
            <div className="flex flex-wrap justify-center gap-2">
              {screen.cardsPath ? <ManageCardsLink to={screen.cardsPath} /> : null}
              {screen.editPath ? (
                <Button asChild variant="secondary">
                  <Link to={screen.editPath}>
                    <Pencil aria-hidden className="h-4 w-4" /> Edit
                  </Link>
                </Button>
              ) : null}
            </div>
          ) : null}
        </TitledSection>
        <section
          aria-label="Card preview"
          className="flex justify-center"
          data-testid="card-preview"
        >
          <CardDisplay
            card={card}
            productName={productName}
            extras={screen.extras}
            emails={[card.workEmail, card.email]}
          />
        </section>
      </div>
      <ShareOffersSection offers={screen.offers} />
    </main>
  )
}

/** Why there is nothing to share yet, in words that fit this user (issue 30, ADR 009). */
function EmptyReason({ screen }: { screen: Extract<ShareScreen, { status: 'empty' }> }) {
  const text = 'max-w-md text-gray-600 dark:text-gray-400'
  if (screen.reason === 'namesake') {
    return (
      <p className={text} data-testid="empty-reason">
        Another account here already shares your name by link. Create a digital card: it gets a link
        of its own.
      </p>
    )
  }
  if (screen.reason === 'unshared') {
    return (
      <p className={text} data-testid="empty-reason">
        Your profile is not shared yet. It appears here as your QR code once you{' '}
        {screen.privacyPath ? (
          <>
            <Link to={screen.privacyPath} className="font-medium text-brand-text underline">
              choose who can see your profile
            </Link>{' '}
            or{' '}
          </>
        ) : null}
        complete your profile; a digital card can be shared at once.
      </p>
    )
  }
  return (
    <p className={text} data-testid="empty-reason">
      Your QR code appears here once you have a digital card, or a profile with your first and last
      name.
    </p>
  )
}
