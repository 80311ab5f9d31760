import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { ACCESSIBILITY_CHECKED_ON } from '#app/accessibility/checked-on'
import { ACCESSIBILITY_FACTS } from '#app/accessibility/statement-facts'
import { requireTenant } from '#app/tenancy/require-tenant.server'
import { ROLE_NAMES, type Role } from '#app/validation/roles'

export const meta: MetaFunction = () => [{ title: 'Accessibility Statement' }]

// Every host's accessibility statement (issue 45 point 6, ADR 100), under the host's own name:
// what the test suite checks (app/accessibility/statement-facts.ts, written from the specs and
// kept equal to them by a unit test), the date the build was checked, the known limitations and
// the host's own address for requests (its accessibility email, else its support email, else the
// platform's: legalFor).
export async function loader({ context }: LoaderFunctionArgs) {
  const tenant = await requireTenant(context)
  return {
    name: tenant.name,
    contact: tenant.legal.accessibilityEmail,
    checkedOn: ACCESSIBILITY_CHECKED_ON,
  }
}

const PAGE_NAMES: Record<string, string> = {
  '/': 'home',
  '/auth/login': 'sign in',
  '/auth/register': 'sign up',
  '/auth/forgot-password': 'forgotten password',
  '/auth/reset-password': 'reset password',
  '/auth/confirm-email': 'email confirmation',
  '/pricing': 'pricing',
  '/privacy': 'privacy policy',
  '/accessibility': 'this statement',
  '/no-such-page': 'a page that does not exist',
}

function pageName(path: string) {
  if (path.startsWith('/card/')) return 'a card that does not exist'
  return PAGE_NAMES[path] ?? path
}

const HOST_NAMES = { platform: "the platform's site", agency: "an agency's site" } as const

function roleName(role: string) {
  return ROLE_NAMES[role as Role] ?? role.replaceAll('_', ' ')
}

/** "a, b and c" */
function list(items: readonly string[]) {
  if (items.length < 2) return items.join('')
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`
}

function longDate(day: string) {
  return new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeZone: 'UTC' }).format(
    new Date(`${day}T00:00:00Z`),
  )
}

const LIMITATIONS = [
  'Automated rules find only part of what WCAG asks: whether a text alternative describes its image, whether a video has captions or whether the reading order makes sense need a person to judge. No audit by people using screen readers or other assistive technology has been made yet.',
  'The checks run in one browser engine (Chromium), at a desktop width and at a phone’s width. Other browsers, screen readers and zoom levels are not tested by machine.',
  'What people put on their own cards is theirs: the photos, videos, texts and colours a card owner chooses may not meet these criteria. Videos play in YouTube’s or Vimeo’s own players.',
  'Files to download (contacts as vCards, QR code images, wallet passes, exports) are read by other apps, which this statement does not cover.',
] as const

export default function Accessibility() {
  const { name, contact, checkedOn } = useLoaderData<typeof loader>()
  const facts = ACCESSIBILITY_FACTS
  const standard = `${facts.standard} level ${facts.level}`
  return (
    <main className="mx-auto flex w-full max-w-3xl flex-col gap-8 px-4 py-12">
      <header className="flex flex-col gap-3">
        <h1 className="text-3xl font-bold tracking-tight">Accessibility Statement</h1>
        <p className="text-gray-600 dark:text-gray-400">
          {name} wants everyone to be able to use this site, with a keyboard alone, a screen reader,
          magnification or voice control.
        </p>
      </header>

      <section className="flex flex-col gap-2" aria-labelledby="conformance">
        <h2 id="conformance" className="text-xl font-semibold">
          Conformance status
        </h2>
        <p className="leading-relaxed">
          This site aims to conform to <strong>{standard}</strong>. Its test suite checks every
          version against the level A and AA success criteria that {facts.engine} tests by machine,
          and fails on any violation. It is partially conformant: the checks prove what they cover
          and no more (see the known limitations).
        </p>
        <p className="leading-relaxed" data-testid="accessibility-checked-on">
          {checkedOn ? (
            <>
              Last checked: <time dateTime={checkedOn}>{longDate(checkedOn)}</time>, the date of the
              version of this site you are using.
            </>
          ) : (
            'The date of the last check is not recorded in this version of the site.'
          )}
        </p>
      </section>

      <section className="flex flex-col gap-2" aria-labelledby="checks">
        <h2 id="checks" className="text-xl font-semibold">
          What is checked
        </h2>
        <ul className="flex list-disc flex-col gap-2 pl-6 leading-relaxed">
          <li>
            The rule sets {list(facts.ruleTags.map((tag) => `“${tag}”`))}, and the rule{' '}
            {list(facts.extraRules.map((rule) => `“${rule}”`))}.
          </li>
          <li>
            Signed in, every page each of these people reaches from the home page, their dashboard
            and their profile, with every tab of each page and the user menu open:{' '}
            {list(
              facts.crawledRoles.map(
                (user) =>
                  `${roleName(user.role)} on ${HOST_NAMES[user.host]}${user.dark ? ' (dark theme)' : ''}`,
              ),
            )}
            .
          </li>
          <li>
            Signed out, on the platform’s site and on an agency’s:{' '}
            {list(facts.signedOutPages.map(pageName))}, a person’s public card page, and the sign-in
            and sign-up forms showing their error messages.
          </li>
          <li>Dialogs, open: {list(facts.dialogs.map((dialog) => `“${dialog}”`))}.</li>
          <li>
            At a phone’s width ({facts.phoneWidth} px): the signed-in home with the user menu open,
            and a dashboard with its navigation drawer open.
          </li>
          <li>
            Themes: the light theme everywhere; the dark theme on every page of the accounts marked
            above, and on the states below that name it.
          </li>
        </ul>
        <details className="rounded-md border border-gray-200 p-3 dark:border-gray-800">
          <summary className="cursor-pointer font-medium">
            Other states checked ({facts.featureStates.length})
          </summary>
          <ul className="mt-2 flex list-disc flex-col gap-1 pl-6 text-sm">
            {facts.featureStates.map((state) => (
              <li key={state}>{state}</li>
            ))}
          </ul>
        </details>
      </section>

      <section className="flex flex-col gap-2" aria-labelledby="limitations">
        <h2 id="limitations" className="text-xl font-semibold">
          Known limitations
        </h2>
        <ul className="flex list-disc flex-col gap-2 pl-6 leading-relaxed">
          {LIMITATIONS.map((limitation) => (
            <li key={limitation}>{limitation}</li>
          ))}
        </ul>
      </section>

      <section className="flex flex-col gap-2" aria-labelledby="contact">
        <h2 id="contact" className="text-xl font-semibold">
          Feedback and contact
        </h2>
        {contact ? (
          <p className="leading-relaxed">
            Something hard to use, or need information in another format? Write to{' '}
            <a
              className="font-medium text-brand-text underline"
              href={`mailto:${contact}`}
              data-testid="accessibility-contact"
            >
              {contact}
            </a>
            . {name} answers requests about accessibility.
          </p>
        ) : (
          <p className="leading-relaxed">
            Something hard to use, or need information in another format? Ask the organization that
            gave you your account: {name} has not named an address for accessibility requests yet.
          </p>
        )}
      </section>
    </main>
  )
}
