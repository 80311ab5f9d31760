// Directory fields on cards (issue 42 point 3, ADR 089): the fields an agency admin mapped follow
// what the directory says about the person. A directory change is written to each of the
// person's cards through the template rule module, so a field the card's template locks keeps
// the template's value, and the database's triggers drop the cached pages and queue the wallet
// passes' refresh exactly as the owner's own edit does.

import type { Actor } from '#app/auth/guards.server'
import { recordOrganizationAudit } from '#app/models/audit.server'
import { listOwnerCards } from '#app/models/card-templates.server'
import type { CardFields } from '#app/models/cards.server'
import { listDirectoryManagedUsers } from '#app/models/directory.server'
import {
  getOrganizationPreferences,
  saveOrganizationPreferences,
} from '#app/models/organization-settings.server'
import { writeCardUnderTemplate } from '#app/templates/template-locks.server'
import {
  cardValuesOf,
  type DirectoryCardField,
  type DirectoryFields,
  readDirectoryCardFields,
  readDirectoryFields,
} from '#app/validation/scim'
import { type Transaction, withTenant } from '#drizzle/db.server'

export async function readMappedCardFields(tx: Transaction, organizationId: string) {
  return readDirectoryCardFields(
    (await getOrganizationPreferences(tx, organizationId)).scimCardFields,
  )
}

/**
 * Saves which card fields follow the directory, and brings the cards of everybody the directory
 * manages to it at once, in the same transaction: nobody waits for their next directory change.
 */
export async function setMappedCardFields(admin: Actor, fields: DirectoryCardField[]) {
  const organizationId = admin.tenant.id
  const cards = await withTenant(organizationId, async (tx) => {
    await saveOrganizationPreferences(tx, organizationId, { scimCardFields: fields })
    let written = 0
    for (const person of await listDirectoryManagedUsers(tx, organizationId)) {
      const done = await cardsFollowDirectory(
        tx,
        organizationId,
        person.id,
        readDirectoryFields(person.directory),
      )
      written += done?.cards.length ?? 0
    }
    await recordOrganizationAudit(tx, organizationId, admin.user.id, 'scim.card_fields_set', {
      fields,
      cardsUpdated: written,
    })
    return written
  })
  if (!fields.length) return 'Saved: cards follow no directory field'
  return cards === 0
    ? 'Saved: every card already matches the directory'
    : `Saved: ${cards === 1 ? '1 card follows' : `${cards} cards follow`} the directory now`
}

/**
 * Writes the mapped fields of the person's cards that differ from the directory. Returns the
 * ids of the cards written and the fields a template kept.
 */
export async function cardsFollowDirectory(
  tx: Transaction,
  organizationId: string,
  userId: string,
  directory: DirectoryFields,
) {
  const mapped = await readMappedCardFields(tx, organizationId)
  if (mapped.length === 0) return null
  const wanted: CardFields = cardValuesOf(directory, mapped)
  const written: string[] = []
  const kept = new Set<string>()
  for (const { card } of await listOwnerCards(tx, organizationId, userId)) {
    const changes = Object.fromEntries(
      Object.entries(wanted).filter(
        ([column, value]) => card[column as keyof CardFields] !== value,
      ),
    ) as CardFields
    if (Object.keys(changes).length === 0) continue
    const done = await writeCardUnderTemplate(tx, organizationId, userId, card.id, {
      fields: changes,
    })
    if (!done) continue
    written.push(card.id)
    for (const field of done.kept) kept.add(field)
  }
  return written.length
    ? { cards: written, ...(kept.size ? { keptByTemplate: [...kept] } : {}) }
    : null
}
