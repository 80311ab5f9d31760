import type { LegalLinks } from '#app/validation/legal'

export function SiteFooter({
  name,
  year,
  legal,
  getYourOwnCard = false,
}: {
  name: string
  year: number
  /** The host's own links (issue 17 point 5); empty ones are left out, so nothing is invented. */
  legal: LegalLinks
  /** On a recipient's card page: the one way into the product it offers (ADR 080). */
  getYourOwnCard?: boolean
}) {
  const hasLinks = legal.privacyPolicyUrl || legal.termsOfServiceUrl || legal.supportEmail
  return (
    <footer className="flex flex-col items-center gap-2 border-t border-gray-200 py-6 text-center text-sm text-gray-500 dark:border-gray-800 dark:text-gray-400">
      {getYourOwnCard ? (
        <a
          href="/auth/register"
          className="font-medium text-brand-text underline-offset-2 hover:underline"
        >
          Get your own card
        </a>
      ) : null}
      <p>
        © {year} {name}. All rights reserved.
      </p>
      {hasLinks ? (
        <nav aria-label="Legal and support">
          <ul className="flex flex-wrap justify-center gap-x-4 gap-y-1">
            {legal.privacyPolicyUrl ? (
              <li>
                <a className="underline-offset-2 hover:underline" href={legal.privacyPolicyUrl}>
                  Privacy Policy
                </a>
              </li>
            ) : null}
            {legal.termsOfServiceUrl ? (
              <li>
                <a className="underline-offset-2 hover:underline" href={legal.termsOfServiceUrl}>
                  Terms of Service
                </a>
              </li>
            ) : null}
            {legal.supportEmail ? (
              <li>
                Support:{' '}
                <a
                  className="underline-offset-2 hover:underline"
                  href={`mailto:${legal.supportEmail}`}
                >
                  {legal.supportEmail}
                </a>
              </li>
            ) : null}
          </ul>
        </nav>
      ) : null}
    </footer>
  )
}

/**
 * Under the sign-up form: the agreement, with whichever policy links the host has, and where to
 * ask for help. Nothing when the host has none (a sentence about absent terms would mislead).
 */
export function SignUpAgreement({ legal }: { legal: LegalLinks }) {
  const terms = legal.termsOfServiceUrl ? (
    <a className="font-medium text-brand underline" href={legal.termsOfServiceUrl}>
      Terms
    </a>
  ) : null
  const privacy = legal.privacyPolicyUrl ? (
    <a className="font-medium text-brand underline" href={legal.privacyPolicyUrl}>
      Privacy Policy
    </a>
  ) : null
  if (!terms && !privacy && !legal.supportEmail) return null
  return (
    <div className="flex flex-col gap-1 text-center text-sm text-gray-600 dark:text-gray-400">
      {terms || privacy ? (
        <p data-testid="sign-up-agreement">
          By creating an account you agree to the{' '}
          {terms && privacy ? (
            <>
              {terms} and {privacy}
            </>
          ) : (
            (terms ?? privacy)
          )}
          .
        </p>
      ) : null}
      {legal.supportEmail ? (
        <p>
          Questions? Contact{' '}
          <a className="font-medium text-brand underline" href={`mailto:${legal.supportEmail}`}>
            {legal.supportEmail}
          </a>
        </p>
      ) : null}
    </div>
  )
}
