// An agency's card templates (issue 31 point 1, ADR 048) and which cards follow them. Every
// function takes the organization and runs inside withTenant; the rules that apply a template to
// a card are app/templates/template-locks.server.ts's.
import { and, asc, eq, inArray, sql } from 'drizzle-orm'
import { isUuid } from '#app/models/cards.server'
import type { Queryable } from '#drizzle/db.server'
import { cardLinks, cardTemplates, digitalCards, teamMembers, teams, users } from '#drizzle/schema'
import { tenantJoin } from './tenant-join.server'

export type CardTemplate = typeof cardTemplates.$inferSelect
export type TemplateWrite = Omit<
  typeof cardTemplates.$inferInsert,
  'id' | 'organizationId' | 'createdAt' | 'updatedAt'
>

/** The roles whose cards a template covers: the agency's customers, never its staff. */
export const TEMPLATE_ROLES = ['end_user', 'team_admin'] as const

export function listTemplates(db: Queryable, organizationId: string) {
  return db
    .select({ template: cardTemplates, teamName: teams.name })
    .from(cardTemplates)
    .leftJoin(teams, tenantJoin(teams, cardTemplates, teams.id, cardTemplates.teamId))
    .where(eq(cardTemplates.organizationId, organizationId))
    .orderBy(sql`${cardTemplates.teamId} is not null`, asc(cardTemplates.createdAt))
}

export async function findTemplate(db: Queryable, organizationId: string, templateId: string) {
  if (!isUuid(templateId)) return undefined
  const [row] = await db
    .select()
    .from(cardTemplates)
    .where(and(eq(cardTemplates.organizationId, organizationId), eq(cardTemplates.id, templateId)))
  return row
}

/** Whether a team is this organization's (a template may only name one of its own). */
export async function organizationHasTeam(db: Queryable, organizationId: string, teamId: string) {
  const [row] = await db
    .select({ id: teams.id })
    .from(teams)
    .where(and(eq(teams.organizationId, organizationId), eq(teams.id, teamId)))
  return row !== undefined
}

export async function insertTemplate(db: Queryable, organizationId: string, values: TemplateWrite) {
  const [row] = await db
    .insert(cardTemplates)
    .values({ ...values, organizationId })
    .returning()
  if (!row) throw new Error('template insert returned nothing')
  return row
}

export async function updateTemplate(
  db: Queryable,
  organizationId: string,
  templateId: string,
  values: TemplateWrite,
) {
  if (!isUuid(templateId)) return undefined
  const [row] = await db
    .update(cardTemplates)
    .set({ ...values, updatedAt: new Date() })
    .where(and(eq(cardTemplates.organizationId, organizationId), eq(cardTemplates.id, templateId)))
    .returning()
  return row
}

/** Deletes a template; its cards keep their values and follow none (migration 0024). */
export async function deleteTemplate(db: Queryable, organizationId: string, templateId: string) {
  if (!isUuid(templateId)) return undefined
  const [row] = await db
    .delete(cardTemplates)
    .where(and(eq(cardTemplates.organizationId, organizationId), eq(cardTemplates.id, templateId)))
    .returning({ id: cardTemplates.id, name: cardTemplates.name })
  return row
}

/**
 * The template that applies to a person's new cards: their teams' template (the oldest, when
 * several of their teams have one), else the agency's default; none for staff roles.
 */
export async function findTemplateForUser(db: Queryable, organizationId: string, userId: string) {
  const [row] = await db
    .select({ template: cardTemplates })
    .from(users)
    .innerJoin(cardTemplates, eq(cardTemplates.organizationId, users.organizationId))
    .leftJoin(
      teamMembers,
      tenantJoin(
        teamMembers,
        cardTemplates,
        teamMembers.teamId,
        cardTemplates.teamId,
        eq(teamMembers.userId, users.id),
      ),
    )
    .where(
      and(
        eq(users.organizationId, organizationId),
        eq(users.id, userId),
        inArray(users.role, TEMPLATE_ROLES),
        sql`(${cardTemplates.teamId} is null or ${teamMembers.id} is not null)`,
      ),
    )
    .orderBy(sql`${cardTemplates.teamId} is null`, asc(cardTemplates.createdAt))
    .limit(1)
  return row?.template
}

/** The template that follows from a card owner's teams, as SQL over `users`. */
function applicableTemplateId(organizationId: string) {
  return sql`coalesce(
    (select t.id from ${cardTemplates} t
      join ${teamMembers} m on m.organization_id = t.organization_id and m.team_id = t.team_id
      where t.organization_id = ${organizationId} and m.user_id = ${users.id}
      order by t.created_at limit 1),
    (select t.id from ${cardTemplates} t
      where t.organization_id = ${organizationId} and t.team_id is null))`
}

/** Cards of the people a template applies to that do not follow it yet ("apply" picks these). */
export function listCardsToApply(db: Queryable, organizationId: string, templateId: string) {
  return db
    .select({ id: digitalCards.id, userId: digitalCards.userId })
    .from(digitalCards)
    .innerJoin(users, tenantJoin(users, digitalCards, users.id, digitalCards.userId))
    .where(
      and(
        eq(digitalCards.organizationId, organizationId),
        inArray(users.role, TEMPLATE_ROLES),
        sql`${digitalCards.templateId} is distinct from ${templateId}`,
        sql`${applicableTemplateId(organizationId)} = ${templateId}`,
      ),
    )
    .orderBy(asc(digitalCards.createdAt))
}

/** Marks cards as following a template (null: none). */
export async function setCardsTemplate(
  db: Queryable,
  organizationId: string,
  cardIds: string[],
  templateId: string | null,
) {
  if (cardIds.length === 0) return 0
  const rows = await db
    .update(digitalCards)
    .set({ templateId })
    .where(and(eq(digitalCards.organizationId, organizationId), inArray(digitalCards.id, cardIds)))
    .returning({ id: digitalCards.id })
  return rows.length
}

/** A card's links in order, as a JSON list read with the card. */
const linksOfCard = sql<{ kind: string; label: string; url: string }[]>`coalesce((
  select json_agg(json_build_object('kind', ${cardLinks.kind}, 'label', ${cardLinks.label}, 'url', ${cardLinks.url}) order by ${cardLinks.position})
  from ${cardLinks}
  where ${cardLinks.organizationId} = ${digitalCards.organizationId} and ${cardLinks.cardId} = ${digitalCards.id}
), '[]'::json)`

/** One person's cards with their links: what joining a team brings under its template. */
export function listOwnerCards(db: Queryable, organizationId: string, userId: string) {
  return db
    .select({ card: digitalCards, links: linksOfCard })
    .from(digitalCards)
    .where(and(eq(digitalCards.organizationId, organizationId), eq(digitalCards.userId, userId)))
    .orderBy(asc(digitalCards.createdAt), asc(digitalCards.id))
}

/** The cards that follow a template, with their links and owners: what deviation compares. */
export function listTemplateCards(db: Queryable, organizationId: string, templateId: string) {
  return db
    .select({
      card: digitalCards,
      links: linksOfCard,
      ownerFirstName: users.firstName,
      ownerLastName: users.lastName,
      ownerEmail: users.email,
    })
    .from(digitalCards)
    .innerJoin(users, tenantJoin(users, digitalCards, users.id, digitalCards.userId))
    .where(
      and(eq(digitalCards.organizationId, organizationId), eq(digitalCards.templateId, templateId)),
    )
    .orderBy(asc(digitalCards.createdAt), asc(digitalCards.id))
}

/** The template a card follows, if any: the card editor's and every card write's question. */
export async function findTemplateOfCard(db: Queryable, organizationId: string, cardId: string) {
  if (!isUuid(cardId)) return undefined
  const [row] = await db
    .select({ template: cardTemplates })
    .from(digitalCards)
    .innerJoin(
      cardTemplates,
      tenantJoin(cardTemplates, digitalCards, cardTemplates.id, digitalCards.templateId),
    )
    .where(and(eq(digitalCards.organizationId, organizationId), eq(digitalCards.id, cardId)))
  return row?.template
}
