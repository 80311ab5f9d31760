import { data, type HeadersFunction, type LoaderFunctionArgs } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { Palette, Share2, UserRound } from 'lucide-react'
import { pageCacheHeaders } from '#app/cache/page-cache.server'
import { appleWalletConfigured } from '#app/cards/apple-config.server'
import { googleWalletConfigured } from '#app/cards/google-wallet-config.server'
import { CardDisplay, type CardView } from '#app/components/cards/card-display'
import { useNfcSupport } from '#app/components/cards/share-controls'
import { DatabaseWarningBanner } from '#app/components/layout/database-warning'
import { useRootData } from '#app/components/layout/root-data'
import { Button } from '#app/components/ui/button'
import { TitledSection } from '#app/components/ui/titled-section'
import { homeTiles } from '#app/navigation/role-navigation'
import { requireTenant } from '#app/tenancy/require-tenant.server'
import { readableCardColor } from '#app/validation/backgrounds'
import { safeHexColor } from '#app/validation/hex-color'
import type { Role } from '#app/validation/roles'

// The home page shows the root loader's data and whether this server offers wallet passes (the
// same for every visitor: configuration, not the person); this loader offers it to the page
// cache for visitors without a session (the same page for all of them).
export async function loader({ context }: LoaderFunctionArgs) {
  const tenant = await requireTenant(context)
  return data(
    { wallets: appleWalletConfigured() || googleWalletConfigured() },
    { headers: pageCacheHeaders(context, tenant.id) },
  )
}

export const headers: HeadersFunction = ({ loaderHeaders }) => loaderHeaders

// Spec §2 (home): the panel's three steps, create, customize, share; the third says what sharing
// brings back (issue 30: show the product): a visitor's details in the owner's contacts.
function steps(wallets: boolean) {
  return [
    {
      icon: UserRound,
      title: 'Create your profile',
      text: 'Add your name, contact details and work information in five short steps.',
    },
    {
      icon: Palette,
      title: 'Customize your digital card',
      text: 'Add your logo and profile picture and choose how your card looks.',
    },
    {
      icon: Share2,
      title: 'Share your card',
      text: `Share it with a QR code, your unique link or NFC${wallets ? ', or as a wallet pass' : ''}. People you meet send their details back, straight into your contacts.`,
    },
  ]
}

/** The example on the signed-out home: demo details, drawn as a real card in the tenant's colour. */
function sampleCard(branding: { primaryColor: string; logoUrl: string | null }): CardView {
  return {
    firstName: 'Alex',
    lastName: 'Morgan',
    jobTitle: 'Sales Director',
    company: 'Example Company',
    phoneNumber: '+1 555 0100',
    website: 'example.com',
    logoUrl: branding.logoUrl,
    profilePictureUrl: null,
    background: {
      kind: 'color',
      value: readableCardColor(safeHexColor(branding.primaryColor, '#3b82f6')),
      imageUrl: null,
    },
  }
}

function SignedInHome({ firstName, role }: { firstName: string; role: Role }) {
  const nfc = useNfcSupport()
  // Spec §2: the Digital Cards tile leads to /dashboard/end-user/digital-cards; team admins keep
  // their cards in their own area, so the tile follows the role (no tile may answer 403).
  const tiles = homeTiles(role, { nfc })
  return (
    <main className="mx-auto flex max-w-6xl flex-col gap-8 px-4 py-12">
      <h1 className="text-3xl font-bold tracking-tight">
        Welcome back{firstName ? `, ${firstName}` : ''}!
      </h1>
      <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        {tiles.map((tile) => (
          <li key={tile.id}>
            <Link
              to={tile.to}
              className="flex h-full flex-col gap-3 rounded-xl border border-gray-200 p-5 transition hover:border-brand hover:shadow-sm dark:border-gray-800"
            >
              <tile.icon aria-hidden className="h-6 w-6 text-brand" />
              <span className="font-semibold">{tile.label}</span>
              <span className="text-sm text-gray-600 dark:text-gray-400">{tile.text}</span>
            </Link>
          </li>
        ))}
      </ul>
    </main>
  )
}

export default function Home() {
  const root = useRootData()
  const wallets = useLoaderData<typeof loader>()?.wallets ?? false
  return (
    <>
      <DatabaseWarningBanner />
      {root?.user ? (
        <SignedInHome firstName={root.user.firstName} role={root.user.role} />
      ) : (
        // The root always resolves the host's branding; without it (an error page) a plain word is
        // better than the platform's name on an agency's host.
        <SignedOutHome
          name={root?.branding.name ?? 'This app'}
          branding={root?.branding ?? { primaryColor: '#3b82f6', logoUrl: null }}
          wallets={wallets}
        />
      )}
    </>
  )
}

function SignedOutHome({
  name,
  branding,
  wallets,
}: {
  name: string
  branding: { primaryColor: string; logoUrl: string | null }
  wallets: boolean
}) {
  return (
    <main className="mx-auto flex w-full max-w-6xl flex-col gap-12 px-4 py-12 md:gap-16 md:py-20">
      <div className="grid items-center gap-10 md:grid-cols-[minmax(0,1fr)_minmax(0,22rem)] lg:gap-16">
        <section className="flex min-w-0 flex-col gap-6">
          <h1 className="text-4xl font-bold tracking-tight md:text-5xl">
            Create and share your digital business card
          </h1>
          <p className="text-lg text-gray-600 dark:text-gray-400">
            {name} lets you build a professional digital card in minutes and share it by QR code,
            link, NFC or contact file, so people can save your details with one tap.
          </p>
          <div className="flex flex-wrap gap-3">
            <Button asChild size="lg">
              <Link to="/auth/register">Get Started</Link>
            </Button>
            <Button asChild size="lg" variant="secondary">
              <Link to="/auth/login">Log In</Link>
            </Button>
          </div>
        </section>
        {/* What the product makes, in this tenant's colour and logo: a real card with demo details. */}
        <figure className="flex min-w-0 flex-col items-center gap-3">
          <div className="relative flex w-full justify-center">
            <span className="absolute -top-3 right-4 z-10 rounded-full bg-gray-900 px-3 py-1 text-xs font-semibold text-white shadow dark:bg-white dark:text-gray-900">
              Example
            </span>
            <CardDisplay card={sampleCard(branding)} productName={name} />
          </div>
          <figcaption className="text-center text-sm text-gray-600 dark:text-gray-400">
            An example card. Yours shows your own details, logo and photo.
          </figcaption>
        </figure>
      </div>
      <TitledSection
        id="steps-heading"
        title="Get Started in 3 Easy Steps"
        className="rounded-2xl border border-gray-200 bg-gray-50 p-6 shadow-sm md:p-10 dark:border-gray-800 dark:bg-gray-900"
        titleClassName="mb-8 text-2xl font-semibold"
      >
        <ol className="grid gap-8 md:grid-cols-3">
          {steps(wallets).map((step, index) => (
            <li key={step.title} className="flex min-w-0 gap-4 md:flex-col">
              <span className="flex h-10 w-10 shrink-0 items-center justify-center rounded-full bg-brand font-semibold text-brand-foreground">
                {index + 1}
              </span>
              <div className="flex min-w-0 flex-col gap-1">
                <p className="flex items-center gap-2 font-medium">
                  <step.icon
                    aria-hidden
                    className="h-4 w-4 shrink-0 text-brand-text dark:text-gray-300"
                  />
                  {step.title}
                </p>
                <p className="text-sm text-gray-600 dark:text-gray-400">{step.text}</p>
              </div>
            </li>
          ))}
        </ol>
      </TitledSection>
    </main>
  )
}
