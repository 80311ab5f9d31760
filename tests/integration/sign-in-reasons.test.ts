// Spec §8: 'You must be logged in to save contacts' and 'You must be logged in to create a
// digital card'. A signed-out save or card creation goes to sign-in, which says why, and
// coming back continues where the visitor was going.
import { describe, expect, test } from 'vitest'
import { loader as loginLoader } from '#app/routes/auth.login'
import { action as cardAction } from '#app/routes/card.$ref'
import { action as cardsListAction } from '#app/routes/dashboard.end-user.digital-cards._index'
import {
  contextFor,
  formRequest,
  makeCard,
  makeOrganization,
  makeUser,
  requestFor,
  settle,
} from '#tests/factories'

async function setup() {
  const organization = await makeOrganization()
  const owner = await makeUser(organization.id)
  const card = await makeCard(organization.id, owner.id, { firstName: 'Olga', lastName: 'Owner' })
  return { organization, card, host: `${organization.slug}.localhost` }
}

async function signInInfo(host: string, location: string | null) {
  expect(location).toMatch(/^\/auth\/login\?/)
  const response = await settle(() =>
    loginLoader({
      request: requestFor(host, location ?? ''),
      context: contextFor(host),
      params: {},
    }),
  )
  return (await response.json()) as { redirectTo: string; info: string | null; sso: boolean }
}

describe('signed out', () => {
  test('saving a contact sends to sign in with the reason, then back to the card', async () => {
    const { card, host } = await setup()
    const response = await settle(() =>
      cardAction({
        request: formRequest(host, `/card/${card.id}`, { intent: 'save' }),
        context: contextFor(host),
        params: { ref: card.id },
      }),
    )
    const login = await signInInfo(host, response.headers.get('Location'))
    expect(login).toEqual({
      redirectTo: `/card/${card.id}?save=1`,
      info: 'You must be logged in to save contacts',
      // No single sign-on set up here: the page offers none (ADR 088).
      sso: false,
    })
  })

  test('connecting still says who the visitor connects with', async () => {
    const { card, host } = await setup()
    const response = await settle(() =>
      cardAction({
        request: formRequest(host, `/card/${card.id}`, { intent: 'connect' }),
        context: contextFor(host),
        params: { ref: card.id },
      }),
    )
    expect((await signInInfo(host, response.headers.get('Location'))).info).toBe(
      'Sign in to connect with Olga',
    )
  })

  test('creating a card sends to sign in with the reason, then into the card wizard', async () => {
    const { host } = await setup()
    const response = await settle(() =>
      cardsListAction({
        request: formRequest(host, '/dashboard/end-user/digital-cards?index', {
          intent: 'create',
          method: 'duplicate',
        }),
        context: contextFor(host),
        params: {},
      }),
    )
    expect(response.status).toBe(302)
    expect(await signInInfo(host, response.headers.get('Location'))).toEqual({
      redirectTo: '/onboarding?mode=card&step=1',
      info: 'You must be logged in to create a digital card',
      sso: false,
    })
  })

  test('other signed-out list actions go to sign in without a reason', async () => {
    const { card, host } = await setup()
    const response = await settle(() =>
      cardsListAction({
        request: formRequest(host, '/dashboard/end-user/digital-cards?index', {
          intent: 'delete',
          cardId: card.id,
        }),
        context: contextFor(host),
        params: {},
      }),
    )
    expect((await signInInfo(host, response.headers.get('Location'))).info).toBeNull()
  })
})
