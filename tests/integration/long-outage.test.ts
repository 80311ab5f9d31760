// A database outage longer than the in-process caches last (issue 26 point 12): the maintenance
// check that runs before Remix never lets the outage escape as an error (Express answered a bare
// 500 once the cached platform settings expired, health check included), and a host served
// before the outage keeps its tenant, so its pages stay branded. Short TTLs stand in for time.
import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest'
import { resetEnvForTests } from '#app/env.server'
import { savePlatformSettings } from '#app/models/platform-settings.server'
import { loader as rootLoader } from '#app/root'
import { loader as healthLoader } from '#app/routes/api.health-check'
import { maintenanceResponse } from '#app/settings/maintenance.server'
import { invalidatePlatformSettings } from '#app/tenancy/platform-settings-cache.server'
import { resolveTenant } from '#app/tenancy/tenant.server'
import { getDb } from '#drizzle/db.server'
import {
  contextFor,
  makeOrganization,
  requestFor,
  toResponse,
  withUnreachableDatabase,
} from '#tests/factories'

const TTL_MS = 50
const pastTheTtl = () => new Promise((resolve) => setTimeout(resolve, TTL_MS * 2))

beforeAll(() => {
  process.env.TENANT_CACHE_TTL_MS = String(TTL_MS)
  resetEnvForTests()
})

afterAll(() => {
  delete process.env.TENANT_CACHE_TTL_MS
  resetEnvForTests()
})

beforeEach(async () => {
  await savePlatformSettings(getDb(), { maintenanceMode: false })
  invalidatePlatformSettings()
})

async function servedBeforeTheOutage() {
  const organization = await makeOrganization({ name: 'Outlast Co' })
  const host = `${organization.slug}.localhost`
  expect(await maintenanceResponse(host, '/', null)).toBeNull()
  expect((await resolveTenant(host)).status).toBe('found')
  return { organization, host }
}

const health = async (host: string) =>
  (await healthLoader({
    request: requestFor(host, '/api/health-check'),
    context: contextFor(host),
    params: {},
  })) as Response

test('past every TTL: the maintenance check lets the health check and pages through, which answer 503 or stay branded', async () => {
  const { host } = await servedBeforeTheOutage()
  await withUnreachableDatabase(async () => {
    await pastTheTtl()
    expect(await maintenanceResponse(host, '/api/health-check', null)).toBeNull()
    expect((await health(host)).status).toBe(503)
    expect(await maintenanceResponse(host, '/card/some-one', null)).toBeNull()
    // The home page of a host known before the outage renders with its brand (its banner asks
    // the health check), rather than turning into an error page once the TTL has passed.
    const home = toResponse(
      await rootLoader({
        request: requestFor(host, '/'),
        context: contextFor(host),
        params: {},
      }),
    )
    expect(home.status).toBe(200)
    expect(((await home.json()) as { branding: { name: string } }).branding.name).toBe('Outlast Co')
  })
})

test('maintenance on when the database went away: still the maintenance page, with the tenant name', async () => {
  await savePlatformSettings(getDb(), { maintenanceMode: true })
  invalidatePlatformSettings()
  const organization = await makeOrganization({ name: 'Paused Co' })
  const host = `${organization.slug}.localhost`
  expect((await maintenanceResponse(host, '/', null))?.status).toBe(503)
  await withUnreachableDatabase(async () => {
    await pastTheTtl()
    // A session cookie makes it resolve the tenant (is a super admin signed in?) past its TTL.
    const cookie = `session=${'a'.repeat(32)}`
    const page = await maintenanceResponse(host, '/dashboard', cookie)
    expect(page?.status).toBe(503)
    expect(await page?.text()).toContain('Paused Co is being updated')
    expect(await maintenanceResponse(host, '/api/health-check', cookie)).toBeNull()
  })
})

test('a process that never read the settings before the outage leaves every request to Remix', async () => {
  const organization = await makeOrganization()
  await withUnreachableDatabase(async () => {
    expect(await maintenanceResponse(`${organization.slug}.localhost`, '/', null)).toBeNull()
    expect(await maintenanceResponse('localhost', '/api/health-check', null)).toBeNull()
  })
})
