import { describe, expect, test } from 'vitest'
import { SHARED_IMAGE_CACHE_CONTROL } from '#app/media/shared-cache'
import { loader as rootLoader } from '#app/root'
import { loader as mediaLoader } from '#app/routes/media.$file'
import { contextFor, makeBrandedOrganization, requestFor, toResponse } from '#tests/factories'

async function rootData(host: string) {
  const response = toResponse(
    await rootLoader({
      request: requestFor(host),
      context: contextFor(host),
      params: {},
    }),
  )
  return response.json()
}

describe('root loader branding', () => {
  test('each tenant gets its own name, colours, logo and favicon', async () => {
    const a = await makeBrandedOrganization({ name: 'Alpha', primaryColor: '#e11d48' })
    const b = await makeBrandedOrganization({
      name: 'Beta',
      primaryColor: '#7c3aed',
      secondaryColor: '#22c55e',
    })
    const dataA = await rootData(`${a.organization.slug}.localhost`)
    const dataB = await rootData(`${b.organization.slug}.localhost`)
    expect(dataA.branding).toMatchObject({
      name: 'Alpha',
      primaryColor: '#e11d48',
      logoUrl: `/media/${a.logo.hash}.png`,
      faviconUrl: `/media/${a.favicon.hash}.png`,
    })
    expect(dataB.branding).toMatchObject({
      name: 'Beta',
      primaryColor: '#7c3aed',
      secondaryColor: '#22c55e',
      logoUrl: `/media/${b.logo.hash}.png`,
    })
    expect(dataA.year).toBe(new Date().getFullYear())
  })

  test('an unknown host gets the plain 404 site error', async () => {
    const error = await rootData('nobody.localhost').catch((e) => e)
    expect(error.status).toBe(404)
  })
})

describe('media route', () => {
  test('serves a tenant image to shared caches for minutes, with nosniff', async () => {
    const { organization, logo } = await makeBrandedOrganization()
    const host = `${organization.slug}.localhost`
    const response = await mediaLoader({
      request: requestFor(host, `/media/${logo.hash}.png`),
      context: contextFor(host),
      params: { file: `${logo.hash}.png` },
    })
    expect(response.status).toBe(200)
    expect(response.headers.get('Content-Type')).toBe('image/png')
    expect(response.headers.get('Cache-Control')).toBe(SHARED_IMAGE_CACHE_CONTROL)
    expect(response.headers.get('X-Content-Type-Options')).toBe('nosniff')
    // Shown in signatures and emails from other origins (issue 41 point 2).
    expect(response.headers.get('Cross-Origin-Resource-Policy')).toBe('cross-origin')
    const bytes = new Uint8Array(await response.arrayBuffer())
    expect([...bytes.slice(1, 4)]).toEqual([0x50, 0x4e, 0x47]) // "PNG"
  })

  test("another tenant's media is not found on this host", async () => {
    const a = await makeBrandedOrganization({ primaryColor: '#aa0000' })
    const b = await makeBrandedOrganization({ primaryColor: '#00aa00' })
    const host = `${a.organization.slug}.localhost`
    const file = `${b.logo.hash}.png`
    const error = await mediaLoader({
      request: requestFor(host, `/media/${file}`),
      context: contextFor(host),
      params: { file },
    }).catch((e) => e)
    expect(error.status).toBe(404)
  })

  test('malformed names and wrong extensions are not found', async () => {
    const { organization, logo } = await makeBrandedOrganization()
    const host = `${organization.slug}.localhost`
    for (const file of ['../etc/passwd', `${logo.hash}.svg`, `${logo.hash}.jpg`, 'x.png']) {
      const error = await mediaLoader({
        request: requestFor(host, `/media/${file}`),
        context: contextFor(host),
        params: { file },
      }).catch((e) => e)
      expect(error.status).toBe(404)
    }
  })
})
