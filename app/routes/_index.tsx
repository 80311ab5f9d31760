import { data, type HeadersFunction, type LoaderFunctionArgs } from '@remix-run/node'
import { Link } from '@remix-run/react'
import { QrCode, Share2, UserRound } from 'lucide-react'
import type { Role } from '#app/auth/roles'
import { pageCacheHeaders } from '#app/cache/page-cache.server'
import { useNfcSupport } from '#app/components/cards/share-controls'
import { DatabaseWarningBanner } from '#app/components/layout/database-warning'
import { Button } from '#app/components/ui/button'
import { homeTiles } from '#app/navigation/role-navigation'
import { useRootData } from '#app/root'
import { requireTenant } from '#app/tenancy/require-tenant.server'

// The home page shows only the root loader's data; this loader offers it to the page cache for
// visitors without a session (the same page for all of them).
export async function loader({ context }: LoaderFunctionArgs) {
  const tenant = await requireTenant(context)
  return data(null, { headers: pageCacheHeaders(context, tenant.id) })
}

export const headers: HeadersFunction = ({ loaderHeaders }) => loaderHeaders

const STEPS = [
  {
    icon: UserRound,
    title: 'Create your profile',
    text: 'Add your name, contact details and work information.',
  },
  {
    icon: QrCode,
    title: 'Customize your digital card',
    text: 'Add your logo and profile picture and choose how your card looks.',
  },
  {
    icon: Share2,
    title: 'Share your card',
    text: 'Share it with a QR code or your unique link.',
  },
]

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
  return (
    <>
      <DatabaseWarningBanner />
      {root?.user ? (
        <SignedInHome firstName={root.user.firstName} role={root.user.role} />
      ) : (
        // The root always resolves the host's branding; without it (an error page) a plain word is
        // better than the platform's name on an agency's host.
        <SignedOutHome name={root?.branding.name ?? 'This app'} />
      )}
    </>
  )
}

function SignedOutHome({ name }: { name: string }) {
  return (
    <main className="mx-auto grid max-w-6xl gap-12 px-4 py-16 md:grid-cols-2 md:items-center md:py-24">
      <section className="flex flex-col gap-6">
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
      <section
        aria-labelledby="steps-heading"
        className="rounded-2xl border border-gray-200 bg-gray-50 p-6 shadow-sm dark:border-gray-800 dark:bg-gray-900"
      >
        <h2 id="steps-heading" className="mb-6 text-xl font-semibold">
          Get Started in 3 Easy Steps
        </h2>
        <ol className="flex flex-col gap-5">
          {STEPS.map((step, index) => (
            <li key={step.title} className="flex gap-4">
              <span className="flex h-10 w-10 shrink-0 items-center justify-center rounded-full bg-brand font-semibold text-brand-foreground">
                {index + 1}
              </span>
              <div>
                <p className="flex items-center gap-2 font-medium">
                  <step.icon aria-hidden className="h-4 w-4 text-brand" />
                  {step.title}
                </p>
                <p className="text-sm text-gray-600 dark:text-gray-400">{step.text}</p>
              </div>
            </li>
          ))}
        </ol>
      </section>
    </main>
  )
}
