// Card templates (issue 31 point 1, ADR 048): the fields a template sets, how it holds each one,
// and the one schema of the templates page's form, shared by the page and its action. The rules
// that apply a template to a card live in app/templates/template-locks.server.ts.
import { z } from 'zod'
import { GRADIENT_PRESETS, type GradientId } from '#app/validation/backgrounds'
import {
  CardExtrasSchema,
  type CardLinkInput,
  CardLinkInputSchema,
  COMPANY_MAX_LENGTH,
  COMPANY_TOO_LONG,
} from './card-details'
import { hexColorSchema } from './color'
import { websiteSchema } from './profile'
import { plainText } from './text'

/** The fields a template sets, in the page's order. */
export const TEMPLATE_FIELDS = [
  'background',
  'logo',
  'company',
  'website',
  'address',
  'links',
] as const
export type TemplateField = (typeof TEMPLATE_FIELDS)[number]

export const TEMPLATE_FIELD_LABELS: Record<TemplateField, string> = {
  background: 'Background',
  logo: 'Logo',
  company: 'Company',
  website: 'Website',
  address: 'Address',
  links: 'Links',
}

/**
 * Locked: the card shows the template's value, read only, and follows it when it changes.
 * Required: the card starts with the template's value and may change it, never to empty.
 * Free: the card starts with the template's value and may change it as it likes.
 */
export const TEMPLATE_MODES = ['locked', 'required', 'free'] as const
export type TemplateMode = (typeof TEMPLATE_MODES)[number]
export type TemplateModes = Record<TemplateField, TemplateMode>

export const TEMPLATE_MODE_LABELS: Record<TemplateMode, string> = {
  locked: 'Locked',
  required: 'Required',
  free: 'Free',
}

/** A template without a stored mode for a field leaves it free. */
export function modesOf(stored: Record<string, unknown> | null | undefined): TemplateModes {
  const modes = {} as TemplateModes
  for (const field of TEMPLATE_FIELDS) {
    const mode = stored?.[field]
    modes[field] = TEMPLATE_MODES.includes(mode as TemplateMode) ? (mode as TemplateMode) : 'free'
  }
  return modes
}

export const lockedFieldsOf = (modes: TemplateModes) =>
  TEMPLATE_FIELDS.filter((field) => modes[field] === 'locked')

/** What the card editor says beside a locked field, and a refusal names. */
export function lockedMessage(field: TemplateField) {
  return `${TEMPLATE_FIELD_LABELS[field]} is set by your organization's card template`
}

export function requiredMessage(field: TemplateField) {
  return `${TEMPLATE_FIELD_LABELS[field]} is required by your organization's card template`
}

/** What a card edit that sent locked fields is told: they were kept as the template has them. */
export function keptMessage(fields: readonly TemplateField[]) {
  const names = fields.map((field) => TEMPLATE_FIELD_LABELS[field])
  return `${names.join(', ')} ${names.length === 1 ? 'is' : 'are'} locked by your organization's card template and kept as it sets ${names.length === 1 ? 'it' : 'them'}.`
}

const gradientIds = GRADIENT_PRESETS.map((g) => g.id) as [GradientId, ...GradientId[]]
const modeField = z.enum(TEMPLATE_MODES, { error: 'Please choose locked, required or free' })
const address = CardExtrasSchema.pick({
  addressStreet: true,
  addressCity: true,
  addressRegion: true,
  addressPostalCode: true,
  addressCountry: true,
}).shape

/** The template's form (new or edited): one schema for the page's conform form and the action. */
export const TemplateSaveSchema = z
  .object({
    intent: z.literal('save'),
    /** Empty for a new template. */
    templateId: z.string().trim().max(64).optional().default(''),
    name: plainText(100, 'Name must be at most 100 characters', 'Name is required').min(
      1,
      'Name is required',
    ),
    /** Empty: the agency's default template; else the team whose template it is. */
    teamId: z
      .string()
      .trim()
      .optional()
      .default('')
      .refine((v) => v === '' || z.uuid().safeParse(v).success, 'Please choose a team'),
    /** A swatch's value, as the card editor posts it: `color:#3b82f6` or `gradient:{id}`. */
    background: z.string().trim().max(80).optional().default('color:#ffffff'),
    // A checkbox: present ('on') puts the agency's Branding logo on the cards.
    useAgencyLogo: z
      .literal('on')
      .optional()
      .transform((v) => v === 'on'),
    company: plainText(COMPANY_MAX_LENGTH, COMPANY_TOO_LONG).optional().default(''),
    website: websiteSchema,
    ...address,
    links: CardExtrasSchema.shape.links,
    backgroundMode: modeField.optional().default('free'),
    logoMode: modeField.optional().default('free'),
    companyMode: modeField.optional().default('free'),
    websiteMode: modeField.optional().default('free'),
    addressMode: modeField.optional().default('free'),
    linksMode: modeField.optional().default('free'),
  })
  .superRefine((v, ctx) => {
    if (!parseBackground(v.background)) {
      ctx.addIssue({ code: 'custom', message: 'Please choose a background', path: ['background'] })
    }
    // A required or locked field needs a value for the cards: the template's own.
    const empty: Record<TemplateField, boolean> = {
      background: false,
      logo: !v.useAgencyLogo,
      company: v.company === '',
      website: v.website === '',
      address: [v.addressStreet, v.addressCity, v.addressCountry].every((part) => part === ''),
      links: v.links.length === 0,
    }
    for (const field of TEMPLATE_FIELDS) {
      const mode = v[`${field}Mode`]
      if (mode !== 'free' && empty[field]) {
        ctx.addIssue({
          code: 'custom',
          message: `${TEMPLATE_FIELD_LABELS[field]} needs a value to be ${mode}`,
          path: [`${field}Mode`],
        })
      }
    }
  })

/** A background swatch's value as a template stores it, or null when it is none of the presets' kinds. */
export function parseBackground(value: string) {
  const [kind, ...rest] = value.split(':')
  const body = rest.join(':')
  if (kind === 'color') {
    const color = hexColorSchema.safeParse(body)
    return color.success ? { kind: 'color' as const, value: color.data } : null
  }
  if (kind === 'gradient') {
    const gradient = z.enum(gradientIds).safeParse(body)
    return gradient.success ? { kind: 'gradient' as const, value: gradient.data } : null
  }
  return null
}

export const TemplateIntentSchema = z.discriminatedUnion('intent', [
  TemplateSaveSchema,
  z.object({ intent: z.literal('delete'), templateId: z.uuid() }),
  /** Puts the template on every card of the people it applies to that follows none. */
  z.object({ intent: z.literal('apply'), templateId: z.uuid() }),
  /** Brings deviating cards back: one card, or every one of the template's. */
  z.object({
    intent: z.literal('reset'),
    templateId: z.uuid(),
    cardId: z.uuid().optional(),
  }),
])
export type TemplateIntent = z.output<typeof TemplateIntentSchema>
export type TemplateValues = Extract<TemplateIntent, { intent: 'save' }>

/** The texts a template puts on its cards, as its form reads them: the company, website, address. */
export type TemplateTexts = Pick<
  TemplateValues,
  | 'company'
  | 'website'
  | 'addressStreet'
  | 'addressCity'
  | 'addressRegion'
  | 'addressPostalCode'
  | 'addressCountry'
>

/** The values a template sets on a card, as the rule module applies them. */
export type TemplateSettings = TemplateTexts & {
  backgroundKind: 'color' | 'gradient' | 'image'
  backgroundValue: string
  useAgencyLogo: boolean
  links: CardLinkInput[]
  modes: TemplateModes
}

/** A stored links list read back through the link rules (a row the rules refuse is dropped). */
export function storedLinks(raw: unknown): CardLinkInput[] {
  if (!Array.isArray(raw)) return []
  return raw.flatMap((row) => {
    const parsed = CardLinkInputSchema.safeParse(row)
    return parsed.success && parsed.data ? [parsed.data] : []
  })
}
