// The database e2e/request-targets.spec.ts starts its server on, loaded by the spec only when it
// runs (a dynamic import): a platform with its super admin, one agency, and maintenance mode on.
import { savePlatformSettings } from '#app/models/platform-settings.server'
import { getDb, setDatabaseHandle } from '#drizzle/db.server'
import { makeBrandedOrganization, makeUser } from '#tests/factories'
import { openMigratedPglite } from '#tests/pglite-snapshots'

export async function prepareTargetsDatabase(
  pgliteDir: string,
  { admin, agency }: { admin: { email: string; password: string }; agency: string },
) {
  const handle = await openMigratedPglite(pgliteDir)
  setDatabaseHandle(handle)
  await handle.migrate()
  const { organization: platform } = await makeBrandedOrganization({
    slug: 'platform',
    name: 'Targets Platform',
    kind: 'platform',
  })
  await makeUser(platform.id, { ...admin, role: 'super_admin' })
  await makeBrandedOrganization({ slug: agency, name: 'Acme' })
  await savePlatformSettings(getDb(), { requireTwoFactorForAdmins: false, maintenanceMode: true })
  await handle.close()
}
