// The emails of a card that follows a person who leaves (issue 45 point 2, ADR 103): the offer
// of a personal card to the departing person, and the "has moved" notice each follower of their
// cards gets once the personal card exists, with both cards and the one-click way out (RFC 8058)
// in its headers and body. Both go out in the agency's name: the followers followed the agency's
// card, and the offer is the agency's. The personal card's address (on the platform's host) is
// the one link that is not the agency's, because it is the person's own card.
import { translator } from '#app/utils/i18n/translate'
import { isLanguage, SOURCE_LANGUAGE } from '#app/validation/languages'
import {
  PERSONAL_CARD_CLAIM_LINK,
  PERSONAL_CARD_MANAGE_LINK,
} from '#app/validation/token-lifetimes'
import { type EmailBranding, renderActionEmail, unsubscribeHeaders } from './layout.server'

/** To the departing person: claim a card of their own, with nothing of the agency's on it. */
export function personalCardOfferEmail(options: {
  branding: EmailBranding
  to: string
  firstName: string
  claimUrl: string
}) {
  const { branding, to, firstName, claimUrl } = options
  const { html, text } = renderActionEmail({
    branding,
    heading: 'Keep a personal card',
    paragraphs: [
      `Hello ${firstName},`,
      `${branding.name} offers you a personal digital card of your own, to keep after you leave: your name and the personal email or phone you choose, nothing of the company's.`,
      'People who asked to be kept updated about your card will be told where to find you. Your company card keeps forwarding to your successor.',
    ],
    action: { label: 'Create my personal card', url: claimUrl },
    footnote: `The link works once and for ${PERSONAL_CARD_CLAIM_LINK.words}. If you do not want a personal card, ignore this email.`,
  })
  return { to, subject: 'Keep a personal card', html, text }
}

/** To a follower: the person moved on, here are both cards (in the follower's language). */
export function personalCardMovedEmail(options: {
  branding: EmailBranding
  to: string
  ownerName: string
  personalCardUrl: string
  companyCardUrl: string
  stopUrl: string
  language?: string
}) {
  const { branding, to, ownerName, personalCardUrl, companyCardUrl, stopUrl } = options
  const language = isLanguage(options.language) ? options.language : SOURCE_LANGUAGE
  const t = translator(language)
  const agency = branding.name
  const { html, text } = renderActionEmail({
    branding,
    language,
    heading: t('followEmail.movedSubject', { ownerName }),
    paragraphs: [
      t('followEmail.hello'),
      t('followEmail.movedText', { ownerName, agency }),
      t('followEmail.movedPersonal', { ownerName, url: personalCardUrl }),
      t('followEmail.movedCompany', { agency, url: companyCardUrl }),
    ],
    action: { label: t('followEmail.movedViewPersonal', { ownerName }), url: personalCardUrl },
    secondaryAction: { label: t('followEmail.movedViewCompany', { agency }), url: companyCardUrl },
    footnote: t('followEmail.movedFootnote', { ownerName }),
    unsubscribe: { label: t('followEmail.stop'), url: stopUrl },
  })
  return {
    to,
    subject: t('followEmail.movedSubject', { ownerName }),
    html,
    text,
    headers: unsubscribeHeaders(stopUrl),
  }
}

/** To a personal card's own address, at its owner's request: edit or remove the card (ADR 106). */
export function personalCardManageEmail(options: {
  branding: EmailBranding
  to: string
  firstName: string
  manageUrl: string
}) {
  const { branding, to, firstName, manageUrl } = options
  const { html, text } = renderActionEmail({
    branding,
    heading: 'Edit or remove your personal card',
    paragraphs: [
      `Hello ${firstName},`,
      'Someone asked, on your personal card, for a link to edit or remove it. Use it to change your name, email or phone, or to take the card down.',
    ],
    action: { label: 'Edit my personal card', url: manageUrl },
    footnote: `The link works for ${PERSONAL_CARD_MANAGE_LINK.words}. If you did not ask for it, ignore this email: nothing changes.`,
  })
  return { to, subject: 'Edit or remove your personal card', html, text }
}
