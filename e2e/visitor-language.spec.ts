// The card in the visitor's language (issue 45 point 5, ADR 105), on the production server: a
// browser that asks for German gets Olivia's card page in German (`lang="de"`, the page's own
// words) with her own texts as she wrote them, at a phone's width, light and dark, axe-clean;
// the page's switcher offers the agency's languages; and the agency's choice of languages on its
// Branding screen is honoured: a language it does not offer falls back to its default. The
// sign-in page speaks German to the same browser, and so do sign-up and the two-factor step.
// Negotiation, cache keys and the receipt: tests/integration/visitor-language.test.ts.
import http from 'node:http'
import { decodeBase32IgnorePadding } from '@oslojs/encoding'
import { generateTOTP } from '@oslojs/otp'
import { type Browser, expect, type Page, test } from '@playwright/test'
import { CARD_OWNER, e2ePort, HOSTS, urlFor } from './fixtures'
import { expectAccessible, signedInAs, waitForHydration } from './page-helpers'
import { ALPHA_ROLE_USERS } from './role-users'

// One after the other: the second test limits Alpha's languages, which the first must not see.
test.describe.configure({ mode: 'serial' })

const PHONE = { width: 375, height: 812 }
const CARD_PATH = '/card/olivia-owner'

type Answer = { headers: http.IncomingHttpHeaders; body: string }

/** A visitor without cookies over plain HTTP (Node does not resolve alpha.localhost itself). */
function visit(path: string, acceptLanguage: string) {
  return new Promise<Answer>((resolve, reject) => {
    const request = http.get(
      {
        host: '127.0.0.1',
        port: e2ePort(),
        path,
        headers: { host: `${HOSTS.alpha}:${e2ePort()}`, 'accept-language': acceptLanguage },
      },
      (response) => {
        let body = ''
        response.setEncoding('utf8')
        response.on('data', (chunk) => {
          body += chunk
        })
        response.on('end', () => resolve({ headers: response.headers, body }))
      },
    )
    request.on('error', reject)
  })
}

async function fitsThePhone(page: Page) {
  const widths = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    client: document.documentElement.clientWidth,
  }))
  expect(widths.scroll, 'no sideways scrolling at 375 px').toBeLessThanOrEqual(widths.client)
}

async function visitorIn(browser: Browser, locale: string) {
  const context = await browser.newContext({ locale, viewport: PHONE })
  const page = await context.newPage()
  await page.goto(urlFor(HOSTS.alpha, CARD_PATH))
  return { context, page }
}

/** Alpha's admin saves its languages on the Branding screen. */
async function chooseLanguages(browser: Browser, offered: string[], defaultLanguage: string) {
  const admin = ALPHA_ROLE_USERS.find((user) => user.role === 'agency_admin')
  if (!admin) throw new Error('no Alpha agency admin')
  const { context, page } = await signedInAs(
    browser,
    admin,
    '/dashboard/agency/branding?tab=domain',
  )
  const section = page.getByTestId('languages')
  for (const name of ['English', 'Deutsch', 'Français', 'Español', 'Nederlands']) {
    await section.getByRole('checkbox', { name }).setChecked(offered.includes(name))
  }
  await section.getByLabel('Default language').selectOption({ label: defaultLanguage })
  await section.getByRole('button', { name: 'Save languages' }).click()
  await expect(page.getByText('Languages saved')).toBeVisible()
  await context.close()
}

test('a browser that asks for German gets the card page in German, the card’s own texts as written', async ({
  browser,
}) => {
  const { context, page } = await visitorIn(browser, 'de-DE')
  await expect(page.locator('html')).toHaveAttribute('lang', 'de')
  await expect(page).toHaveTitle(`${CARD_OWNER.firstName} ${CARD_OWNER.lastName} · Visitenkarte`)
  await expect(page.getByRole('link', { name: 'Kontakt speichern' })).toBeVisible()
  await expect(
    page.getByRole('heading', { name: `Teilen Sie Ihre Kontaktdaten mit ${CARD_OWNER.firstName}` }),
  ).toBeVisible()
  await expect(page.getByLabel('Ihr Name')).toBeVisible()
  await expect(page.getByRole('button', { name: 'Meine Daten senden' })).toBeVisible()
  // The owner's words stay hers.
  await expect(page.getByText(CARD_OWNER.jobTitle)).toBeVisible()
  await expect(page.getByText(CARD_OWNER.company).first()).toBeVisible()
  // The footer speaks German too.
  await expect(
    page.getByRole('contentinfo').getByRole('link', { name: 'Barrierefreiheit' }),
  ).toBeVisible()
  // A refused lead is refused in German, next to the field (card-visitor.js, no React).
  await page.getByRole('button', { name: 'Meine Daten senden' }).click()
  await expect(page.getByText('Bitte geben Sie Ihren Namen ein')).toBeVisible()
  await fitsThePhone(page)
  await expectAccessible(page, 'card page in German')
  await page.emulateMedia({ colorScheme: 'dark' })
  await expectAccessible(page, 'card page in German (dark)')
  await page.emulateMedia({ colorScheme: 'light' })
  await page.screenshot({
    path: test.info().outputPath('375-card-page-de.jpg'),
    quality: 60,
    fullPage: true,
  })
  // The switcher: the visitor picks English.
  await page
    .getByRole('navigation', { name: 'Sprache' })
    .getByRole('link', { name: 'English' })
    .click()
  await expect(page.locator('html')).toHaveAttribute('lang', 'en')
  await expect(page.getByRole('link', { name: 'Save Contact' })).toBeVisible()
  await context.close()
})

test('a browser that asks for German gets the sign-in page in German', async ({ browser }) => {
  const context = await browser.newContext({ locale: 'de-DE', viewport: PHONE })
  const page = await context.newPage()
  await page.goto(urlFor(HOSTS.alpha, '/auth/login'))
  await expect(page.locator('html')).toHaveAttribute('lang', 'de')
  await expect(page.getByRole('heading', { level: 1, name: 'Anmelden' })).toBeVisible()
  await expect(page.getByLabel('Passwort', { exact: true })).toBeVisible()
  await expectAccessible(page, 'sign-in page in German')
  await context.close()
})

test('the page cache keeps one page per language, and the answer says it varies by it', async () => {
  // Until the cache answers: other specs' edits to Alpha's cards drop its pages in between.
  const cached = async (acceptLanguage: string) => {
    let answer: Answer | undefined
    await expect
      .poll(async () => {
        answer = await visit(CARD_PATH, acceptLanguage)
        return answer.headers['x-cache']
      })
      .toBe('HIT')
    return answer as Answer
  }
  const german = await cached('de-AT,de;q=0.8')
  expect(german.headers.vary).toContain('Accept-Language')
  expect(german.body).toContain('<html lang="de"')
  const english = await cached('en-US,en;q=0.9')
  expect(english.headers.vary).toContain('Accept-Language')
  expect(english.body).toContain('<html lang="en"')
})

test('the agency’s languages are honoured: a language it does not offer gets its default', async ({
  browser,
}) => {
  await chooseLanguages(browser, ['English', 'Français'], 'English')
  try {
    const german = await visitorIn(browser, 'de-DE')
    await expect(german.page.locator('html')).toHaveAttribute('lang', 'en')
    await expect(german.page.getByRole('link', { name: 'Save Contact' })).toBeVisible()
    const switcher = german.page.getByRole('navigation', { name: 'Language' })
    await expect(switcher.getByRole('link')).toHaveText(['English', 'Français'])
    await german.context.close()
    const french = await visitorIn(browser, 'fr-FR')
    await expect(french.page.locator('html')).toHaveAttribute('lang', 'fr')
    await expect(french.page.getByRole('link', { name: 'Enregistrer le contact' })).toBeVisible()
    await french.context.close()
  } finally {
    // Every language again, English the default: what the other specs' browsers expect.
    await chooseLanguages(
      browser,
      ['English', 'Deutsch', 'Français', 'Español', 'Nederlands'],
      'English',
    )
  }
})

test('sign-up and the two-factor step speak German to a German browser', async ({ browser }) => {
  test.setTimeout(120_000)
  const email = `sprache-${Math.random().toString(36).slice(2, 8)}@example.test`
  const password = 'sprache-pass-1'
  const context = await browser.newContext({ locale: 'de-DE', viewport: PHONE })
  const page = await context.newPage()
  // Sign-up in German: a refusal next to its field, then the account.
  await page.goto(urlFor(HOSTS.alpha, '/auth/register'))
  await waitForHydration(page)
  await expect(page.locator('html')).toHaveAttribute('lang', 'de')
  await expect(page.getByRole('heading', { name: 'Konto erstellen' })).toBeVisible()
  await page.getByLabel('Vorname').fill('G')
  await page.getByRole('button', { name: 'Konto erstellen' }).click()
  await expect(page.getByText('Vorname muss mindestens 2 Zeichen lang sein')).toBeVisible()
  await expectAccessible(page, 'sign-up in German')
  await page.getByLabel('Vorname').fill('Greta')
  await page.getByLabel('Nachname').fill('Sprache')
  await page.getByLabel('E-Mail').fill(email)
  await page.getByLabel('Passwort').fill(password)
  await page.getByRole('button', { name: 'Konto erstellen' }).click()
  await expect(page).toHaveURL(urlFor(HOSTS.alpha, '/onboarding'))
  // An authenticator from the Security area (English: it is not a sign-in page).
  await page.goto(urlFor(HOSTS.alpha, '/account/two-factor'))
  await waitForHydration(page)
  const keyText = (await page.getByTestId('totp-key').textContent()) ?? ''
  const code = () => generateTOTP(decodeBase32IgnorePadding(keyText.replace(/\s+/g, '')), 30, 6)
  await page.getByLabel('Code from the app').fill(code())
  await page.getByRole('button', { name: 'Turn on two-factor authentication' }).click()
  await expect(page.getByRole('list', { name: 'Recovery codes' })).toBeVisible()
  // Signed out, signed in again: the second step in German, a wrong code refused in German.
  await context.clearCookies()
  await page.goto(urlFor(HOSTS.alpha, '/auth/login'))
  await waitForHydration(page)
  await page.getByLabel('E-Mail').fill(email)
  await page.getByLabel('Passwort').fill(password)
  await page.getByRole('button', { name: 'Anmelden', exact: true }).click()
  await expect(page).toHaveURL(urlFor(HOSTS.alpha, '/auth/two-factor'))
  await expect(page.locator('html')).toHaveAttribute('lang', 'de')
  await expect(page.getByRole('heading', { name: 'Zwei-Faktor-Authentifizierung' })).toBeVisible()
  await page.getByLabel('Authentifizierungscode').fill('000000')
  await page.getByRole('button', { name: 'Bestätigen' }).click()
  await expect(
    page.getByText('Dieser Code stimmt nicht. Bitte versuchen Sie es erneut.'),
  ).toBeVisible()
  await expectAccessible(page, 'two-factor step in German')
  await page.getByLabel('Authentifizierungscode').fill(code())
  await page.getByRole('button', { name: 'Bestätigen' }).click()
  await expect(page.getByText('Erfolgreich angemeldet!')).toBeVisible()
  await context.close()
})
