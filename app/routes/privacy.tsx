import { type LoaderFunctionArgs, type MetaFunction, redirect } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { requireTenant } from '#app/tenancy/require-tenant.server'
import { ACCOUNT_DELETION_GRACE_DAYS } from '#app/validation/account-deletion'

export const meta: MetaFunction = () => [{ title: 'Privacy Policy' }]

// The footer's "Privacy Policy" always leads somewhere (issue 41 point 17, ADR 087): to the
// host's own policy when one is set, else to this notice, written from what the product itself
// stores, so it is true of every host that runs it unchanged.
export async function loader({ context }: LoaderFunctionArgs) {
  const tenant = await requireTenant(context)
  if (tenant.legal.privacyPolicyUrl) throw redirect(tenant.legal.privacyPolicyUrl)
  return { name: tenant.name, supportEmail: tenant.legal.supportEmail }
}

const SECTIONS = [
  {
    title: 'Your account',
    paragraphs: [
      'Your name, your email address and the settings you choose. Your password is kept only as an Argon2 hash; a passkey only as its public key. Signing in sets one cookie holding a random token, of which the service keeps only a hash.',
      'If you joined through an organization, its administrators can see your account and your cards in order to manage them.',
    ],
  },
  {
    title: 'Your cards',
    paragraphs: [
      'What you put on a card is shown to anyone you share it with, as far as the card’s visibility allows. Images you upload are stored with the card.',
    ],
  },
  {
    title: 'People who open a card',
    paragraphs: [
      'A visit is counted with the kind of device (phone, tablet or computer) and how it came (QR code, link, NFC and so on). To count a visitor once, the service keeps a keyed hash of the network address and browser, never the address itself. Saves and link taps are counted per hour, without any visitor’s identity.',
      'When a visitor sends their details back with Connect, the card’s owner receives them with the consent text the visitor was shown.',
    ],
  },
  {
    title: 'Emails and cookies',
    paragraphs: [
      'The service emails you what your account needs (confirmations, password resets, invitations) and the notifications you keep switched on; each notification carries a one-click unsubscribe.',
      'Cookies: only the ones the service needs, to keep you signed in, to carry a message to the next page and to remember the sidebar. No advertising or third-party tracking.',
    ],
  },
  {
    title: 'Your choices',
    paragraphs: [
      'Download everything the service holds about you from your profile’s Security tab ("Download my data").',
      `Delete your account from the same tab: the deletion takes place ${ACCOUNT_DELETION_GRACE_DAYS} days later, and until then you can still download your data or keep your account.`,
    ],
  },
] as const

export default function Privacy() {
  const { name, supportEmail } = useLoaderData<typeof loader>()
  return (
    <main className="mx-auto flex w-full max-w-3xl flex-col gap-8 px-4 py-12">
      <header className="flex flex-col gap-3">
        <h1 className="text-3xl font-bold tracking-tight">Privacy Policy</h1>
        <p className="text-gray-600 dark:text-gray-400">
          What {name} stores about you, why, and what you can do about it.
        </p>
      </header>
      {SECTIONS.map((section) => (
        <section key={section.title} className="flex flex-col gap-2">
          <h2 className="text-xl font-semibold">{section.title}</h2>
          {section.paragraphs.map((paragraph) => (
            <p key={paragraph} className="leading-relaxed">
              {paragraph}
            </p>
          ))}
        </section>
      ))}
      {supportEmail ? (
        <p>
          Questions about your data? Write to{' '}
          <a className="font-medium text-brand-text underline" href={`mailto:${supportEmail}`}>
            {supportEmail}
          </a>
          .
        </p>
      ) : null}
    </main>
  )
}
