// The one rule module every card write passes through (issue 31 point 1, ADR 048). It is the
// only module in app/ that calls the card model's writers (createCard, updateCard,
// replaceCardLinks, setCardBackground): tests/integration/card-template-locks.test.ts reads the
// code and fails on another caller, and on a module that writes through here without a case.
//
// A card that follows a template keeps the template's value in every locked field, whatever a
// form sent (the value is replaced and the caller told which fields were kept); a required field
// may not be emptied (refused next to its field); a free field is the card's own. A template's
// change reaches its cards through the same writers, in the change's transaction, so the
// database's triggers drop the cached card pages (0008) and queue the wallet passes' refresh
// (0019, 0020) exactly as an owner's edit does.
import {
  type CardTemplate,
  findTemplateForUser,
  findTemplateOfCard,
  listOwnerCards,
  setCardsTemplate,
} from '#app/models/card-templates.server'
import {
  type CardFields,
  createCard,
  type DigitalCard,
  type NewCard,
  replaceCardLinks,
  setCardBackground,
  updateCard,
} from '#app/models/cards.server'
import { getOrganizationPreferences } from '#app/models/organization-settings.server'
import { findOrganizationBranding } from '#app/models/organizations.server'
import { findUserById } from '#app/models/users.server'
import { Refusal } from '#app/utils/action-error'
import type { Background } from '#app/validation/card-background'
import type { CardLinkInput } from '#app/validation/card-details'
import {
  lockedFieldsOf,
  modesOf,
  requiredMessage,
  storedLinks,
  TEMPLATE_FIELDS,
  type TemplateField,
  type TemplateModes,
  type TemplateTexts,
} from '#app/validation/card-templates'
import {
  cardValuesOf,
  type DirectoryCardField,
  type DirectoryCardValues,
  readDirectoryCardFields,
  readDirectoryFields,
} from '#app/validation/scim'
import { emitCardUpdated } from '#app/webhooks/webhook-events.server'
import type { Queryable } from '#drizzle/db.server'

/** The card columns each field of a template covers (links and background are their own). */
const COLUMNS = {
  logo: ['logoMediaId'],
  company: ['company'],
  website: ['website'],
  address: ['addressStreet', 'addressCity', 'addressRegion', 'addressPostalCode', 'addressCountry'],
} as const satisfies Partial<Record<TemplateField, readonly (keyof CardFields)[]>>
type ColumnField = keyof typeof COLUMNS
const COLUMN_FIELDS = Object.keys(COLUMNS) as ColumnField[]

/** Where a refusal about a field is shown in the forms. */
const FORM_FIELD: Record<TemplateField, string> = {
  background: 'background',
  logo: 'logo',
  company: 'company',
  website: 'website',
  address: 'addressStreet',
  links: 'links',
}

/** A template as the rules read it: its modes, its values as card columns, its links. */
export type TemplateRule = {
  template: CardTemplate
  modes: TemplateModes
  columns: Required<Pick<CardFields, (typeof COLUMNS)[ColumnField][number]>>
  links: CardLinkInput[]
  background: { kind: 'color' | 'gradient' | 'image'; value: string }
}

/** The texts a template puts on its cards: the company, the website and the address. */
export function templateTexts(template: CardTemplate): TemplateTexts {
  return {
    company: template.company,
    website: template.website,
    addressStreet: template.addressStreet,
    addressCity: template.addressCity,
    addressRegion: template.addressRegion,
    addressPostalCode: template.addressPostalCode,
    addressCountry: template.addressCountry,
  }
}

export async function ruleOf(
  db: Queryable,
  organizationId: string,
  template: CardTemplate,
): Promise<TemplateRule> {
  const agencyLogo = template.useAgencyLogo
    ? ((await findOrganizationBranding(db, organizationId))?.logoMediaId ?? null)
    : null
  return {
    template,
    modes: modesOf(template.modes),
    columns: {
      logoMediaId: agencyLogo,
      ...templateTexts(template),
    },
    links: storedLinks(template.links),
    background: { kind: template.backgroundKind, value: template.backgroundValue },
  }
}

const sameLinks = (a: readonly CardLinkInput[], b: readonly CardLinkInput[]) =>
  a.length === b.length &&
  a.every((link, i) => {
    const other = b[i]
    return other?.kind === link.kind && other.label === link.label && other.url === link.url
  })

const isEmpty = (value: unknown) => value === null || value === undefined || value === ''

/**
 * Which of a card's fields stray from its template: a locked field with another value, or a
 * required field left empty. What the templates page lists and "Reset to template" repairs.
 */
export function deviationsOf(
  rule: TemplateRule,
  card: DigitalCard,
  links: readonly CardLinkInput[],
): TemplateField[] {
  return TEMPLATE_FIELDS.filter((field) => {
    const mode = rule.modes[field]
    if (mode === 'free') return false
    if (field === 'links') {
      return mode === 'locked' ? !sameLinks(links, rule.links) : links.length === 0
    }
    if (field === 'background') {
      return (
        mode === 'locked' &&
        (card.backgroundKind !== rule.background.kind ||
          card.backgroundValue !== rule.background.value)
      )
    }
    const columns = COLUMNS[field]
    if (mode === 'locked') return columns.some((column) => card[column] !== rule.columns[column])
    return columns.every((column) => isEmpty(card[column]))
  })
}

/** A card write: any of its fields, its links, its background. */
export type CardWrite = { fields?: CardFields; links?: CardLinkInput[]; background?: Background }

/**
 * The write as the template lets it through: locked fields replaced by the template's values
 * (and named in `kept` when the write asked for something else), a required field emptied
 * refused with its message.
 */
function underRule(rule: TemplateRule, write: CardWrite) {
  const kept: TemplateField[] = []
  const fields: CardFields | undefined = write.fields ? { ...write.fields } : undefined
  let links = write.links
  let background = write.background
  for (const field of COLUMN_FIELDS) {
    const mode = rule.modes[field]
    const columns = COLUMNS[field]
    if (!fields || !columns.some((column) => column in fields)) continue
    if (mode === 'locked') {
      if (columns.some((column) => column in fields && fields[column] !== rule.columns[column])) {
        kept.push(field)
      }
      for (const column of columns) Object.assign(fields, { [column]: rule.columns[column] })
    } else if (mode === 'required' && columns.every((column) => isEmpty(fields[column]))) {
      throw new Refusal('invalid', requiredMessage(field), { field: FORM_FIELD[field] })
    }
  }
  if (links) {
    if (rule.modes.links === 'locked') {
      if (!sameLinks(links, rule.links)) kept.push('links')
      links = rule.links
    } else if (rule.modes.links === 'required' && links.length === 0) {
      throw new Refusal('invalid', requiredMessage('links'), { field: FORM_FIELD.links })
    }
  }
  if (background && rule.modes.background === 'locked') {
    const asked = background
    const same =
      asked.kind === rule.background.kind &&
      asked.kind !== 'image' &&
      asked.value === rule.background.value
    if (!same) kept.push('background')
    background = templateBackground(rule)
  }
  return { fields, links, background, kept }
}

function templateBackground(rule: TemplateRule): Background {
  return rule.background.kind === 'gradient'
    ? ({ kind: 'gradient', value: rule.background.value } as Background)
    : ({ kind: 'color', value: rule.background.value } as Background)
}

/**
 * Creates a card under the template that applies to its owner (their team's, else the agency's
 * default): locked fields take the template's values, the others start with the template's
 * where the new card has none. The card follows the template from then on.
 */
export async function createCardUnderTemplate(
  db: Queryable,
  organizationId: string,
  userId: string,
  newCard: NewCard,
  links: CardLinkInput[] = [],
) {
  // A new card of a person the directory manages starts with what the directory holds.
  const input: NewCard = {
    ...newCard,
    ...(await directoryHeldValues(db, organizationId, userId)).values,
  }
  const template = await findTemplateForUser(db, organizationId, userId)
  if (!template) {
    const card = await createCard(db, organizationId, userId, input)
    if (links.length > 0) await replaceCardLinks(db, organizationId, userId, card.id, links)
    return card
  }
  const rule = await ruleOf(db, organizationId, template)
  const values: NewCard = { ...input, templateId: template.id }
  for (const field of COLUMN_FIELDS) {
    const columns = COLUMNS[field]
    const locked = rule.modes[field] === 'locked'
    const blank = columns.every((column) => isEmpty(values[column]))
    if (locked || blank) {
      for (const column of columns) Object.assign(values, { [column]: rule.columns[column] })
    }
  }
  // A new card without a background of its own (a duplicate of the profile) takes the template's.
  if (rule.modes.background === 'locked' || input.backgroundKind === undefined) {
    values.backgroundKind = rule.background.kind
    values.backgroundValue = rule.background.value
    values.backgroundMediaId = null
  }
  const cardLinks = rule.modes.links === 'locked' || links.length === 0 ? rule.links : links
  const card = await createCard(db, organizationId, userId, values)
  if (cardLinks.length > 0) await replaceCardLinks(db, organizationId, userId, card.id, cardLinks)
  return card
}

/**
 * Writes an owned card under its template. Undefined when the card is not this user's own in
 * this organization (nothing written); otherwise the card and the locked fields that were kept.
 */
export async function writeCardUnderTemplate(
  db: Queryable,
  organizationId: string,
  userId: string,
  cardId: string,
  write: CardWrite,
): Promise<{ card: DigitalCard; kept: TemplateField[]; heldByDirectory: string[] } | undefined> {
  const template = await findTemplateOfCard(db, organizationId, cardId)
  const held = await underDirectory(db, organizationId, userId, write)
  const allowed = template
    ? underRule(await ruleOf(db, organizationId, template), held.write)
    : { ...held.write, kept: [] as TemplateField[] }
  const written = await writeCard(db, organizationId, userId, cardId, allowed)
  return written && { ...written, heldByDirectory: held.columns }
}

/**
 * Directory fields on cards (issue 42 point 3, ADR 089): for a person the agency's directory
 * manages (an external id, not deleted), the card fields the agency maps and the values the
 * directory holds for them. None for anybody else.
 */
export async function directoryHeldValues(
  db: Queryable,
  organizationId: string,
  userId: string,
): Promise<{ fields: DirectoryCardField[]; values: DirectoryCardValues }> {
  const mapped = readDirectoryCardFields(
    (await getOrganizationPreferences(db, organizationId)).scimCardFields,
  )
  if (mapped.length === 0) return { fields: [], values: {} }
  const owner = await findUserById(db, organizationId, userId)
  const directory = readDirectoryFields(owner?.directory)
  if (!owner?.externalId || directory.deletedAt) return { fields: [], values: {} }
  return { fields: mapped, values: cardValuesOf(directory, mapped) }
}

/**
 * The directory's values win over whatever a form sent for the fields it holds; the template's
 * locks still apply after (a locked field is the template's). Returns the write and the columns
 * that were held.
 */
async function underDirectory(
  db: Queryable,
  organizationId: string,
  userId: string,
  write: CardWrite,
): Promise<{ write: CardWrite; columns: string[] }> {
  if (!write.fields) return { write, columns: [] }
  const { values } = await directoryHeldValues(db, organizationId, userId)
  const fields: CardFields = { ...write.fields }
  const columns: string[] = []
  for (const [column, value] of Object.entries(values)) {
    if (!(column in fields)) continue
    if (fields[column as keyof CardFields] !== value) columns.push(column)
    Object.assign(fields, { [column]: value })
  }
  return { write: { ...write, fields }, columns }
}

async function writeCard(
  db: Queryable,
  organizationId: string,
  userId: string,
  cardId: string,
  { fields, links, background, kept }: CardWrite & { kept: TemplateField[] },
) {
  // The row is updated (its updated_at at least) even with no field, so its owner is checked
  // and the change announced before links follow.
  const card = await updateCard(db, organizationId, userId, cardId, fields ?? {})
  if (!card) return undefined
  if (links) await replaceCardLinks(db, organizationId, userId, cardId, links)
  const written = background
    ? await setCardBackground(db, organizationId, userId, cardId, background)
    : card
  // Every card write passes here: card.updated for the agency's webhooks, in its transaction.
  await emitCardUpdated(db, organizationId, written ?? card)
  return { card: written ?? card, kept }
}

/**
 * Brings cards of a template back to it: every locked field takes the template's value. Each
 * card is written through the owner's own writers (the same triggers, the same refreshes);
 * only the cards that stray are written. Returns how many changed.
 */
export async function bringCardsToTemplate(
  db: Queryable,
  organizationId: string,
  rule: TemplateRule,
  cards: readonly { card: DigitalCard; links: readonly CardLinkInput[] }[],
) {
  const locked = lockedFieldsOf(rule.modes)
  let changed = 0
  for (const { card, links } of cards) {
    const stray = deviationsOf(rule, card, links).filter((field) => locked.includes(field))
    if (stray.length === 0) continue
    const fields: CardFields = {}
    for (const field of COLUMN_FIELDS) {
      if (!stray.includes(field)) continue
      for (const column of COLUMNS[field]) Object.assign(fields, { [column]: rule.columns[column] })
    }
    await writeCard(db, organizationId, card.userId, card.id, {
      fields,
      links: stray.includes('links') ? rule.links : undefined,
      background: stray.includes('background') ? templateBackground(rule) : undefined,
      kept: [],
    })
    changed += 1
  }
  return changed
}

/**
 * Someone joined a team (an invitation accepted, an admin's direct add, a team created): their
 * cards now follow the template that applies to them, the team's, else the agency's default
 * (`findTemplateForUser`, the same choice a new card makes), and take its locked values through
 * the owner's writers, as "Apply" does. Cards already following it are left alone; without a
 * template nothing changes. Run in the transaction that adds the membership. How many cards
 * moved to the template.
 */
export async function followTemplateOnJoining(
  db: Queryable,
  organizationId: string,
  userId: string,
) {
  const template = await findTemplateForUser(db, organizationId, userId)
  if (!template) return 0
  const moving = (await listOwnerCards(db, organizationId, userId)).filter(
    (row) => row.card.templateId !== template.id,
  )
  if (moving.length === 0) return 0
  await setCardsTemplate(
    db,
    organizationId,
    moving.map((row) => row.card.id),
    template.id,
  )
  const rule = await ruleOf(db, organizationId, template)
  await bringCardsToTemplate(
    db,
    organizationId,
    rule,
    moving.map((row) => ({
      card: { ...row.card, templateId: template.id },
      links: storedLinks(row.links),
    })),
  )
  return moving.length
}

/** What the card editor shows read only: the locked fields of the card's template, if any. */
export async function lockedFieldsOfCard(db: Queryable, organizationId: string, cardId: string) {
  const template = await findTemplateOfCard(db, organizationId, cardId)
  return template ? lockedFieldsOf(modesOf(template.modes)) : []
}
