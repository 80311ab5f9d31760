import { Fragment, type ReactNode } from 'react'
import type { LegalLinks } from '#app/validation/legal'
import { useTranslate } from './use-translate'

export function SiteFooter({
  name,
  year,
  legal,
  getYourOwnCardUrl = null,
}: {
  name: string
  year: number
  /** The host's own links (issue 17 point 5); an empty privacy policy leads to /privacy. */
  legal: LegalLinks
  /**
   * On a recipient's card page: the one way into the product it offers (ADR 080), to the page
   * the agency chose or the sign-up page (ADR 083).
   */
  getYourOwnCardUrl?: string | null
}) {
  const t = useTranslate()
  return (
    // On a card page at a phone's width the Save Contact bar is fixed at the bottom: the footer
    // ends above it, so its last links (Privacy Policy, Accessibility) are never hidden under it.
    <footer className="flex flex-col items-center gap-2 border-t border-gray-200 py-6 text-center text-sm text-gray-500 group-has-[[data-save-contact]]/app:pb-28 sm:group-has-[[data-save-contact]]/app:pb-6 dark:border-gray-800 dark:text-gray-400">
      {getYourOwnCardUrl ? (
        <a
          href={getYourOwnCardUrl}
          data-testid="get-your-own-card"
          className="font-medium text-brand-text underline-offset-2 hover:underline"
        >
          {t('frame.getYourOwnCard')}
        </a>
      ) : null}
      <p>{t('frame.rights', { year: String(year), name })}</p>
      {/* Pricing and a privacy policy on every host (issue 41 point 17, ADR 087): the host's own
          policy when set, else the built-in notice at /privacy (a card's visitors are
          counted, so their page links it too); terms only when the host has some
          (terms are a contract nobody may invent for it). */}
      <nav aria-label={t('frame.legalNav')}>
        <ul className="flex flex-wrap justify-center gap-x-4 gap-y-1">
          {/* A recipient's card page offers "Get your own card" alone (ADR 080). */}
          {getYourOwnCardUrl ? null : (
            <li>
              <a className="underline-offset-2 hover:underline" href="/pricing">
                {t('frame.pricing')}
              </a>
            </li>
          )}
          <li>
            <a
              className="underline-offset-2 hover:underline"
              href={legal.privacyPolicyUrl || '/privacy'}
            >
              {t('frame.privacy')}
            </a>
          </li>
          {/* The accessibility statement of every host (issue 45 point 6, ADR 100). */}
          <li>
            <a className="underline-offset-2 hover:underline" href="/accessibility">
              {t('frame.accessibility')}
            </a>
          </li>
          {legal.termsOfServiceUrl ? (
            <li>
              <a className="underline-offset-2 hover:underline" href={legal.termsOfServiceUrl}>
                {t('frame.terms')}
              </a>
            </li>
          ) : null}
          {legal.supportEmail ? (
            <li>
              {t('frame.support')}{' '}
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
    </footer>
  )
}

/**
 * Under the sign-up form: the agreement, with whichever policy links the host has, and where to
 * ask for help. Nothing when the host has none (a sentence about absent terms would mislead).
 */
export function SignUpAgreement({ legal }: { legal: LegalLinks }) {
  // In the sign-up page's language (ADR 105): the links go where the placeholders stand.
  const t = useTranslate()
  const terms = legal.termsOfServiceUrl ? (
    <a className="font-medium text-brand underline" href={legal.termsOfServiceUrl}>
      {t('signUp.terms')}
    </a>
  ) : null
  const privacy = legal.privacyPolicyUrl ? (
    <a className="font-medium text-brand underline" href={legal.privacyPolicyUrl}>
      {t('signUp.privacy')}
    </a>
  ) : null
  if (!terms && !privacy && !legal.supportEmail) return null
  const support = legal.supportEmail ? (
    <a className="font-medium text-brand underline" href={`mailto:${legal.supportEmail}`}>
      {legal.supportEmail}
    </a>
  ) : null
  return (
    <div className="flex flex-col gap-1 text-center text-sm text-gray-600 dark:text-gray-400">
      {terms || privacy ? (
        <p data-testid="sign-up-agreement">
          {terms && privacy
            ? withLinks(t('signUp.agreeBoth'), { terms, privacy })
            : withLinks(t('signUp.agreeOne'), { document: terms ?? privacy })}
        </p>
      ) : null}
      {support ? <p>{withLinks(t('signUp.questions'), { email: support })}</p> : null}
    </div>
  )
}

/** A translated sentence with its `{name}` placeholders replaced by elements (links). */
function withLinks(text: string, links: Record<string, ReactNode>) {
  return text.split(/(\{\w+\})/).map((part, index) => {
    const name = /^\{(\w+)\}$/.exec(part)?.[1]
    // biome-ignore lint/suspicious/noArrayIndexKey: the sentence's parts never move
    return <Fragment key={index}>{name && name in links ? links[name] : part}</Fragment>
  })
}
