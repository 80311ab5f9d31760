// Apple Wallet passes and the devices registered for their updates (issue 29, ADR 042).
import { and, eq, gt, ne, type SQL, sql } from 'drizzle-orm'
import type { Queryable } from '#drizzle/db.server'
import { digitalCards, walletPasses, walletRegistrations } from '#drizzle/schema'
import { type CardChangeScope, cardOfRow, inCardChangeScope } from './card-change-scope.server'
import { tenantJoin } from './tenant-join.server'

export type WalletPass = typeof walletPasses.$inferSelect

/** One pass of the organization, narrowed by `more` (the version it must or must not be). */
const passById = (organizationId: string, passId: string, ...more: SQL[]) =>
  and(eq(walletPasses.organizationId, organizationId), eq(walletPasses.id, passId), ...more)

/** The organization's registrations for a pass: every device's, or one device's. */
const registrationsOf = (organizationId: string, passId: string, deviceLibraryId?: string) =>
  and(
    eq(walletRegistrations.organizationId, organizationId),
    eq(walletRegistrations.passId, passId),
    deviceLibraryId === undefined
      ? undefined
      : eq(walletRegistrations.deviceLibraryId, deviceLibraryId),
  )

/**
 * The pass of this card for this viewer (null: anyone signed out), made on first use with the
 * content it is handed out with.
 */
export async function findOrCreateWalletPass(
  db: Queryable,
  organizationId: string,
  cardId: string,
  viewerId: string | null,
  contentHash: string,
): Promise<WalletPass> {
  const find = async () => {
    const [row] = await db
      .select()
      .from(walletPasses)
      .where(
        and(
          eq(walletPasses.organizationId, organizationId),
          eq(walletPasses.cardId, cardId),
          viewerId === null
            ? sql`${walletPasses.viewerId} is null`
            : eq(walletPasses.viewerId, viewerId),
        ),
      )
    return row
  }
  const existing = await find()
  if (existing) return existing
  const [created] = await db
    .insert(walletPasses)
    .values({ organizationId, cardId, viewerId, contentHash })
    .onConflictDoNothing()
    .returning()
  // Made by a request that ran at the same moment: theirs.
  const row = created ?? (await find())
  if (!row) throw new Error('wallet pass neither inserted nor found')
  return row
}

export async function findWalletPass(db: Queryable, organizationId: string, passId: string) {
  const [row] = await db.select().from(walletPasses).where(passById(organizationId, passId))
  return row
}

/** The passes a change may concern: of one card, of one owner's cards, or the organization's. */
export async function listWalletPasses(
  db: Queryable,
  organizationId: string,
  scope: CardChangeScope,
) {
  const rows = await db
    .select({ pass: walletPasses })
    .from(walletPasses)
    .innerJoin(digitalCards, cardOfRow(walletPasses))
    .where(
      and(eq(walletPasses.organizationId, organizationId), inCardChangeScope(walletPasses, scope)),
    )
  return rows.map((row) => row.pass)
}

/**
 * Records what the pass shows now. A different hash makes it a new version: its time moves to
 * this second, or one past its last one (a device that fetched it in the same second, with
 * that second as If-Modified-Since, must still see the change), and its devices are owed a
 * push. Answers the pass as changed, or undefined when nothing changed.
 */
export async function recordWalletPassContent(
  db: Queryable,
  organizationId: string,
  passId: string,
  contentHash: string,
) {
  const [row] = await db
    .update(walletPasses)
    .set({
      contentHash,
      updatedAt: sql`greatest(date_trunc('second', now()), ${walletPasses.updatedAt} + interval '1 second')`,
      pushPending: true,
    })
    .where(passById(organizationId, passId, ne(walletPasses.contentHash, contentHash)))
    .returning()
  return row
}

/** Every device was told of this version; a newer one written meanwhile stays owed. */
export async function markWalletPassPushed(
  db: Queryable,
  organizationId: string,
  passId: string,
  version: Date,
) {
  await db
    .update(walletPasses)
    .set({ pushPending: false })
    .where(passById(organizationId, passId, eq(walletPasses.updatedAt, version)))
}

/** A device asks for a pass's updates: 'created' the first time, else its push token is kept current. */
export async function registerWalletDevice(
  db: Queryable,
  organizationId: string,
  passId: string,
  deviceLibraryId: string,
  pushToken: string,
): Promise<'created' | 'existing'> {
  const updated = await db
    .update(walletRegistrations)
    .set({ pushToken })
    .where(registrationsOf(organizationId, passId, deviceLibraryId))
    .returning({ id: walletRegistrations.id })
  if (updated.length > 0) return 'existing'
  const created = await db
    .insert(walletRegistrations)
    .values({ organizationId, passId, deviceLibraryId, pushToken })
    .onConflictDoNothing()
    .returning({ id: walletRegistrations.id })
  // A registration of the same device that came in at the same moment: already there.
  return created.length > 0 ? 'created' : 'existing'
}

export async function unregisterWalletDevice(
  db: Queryable,
  organizationId: string,
  passId: string,
  deviceLibraryId: string,
) {
  const rows = await db
    .delete(walletRegistrations)
    .where(registrationsOf(organizationId, passId, deviceLibraryId))
    .returning({ id: walletRegistrations.id })
  return rows.length > 0
}

/** The passes a device registered for, changed after `since` (all of them without). */
export async function listDevicePassesUpdatedSince(
  db: Queryable,
  organizationId: string,
  deviceLibraryId: string,
  since: Date | null,
) {
  return db
    .select({ id: walletPasses.id, updatedAt: walletPasses.updatedAt })
    .from(walletRegistrations)
    .innerJoin(
      walletPasses,
      tenantJoin(walletPasses, walletRegistrations, walletPasses.id, walletRegistrations.passId),
    )
    .where(
      and(
        eq(walletRegistrations.organizationId, organizationId),
        eq(walletRegistrations.deviceLibraryId, deviceLibraryId),
        since ? gt(walletPasses.updatedAt, since) : undefined,
      ),
    )
}

export async function listPassPushTokens(db: Queryable, organizationId: string, passId: string) {
  const rows = await db
    .selectDistinct({ pushToken: walletRegistrations.pushToken })
    .from(walletRegistrations)
    .where(registrationsOf(organizationId, passId))
  return rows.map((row) => row.pushToken)
}

/** APNs answered that this token no longer reaches a device: its registrations go. */
export async function forgetPushToken(db: Queryable, organizationId: string, pushToken: string) {
  await db
    .delete(walletRegistrations)
    .where(
      and(
        eq(walletRegistrations.organizationId, organizationId),
        eq(walletRegistrations.pushToken, pushToken),
      ),
    )
}
