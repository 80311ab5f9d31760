// Issue 42 point 1's SAML half through the real UI (ADR 090), on the production project: a new
// agency's admin adds a SAML identity provider by its metadata URL (a samlify IdP this spec
// serves on 127.0.0.1, signing with keys openssl made for it), sees what to copy into the IdP,
// claims and verifies an email domain against the fake DNS, and requires SSO for it. A new
// person of that domain signs in with SSO on the agency's subdomain: the IdP's page, its signed
// answer posted to the ACS from the IdP's own origin, the dashboard of the role the admin chose.
// Password sign-in for the domain is refused. On a custom domain the same sign-in runs over
// https behind Caddy (e2e/caddy-tls.spec.ts: the __Host- cookies need TLS there).
import { expect, test } from '@playwright/test'
import { startFakeDnsWhenFree } from '../tests/fake-dns'
import { serveSamlIdp } from '../tests/saml-idp'
import { createAgency } from './agency-owner'
import { dnsPort, SUPER_ADMIN, urlFor } from './fixtures'
import { expectAccessible, signedInAs, waitForHydration } from './page-helpers'

test.describe.configure({ timeout: 720_000 })

const unique = () => Math.random().toString(36).slice(2, 8)

/** Sign in with SSO from the sign-in page of `host`, through the test IdP's own page. */
async function signInWithSaml(
  browser: import('@playwright/test').Browser,
  host: string,
  email: string,
) {
  const context = await browser.newContext()
  const person = await context.newPage()
  await person.goto(urlFor(host, '/auth/login'))
  await waitForHydration(person)
  await person.getByRole('link', { name: 'Sign in with SSO' }).click()
  await expect(person).toHaveURL(urlFor(host, '/auth/sso'))
  await waitForHydration(person)
  await person.getByLabel('Work email').fill(email)
  await person.getByRole('button', { name: 'Continue' }).click()
  await expect(person.getByRole('heading', { name: 'Test IdP' })).toBeVisible()
  await person.getByLabel('Email').fill(email)
  await person.getByRole('button', { name: 'Sign in to the IdP' }).click()
  return { context, person }
}

test('an agency admin adds a SAML provider alone; a new person signs in with it in the chosen role', async ({
  browser,
}) => {
  const suffix = unique()
  const slug = `samlco-${suffix}`
  const host = `${slug}.localhost`
  const domain = `saml-${suffix}.example.test`
  const { context: adminContext, page: admin } = await signedInAs(
    browser,
    SUPER_ADMIN,
    '/dashboard/super-admin',
  )
  const { context, owner } = await createAgency(admin, browser, `Samlco ${suffix}`, slug)
  await adminContext.close()
  const idp = await serveSamlIdp()
  try {
    await owner.goto(urlFor(host, '/dashboard/agency/sso'))
    await waitForHydration(owner)
    await owner.getByRole('radio', { name: 'SAML 2.0' }).check()
    await owner.getByLabel('Name').fill('Corp SAML')
    // Neither a URL nor the XML: said next to the URL.
    await owner.getByRole('button', { name: 'Add provider' }).click()
    await expect(
      owner.getByText('Enter the metadata URL your identity provider gives you'),
    ).toBeVisible()
    await owner.getByLabel('Metadata URL').fill(idp.metadataUrl)
    await owner
      .getByLabel('Role of people who sign in for the first time')
      .selectOption('team_admin')
    await owner.getByRole('button', { name: 'Add provider' }).click()
    await expect(owner.getByText('Identity provider added')).toBeVisible()
    const card = owner.getByRole('region', { name: 'Corp SAML' })
    await expect(card.getByText('SAML 2.0')).toBeVisible()
    await expect(card.getByText(idp.entityId)).toBeVisible()
    await expect(card.getByText(/^Valid until /)).toBeVisible()
    // What the admin copies into the IdP: the entity id and the ACS of this host.
    await expect(
      card.getByText(new RegExp(`^http://${host}:\\d+/auth/sso/saml/[0-9a-f-]{36}/acs$`)),
    ).toBeVisible()

    // The domain: claimed, verified by its TXT record, then SSO required for it.
    await owner.getByRole('textbox', { name: 'Email domain' }).fill(domain)
    await owner.getByRole('button', { name: 'Claim domain' }).click()
    const row = owner.getByRole('region', { name: domain })
    const txtValue = (await row.getByText(/^domain-verification=/).textContent()) ?? ''
    // The project's DNS port is shared with other specs: held only for this lookup.
    const dns = await startFakeDnsWhenFree(dnsPort())
    try {
      dns.setTxt(`_domain-verification.${domain}`, [txtValue])
      await row.getByRole('button', { name: 'Verify' }).click()
      await expect(owner.getByText(`${domain} is verified`)).toBeVisible()
    } finally {
      await dns.close()
    }
    await row.getByRole('button', { name: 'Require SSO' }).click()
    await expect(owner.getByText(`SSO is now required for ${domain}`)).toBeVisible()
    await expectAccessible(owner, 'single sign-on settings with a SAML provider')

    // A new person on the subdomain: the team member's area, the role the admin chose.
    const first = await signInWithSaml(browser, host, `ana.saml@${domain}`)
    await expect(first.person).toHaveURL(urlFor(host, '/dashboard/team-member'), {
      timeout: 60_000,
    })
    await first.context.close()

    expect(idp.answered.map((answer) => new URL(answer.acsUrl).hostname)).toEqual([host])

    // Password sign-in for the domain is refused, pointing to SSO.
    const otherContext = await browser.newContext()
    const other = await otherContext.newPage()
    await other.goto(urlFor(host, '/auth/login'))
    await waitForHydration(other)
    await other.getByLabel('Email').fill(`ana.saml@${domain}`)
    await other.getByLabel('Password').fill('any-password-1')
    await other.getByRole('button', { name: 'Sign In' }).click()
    await expect(
      other.getByText(`Addresses at ${domain} sign in with single sign-on.`, { exact: false }),
    ).toBeVisible()
    await otherContext.close()
  } finally {
    await idp.close()
    await context.close()
  }
})
