// The agency's Card Templates screen (issue 31 point 1, ADR 048): an agency admin writes the
// default template and one per team, applies a template to existing cards, sees which cards
// stray from their template and brings them back. Agency members read it. Every change to the
// cards goes through the rule module (./template-locks.server) in the change's transaction.
import { type AppLoadContext, data } from '@remix-run/node'
import type { z } from 'zod'
import { intentAction } from '#app/actions/intent-action.server'
import type { Actor } from '#app/auth/guards.server'
import { requireAgencyStaff } from '#app/auth/guards.server'
import { recordAudit } from '#app/models/audit.server'
import {
  deleteTemplate,
  findTemplate,
  insertTemplate,
  listCardsToApply,
  listTemplateCards,
  listTemplates,
  organizationHasTeam,
  setCardsTemplate,
  type TemplateWrite,
  updateTemplate,
} from '#app/models/card-templates.server'
import { findOrganizationBranding } from '#app/models/organizations.server'
import { listOrganizationTeams } from '#app/models/teams.server'
import { Refusal } from '#app/utils/action-error'
import { isUniqueViolation } from '#app/utils/db-errors.server'
import {
  modesOf,
  parseBackground,
  storedLinks,
  TEMPLATE_FIELDS,
  type TemplateField,
  TemplateIntentSchema,
  type TemplateModes,
} from '#app/validation/card-templates'
import { type Queryable, type Transaction, withTenant } from '#drizzle/db.server'
import { bringCardsToTemplate, deviationsOf, ruleOf, templateTexts } from './template-locks.server'

/** The audit row of a change the agency's staff made to a card template. */
function recordTemplateAudit(
  tx: Transaction,
  actor: Actor,
  templateId: string,
  action: string,
  metadata: Record<string, unknown>,
) {
  return recordAudit(tx, actor.tenant.id, {
    actorUserId: actor.user.id,
    action,
    entityType: 'card_template',
    entityId: templateId,
    metadata,
  })
}

export const TEMPLATES_PATH = '/dashboard/agency/templates'

const cardsText = (n: number) => `${n} ${n === 1 ? 'card' : 'cards'}`

type SaveValues = Extract<z.output<typeof TemplateIntentSchema>, { intent: 'save' }>

/** The template's cards, each with the fields in which it strays (none: it follows). */
async function cardsOfTemplate(
  tx: Queryable,
  organizationId: string,
  template: Awaited<ReturnType<typeof findTemplate>> & {},
) {
  const rule = await ruleOf(tx, organizationId, template)
  const rows = await listTemplateCards(tx, organizationId, template.id)
  return {
    rule,
    rows: rows.map((row) => {
      const links = storedLinks(row.links)
      return { ...row, links, deviations: deviationsOf(rule, row.card, links) }
    }),
  }
}

export async function templatesLoader(request: Request, context: AppLoadContext) {
  // Agency members read the screen; only the agency admin changes it.
  const actor = await requireAgencyStaff(request, context, { manage: false })
  const organizationId = actor.tenant.id
  const page = await withTenant(organizationId, async (tx) => {
    const templates = []
    for (const { template, teamName } of await listTemplates(tx, organizationId)) {
      const { rows } = await cardsOfTemplate(tx, organizationId, template)
      const toApply = await listCardsToApply(tx, organizationId, template.id)
      templates.push({
        id: template.id,
        name: template.name,
        teamId: template.teamId,
        teamName,
        background: `${template.backgroundKind}:${template.backgroundValue}`,
        useAgencyLogo: template.useAgencyLogo,
        ...templateTexts(template),
        links: storedLinks(template.links),
        modes: modesOf(template.modes),
        following: rows.length,
        toApply: toApply.length,
        deviating: rows
          .filter((row) => row.deviations.length > 0)
          .map((row) => ({
            cardId: row.card.id,
            title: row.card.title,
            owner: `${row.ownerFirstName} ${row.ownerLastName}`.trim() || row.ownerEmail,
            fields: row.deviations,
          })),
      })
    }
    return {
      templates,
      teams: (await listOrganizationTeams(tx, organizationId, 500)).map((team) => ({
        id: team.id,
        name: team.name,
      })),
      hasAgencyLogo: Boolean((await findOrganizationBranding(tx, organizationId))?.logoMediaId),
    }
  })
  return data({
    ...page,
    canManage: actor.user.role === 'agency_admin',
    brandColor: actor.tenant.primaryColor,
  })
}

export async function templatesAction(request: Request, context: AppLoadContext) {
  return intentAction(request, {
    guard: () => requireAgencyStaff(request, context, { manage: true }),
    schema: TemplateIntentSchema,
    redirectTo: TEMPLATES_PATH,
    intents: {
      save: (value, actor) => saveTemplate(actor, value),
      delete: async ({ templateId }, actor) => {
        const organizationId = actor.tenant.id
        const deleted = await withTenant(organizationId, async (tx) => {
          const row = await deleteTemplate(tx, organizationId, templateId)
          if (!row) throw new Refusal('not_found', 'Template not found')
          await recordTemplateAudit(tx, actor, templateId, 'card_template.deleted', {
            name: row.name,
          })
          return row
        })
        return {
          toast: 'Template deleted',
          description: `Cards that followed "${deleted.name}" keep their values and follow no template.`,
        }
      },
      apply: async ({ templateId }, actor) => {
        const organizationId = actor.tenant.id
        const applied = await withTenant(organizationId, async (tx) => {
          const template = await findTemplate(tx, organizationId, templateId)
          if (!template) throw new Refusal('not_found', 'Template not found')
          const cards = await listCardsToApply(tx, organizationId, templateId)
          await setCardsTemplate(
            tx,
            organizationId,
            cards.map((card) => card.id),
            templateId,
          )
          const { rule, rows } = await cardsOfTemplate(tx, organizationId, template)
          const changed = await bringCardsToTemplate(tx, organizationId, rule, rows)
          await recordTemplateAudit(tx, actor, templateId, 'card_template.applied', {
            cards: cards.length,
            changed,
          })
          return cards.length
        })
        return {
          toast: 'Template applied',
          description: `${cardsText(applied)} now follow this template.`,
        }
      },
      reset: async ({ templateId, cardId }, actor) => {
        const organizationId = actor.tenant.id
        const changed = await withTenant(organizationId, async (tx) => {
          const template = await findTemplate(tx, organizationId, templateId)
          if (!template) throw new Refusal('not_found', 'Template not found')
          const { rule, rows } = await cardsOfTemplate(tx, organizationId, template)
          const chosen = cardId ? rows.filter((row) => row.card.id === cardId) : rows
          if (cardId && chosen.length === 0) throw new Refusal('not_found', 'Card not found')
          const changed = await bringCardsToTemplate(tx, organizationId, rule, chosen)
          await recordTemplateAudit(tx, actor, templateId, 'card_template.cards_reset', {
            changed,
            ...(cardId ? { cardId } : {}),
          })
          return changed
        })
        return {
          toast: 'Reset to template',
          description: `${cardsText(changed)} brought back to the template.`,
        }
      },
    },
  })
}

function templateWrite(value: SaveValues): TemplateWrite {
  // The schema checked the swatch already; a null here cannot pass it.
  const background = parseBackground(value.background) ?? { kind: 'color', value: '#ffffff' }
  const modes = Object.fromEntries(
    TEMPLATE_FIELDS.map((field): [TemplateField, string] => [field, value[`${field}Mode`]]),
  ) as TemplateModes
  return {
    name: value.name,
    teamId: value.teamId || null,
    backgroundKind: background.kind,
    backgroundValue: background.value,
    useAgencyLogo: value.useAgencyLogo,
    company: value.company,
    website: value.website,
    addressStreet: value.addressStreet,
    addressCity: value.addressCity,
    addressRegion: value.addressRegion,
    addressPostalCode: value.addressPostalCode,
    addressCountry: value.addressCountry,
    links: value.links,
    modes,
  }
}

/**
 * Another admin took the default or the team's template between our check and our write (two
 * saves at the same instant): the unique index held, and the form says so next to the team.
 */
export const TEMPLATE_TAKEN_MEANWHILE = {
  team: 'This team got a template from someone else just now: reload the page to see it',
  default:
    'Your agency got a default template from someone else just now: reload the page to see it',
} as const

/**
 * Creates or changes a template. A change reaches the cards that follow it in the same
 * transaction: each locked field takes the new value through the card writers, so the cached
 * card pages are dropped and the wallet passes queued for a refresh as after an owner's edit.
 */
export async function saveTemplate(actor: Actor, value: SaveValues) {
  const organizationId = actor.tenant.id
  const values = templateWrite(value)
  const outcome = await withTenant(organizationId, (tx) =>
    writeTemplate(tx, actor, value, values),
  ).catch((error: unknown) => {
    if (!isUniqueViolation(error)) throw error
    throw new Refusal(
      'conflict',
      values.teamId ? TEMPLATE_TAKEN_MEANWHILE.team : TEMPLATE_TAKEN_MEANWHILE.default,
      { field: 'teamId' },
    )
  })
  return outcome.created
    ? {
        toast: 'Template created',
        description: 'New cards of the people it applies to start from it.',
      }
    : {
        toast: 'Template saved',
        description: `${cardsText(outcome.changed)} updated to follow it.`,
      }
}

/**
 * A new Branding logo reaches the cards that carry the agency's logo under a template that locks
 * it, in the branding save's transaction and through the same writers as a template's change
 * (cached pages dropped, wallet passes queued). Returns how many cards changed.
 */
export async function followBrandingLogo(tx: Queryable, organizationId: string) {
  let changed = 0
  for (const { template } of await listTemplates(tx, organizationId)) {
    if (!template.useAgencyLogo || modesOf(template.modes).logo !== 'locked') continue
    const { rule, rows } = await cardsOfTemplate(tx, organizationId, template)
    changed += await bringCardsToTemplate(tx, organizationId, rule, rows)
  }
  return changed
}

/** The save in its transaction: the checks, the write, the cards that follow, the audit. */
async function writeTemplate(
  tx: Transaction,
  actor: Actor,
  value: SaveValues,
  values: ReturnType<typeof templateWrite>,
) {
  const organizationId = actor.tenant.id
  if (values.teamId && !(await organizationHasTeam(tx, organizationId, values.teamId))) {
    throw new Refusal('invalid', 'Please choose a team', { field: 'teamId' })
  }
  // One default, one per team: the page's message rather than the unique index's error.
  const taken = (await listTemplates(tx, organizationId)).find(
    ({ template }) => template.teamId === values.teamId && template.id !== value.templateId,
  )
  if (taken) {
    throw new Refusal(
      'conflict',
      values.teamId
        ? `This team already has a template ("${taken.template.name}")`
        : `Your agency already has a default template ("${taken.template.name}")`,
      { field: 'teamId' },
    )
  }
  if (!value.templateId) {
    const created = await insertTemplate(tx, organizationId, values)
    await recordTemplateAudit(tx, actor, created.id, 'card_template.created', {
      name: created.name,
    })
    return { created: true, changed: 0 }
  }
  const updated = await updateTemplate(tx, organizationId, value.templateId, values)
  if (!updated) throw new Refusal('not_found', 'Template not found')
  const { rule, rows } = await cardsOfTemplate(tx, organizationId, updated)
  const changed = await bringCardsToTemplate(tx, organizationId, rule, rows)
  await recordTemplateAudit(tx, actor, updated.id, 'card_template.updated', {
    name: updated.name,
    cardsUpdated: changed,
  })
  return { created: false, changed }
}
