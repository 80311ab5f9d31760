import { eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { action, loader } from '#app/routes/onboarding'
import { linkHostMessage } from '#app/validation/card-details'
import { getDb } from '#drizzle/db.server'
import { cardLinks, digitalCards, users } from '#drizzle/schema'
import {
  contextFor,
  formRequest,
  makeOrganization,
  makeUser,
  replyErrors,
  requestFor,
  sessionCookieFor,
  settle,
} from '#tests/factories'

async function setup(primaryColor?: string) {
  const organization = await makeOrganization(primaryColor ? { primaryColor } : {})
  const user = await makeUser(organization.id, { firstName: 'Wendy', lastName: 'Wizard' })
  const cookie = await sessionCookieFor(organization.id, user.id)
  const host = `${organization.slug}.localhost`
  const post = (path: string, fields: Record<string, string>) =>
    settle(() =>
      action({
        request: formRequest(host, path, fields, cookie),
        context: contextFor(host),
        params: {},
      }),
    )
  const get = (path: string) =>
    settle(() =>
      loader({
        request: requestFor(host, path, { headers: { Cookie: cookie } }),
        context: contextFor(host),
        params: {},
      }),
    )
  return { organization, user, post, get }
}

const userRow = async (id: string) =>
  (await getDb().select().from(users).where(eq(users.id, id)))[0]

describe('onboarding wizard', () => {
  test("the work email starts as the account's address, and a card made with it shows it once", async () => {
    const { user, get, post } = await setup()
    const data = (await (await get('/onboarding?step=2&mode=card')).json()) as {
      draft: { workEmail: string }
    }
    expect(data.draft.workEmail).toBe(user.email)
    await post('/onboarding?step=1&mode=card', { firstName: 'Wendy', lastName: 'Wizard' })
    await post('/onboarding?step=2&mode=card', { workEmail: user.email, phoneNumber: '' })
    await post('/onboarding?step=5&mode=card', {})
    const [card] = await getDb().select().from(digitalCards).where(eq(digitalCards.userId, user.id))
    expect(card).toMatchObject({ email: user.email, workEmail: user.email })
  })

  test('step messages come back with 400 and nothing is saved', async () => {
    const { user, post } = await setup()
    const step1 = await post('/onboarding?step=1', { firstName: ' ', lastName: 'X' })
    expect(step1.status).toBe(400)
    expect((await replyErrors(step1)).firstName).toContain('Please enter your first and last name')
    const step2 = await post('/onboarding?step=2', { workEmail: 'not-email', phoneNumber: '1' })
    expect(step2.status).toBe(400)
    expect((await replyErrors(step2)).workEmail).toContain('Please enter a valid email address')
    const row = await userRow(user.id)
    expect(row).toMatchObject({ firstName: 'Wendy', workEmail: '', phoneNumber: '' })
  })

  test('profile mode saves each step to the profile and finishes at /qrcode with a first, default card', async () => {
    const { user, post } = await setup()
    expect(
      (await post('/onboarding?step=1', { firstName: 'Wanda', lastName: 'Wizard' })).headers.get(
        'Location',
      ),
    ).toBe('/onboarding?step=2')
    await post('/onboarding?step=2', { workEmail: 'w@work.test', phoneNumber: '123' })
    await post('/onboarding?step=3', {
      company: 'Spells Inc',
      jobTitle: 'Mage',
      website: 'spells.test',
    })
    expect(await userRow(user.id)).toMatchObject({
      firstName: 'Wanda',
      company: 'Spells Inc',
      website: 'https://spells.test',
    })
    await post('/onboarding?step=4', { backgroundChoice: 'gradient:purple-mystic' })
    const done = await post('/onboarding?step=5', {})
    expect(done).toHaveRedirect('/qrcode')
    const cards = await getDb().select().from(digitalCards).where(eq(digitalCards.userId, user.id))
    expect(cards).toHaveLength(1)
    expect(cards[0]).toMatchObject({
      isDefault: true,
      title: "Wanda's Card",
      backgroundKind: 'gradient',
      backgroundValue: 'purple-mystic',
    })
    expect((await userRow(user.id))?.onboardingCompletedAt).not.toBeNull()
  })

  test('card mode comes from the URL, leaves the profile alone and ends in the cards list', async () => {
    const { user, post, get } = await setup()
    const page = await get('/onboarding?mode=card&title=Night%20card')
    expect(((await page.json()) as { mode: string; draft: { title: string } }).draft.title).toBe(
      'Night card',
    )
    await post('/onboarding?step=1&mode=card', { firstName: 'Nora', lastName: 'Night' })
    const done = await post('/onboarding?step=5&mode=card', {})
    expect(done).toHaveRedirect('/dashboard/end-user/digital-cards')
    expect((await userRow(user.id))?.firstName).toBe('Wendy')
    const [card] = await getDb().select().from(digitalCards).where(eq(digitalCards.userId, user.id))
    expect(card).toMatchObject({ title: 'Night card', firstName: 'Nora' })
  })

  test("a new card starts on the agency's primary colour, which the user may change", async () => {
    // Issue 30: the wizard's card was white on its white page.
    const { user, post, get } = await setup('#0F766E')
    const page = await get('/onboarding?mode=card')
    expect(((await page.json()) as { draft: { backgroundValue: string } }).draft).toMatchObject({
      backgroundKind: 'color',
      backgroundValue: '#0f766e',
    })
    await post('/onboarding?step=1&mode=card', { firstName: 'Bree', lastName: 'Brand' })
    expect(await post('/onboarding?step=5&mode=card', {})).toHaveRedirect(
      '/dashboard/end-user/digital-cards',
    )
    await post('/onboarding?step=1&mode=card', { firstName: 'Bree', lastName: 'Brand' })
    await post('/onboarding?step=4&mode=card', { backgroundChoice: 'color:#ffffff' })
    await post('/onboarding?step=5&mode=card', {})
    const cards = await getDb().select().from(digitalCards).where(eq(digitalCards.userId, user.id))
    expect(cards.map((card) => card.backgroundValue).sort()).toEqual(['#0f766e', '#ffffff'])
  })

  test("issue 28's details are optional in steps 2 and 3, checked there, and land on the card", async () => {
    const { user, post } = await setup()
    await post('/onboarding?step=1&mode=card', { firstName: 'Nora', lastName: 'Night' })
    const step2 = await post('/onboarding?step=2&mode=card', {
      workEmail: '',
      phone2: '+1 555 0102',
      phone2Type: 'work',
      addressCity: 'Lisbon',
      addressCountry: 'Portugal',
    })
    expect(step2).toHaveRedirect('/onboarding?step=3&mode=card')
    // A link moved without JavaScript: the step again, rows swapped, nothing refused or saved.
    const moved = await post('/onboarding?step=3&mode=card', {
      'links[0].kind': 'github',
      'links[0].url': 'github.com/nora',
      'links[1].kind': 'x',
      'links[1].url': 'x.com/nora',
      __intent__: JSON.stringify({ type: 'reorder', payload: { name: 'links', from: 1, to: 0 } }),
    })
    expect(moved.status).toBe(200)
    const reply = (await moved.json()) as {
      result: { initialValue: { links: { kind: string }[] } }
    }
    expect(reply.result.initialValue.links.map((link) => link.kind)).toEqual(['x', 'github'])
    // "Add link" without JavaScript: the step again with one more, empty row (issue 41 point 14).
    const added = await post('/onboarding?step=3&mode=card', {
      'links[0].kind': 'github',
      'links[0].url': 'github.com/nora',
      __intent__: JSON.stringify({
        type: 'insert',
        payload: { name: 'links', defaultValue: { kind: 'custom', label: '', url: '' } },
      }),
    })
    expect(added.status).toBe(200)
    const grown = (await added.json()) as {
      result: { initialValue: { links: { kind: string; url: string }[] } }
    }
    expect(grown.result.initialValue.links).toEqual([
      { kind: 'github', url: 'github.com/nora' },
      // Empty texts are left out of the form's values.
      { kind: 'custom' },
    ])
    const refused = await post('/onboarding?step=3&mode=card', {
      'links[0].kind': 'github',
      'links[0].url': 'https://gitlab.example.test/nora',
    })
    expect(refused.status).toBe(400)
    expect(await replyErrors(refused)).toEqual({ 'links[0].url': [linkHostMessage('github')] })
    await post('/onboarding?step=3&mode=card', {
      pronouns: 'she/her',
      bio: 'Night owl.',
      'links[0].kind': 'github',
      'links[0].url': 'github.com/nora',
      'links[1].kind': 'custom',
      'links[1].url': '',
    })
    const done = await post('/onboarding?step=5&mode=card', {})
    expect(done).toHaveRedirect('/dashboard/end-user/digital-cards')
    const [card] = await getDb().select().from(digitalCards).where(eq(digitalCards.userId, user.id))
    expect(card).toMatchObject({
      phone2: '+1 555 0102',
      addressCity: 'Lisbon',
      pronouns: 'she/her',
      bio: 'Night owl.',
    })
    const links = await getDb()
      .select({ kind: cardLinks.kind, url: cardLinks.url })
      .from(cardLinks)
      .where(eq(cardLinks.cardId, card?.id ?? ''))
    expect(links).toEqual([{ kind: 'github', url: 'https://github.com/nora' }])
  })
})

test('a card title in the URL that is not plain text is dropped, never a 500', async () => {
  const { get } = await setup()
  const page = await get('/onboarding?mode=card&title=%00bad')
  expect(page.status).toBe(200)
  expect(((await page.json()) as { draft: { title: string } }).draft.title).toBe('')
})
