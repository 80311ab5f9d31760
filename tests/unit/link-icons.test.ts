// Issue 41 point 6: a card's links carry their networks' own marks (simple-icons), in the link's
// own colour, so they read as well as the link's text on any card.
import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { siGithub, siWhatsapp, siX } from 'simple-icons'
import { expect, test } from 'vitest'
import { NO_CARD_EXTRAS } from '#app/cards/card-extras'
import type { CardView } from '#app/cards/card-view'
import { CardActions } from '#app/components/cards/card-actions'
import { CardDisplay } from '#app/components/cards/card-display'
import { LINK_KINDS, type LinkKind } from '#app/validation/card-details'

/** A card of Ada's with the company given, on a white background unless told otherwise. */
const adaCard = (overrides: Partial<CardView> = {}): CardView => ({
  firstName: 'Ada',
  lastName: 'Lovelace',
  jobTitle: '',
  company: 'Analytical Engines',
  phoneNumber: '',
  website: '',
  logoUrl: null,
  profilePictureUrl: null,
  background: { kind: 'color', value: '#ffffff', imageUrl: null },
  ...overrides,
})

const render = (kinds: LinkKind[]) =>
  renderToStaticMarkup(
    createElement(CardActions, {
      phones: [],
      emails: [],
      website: '',
      light: false,
      extras: {
        ...NO_CARD_EXTRAS,
        links: kinds.map((kind) => ({ kind, label: kind, url: `https://example.test/${kind}` })),
      },
    }),
  )

test('each network a mark exists for is drawn with it, in currentColor', () => {
  const html = render(['x', 'github', 'whatsapp'])
  for (const [kind, icon] of [
    ['x', siX],
    ['github', siGithub],
    ['whatsapp', siWhatsapp],
  ] as const) {
    expect(html).toContain(`data-brand-icon="${kind}"`)
    expect(html).toContain(`d="${icon.path}"`)
  }
  expect(html.match(/fill="currentColor"/g)).toHaveLength(3)
})

test('every network kind but LinkedIn, booking and custom has its own mark', () => {
  const withoutMark = LINK_KINDS.filter((kind) => !render([kind]).includes('data-brand-icon'))
  expect(withoutMark.sort()).toEqual(['booking', 'custom', 'linkedin'])
  // The others are still drawn, with an icon of their own (no mark, no broken image).
  expect(render(['linkedin', 'booking', 'custom']).match(/<svg/g)).toHaveLength(3)
})

test('the company shows once: at the top without a logo, under the name with one', () => {
  const card = adaCard()
  const count = (html: string) => html.split('Analytical Engines').length - 1
  expect(count(renderToStaticMarkup(createElement(CardDisplay, { card, productName: 'P' })))).toBe(
    1,
  )
  const withLogo = renderToStaticMarkup(
    createElement(CardDisplay, { card: { ...card, logoUrl: '/media/logo' }, productName: 'P' }),
  )
  // The logo's alt text names it, and the line under the name says it.
  expect(withLogo).toContain('alt="Analytical Engines"')
  expect(withLogo).toContain('>Analytical Engines</p>')
})

test('a logo on a coloured card sits on a white plate, so a logo in the brand colour stays seen', () => {
  const card = adaCard({
    logoUrl: '/media/logo',
    background: { kind: 'color', value: '#e11d48', imageUrl: null },
  })
  const onRed = renderToStaticMarkup(createElement(CardDisplay, { card, productName: 'P' }))
  expect(onRed).toContain('data-testid="card-logo-plate"')
  const onWhite = renderToStaticMarkup(
    createElement(CardDisplay, {
      card: { ...card, background: { kind: 'color', value: '#ffffff', imageUrl: null } },
      productName: 'P',
    }),
  )
  expect(onWhite).not.toContain('card-logo-plate')
  expect(onWhite).toContain('data-testid="card-logo"')
})

test('the department follows the job title on one line, and stands alone without one', () => {
  const line = (jobTitle: string, department: string) =>
    renderToStaticMarkup(
      createElement(CardDisplay, {
        card: adaCard({ jobTitle }),
        productName: 'P',
        extras: { ...NO_CARD_EXTRAS, department },
      }),
    )
  expect(line('Engineer', 'Research')).toContain('>Engineer · Research</p>')
  expect(line('', 'Research')).toContain('>Research</p>')
  expect(line('Engineer', '')).toContain('>Engineer</p>')
})
