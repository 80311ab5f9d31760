// The agency's Card Templates screen (issue 31 point 1, ADR 048): the default template and the
// teams' templates, each field locked, required or free; which cards follow each one and which
// stray, with "Reset to template". Agency members read it; only the agency admin changes it.
import { type FieldMetadata, getFormProps, getSelectProps } from '@conform-to/react'
import { Form, useActionData, useNavigation } from '@remix-run/react'
import { useState } from 'react'
import { BackgroundSwatches } from '#app/components/cards/background-swatches'
import {
  AddressFields,
  LinkRows,
  withBlankLinkRows,
} from '#app/components/cards/card-details-fields'
import { ErrorList, FormField, FormMessage, useSchemaForm } from '#app/components/forms'
import { EmptyRow, PageHeader, TD } from '#app/components/people/people-ui'
import { Badge } from '#app/components/ui/badge'
import { Button } from '#app/components/ui/button'
import { actionsColumn, DataTable } from '#app/components/ui/data-table'
import { ConfirmActions, ConfirmDialog } from '#app/components/ui/dialog'
import { Panel } from '#app/components/ui/panel'
import { StatusButton } from '#app/components/ui/status-button'
import { GRADIENT_PRESETS } from '#app/validation/backgrounds'
import { addressLine, type LinkKind, linkName } from '#app/validation/card-details'
import {
  TEMPLATE_FIELD_LABELS,
  TEMPLATE_FIELDS,
  TEMPLATE_MODE_LABELS,
  TEMPLATE_MODES,
  type TemplateField,
  type TemplateMode,
  TemplateSaveSchema,
  type TemplateSettings,
} from '#app/validation/card-templates'

type Link = { kind: LinkKind; label: string; url: string }

/** A template as the page lists it: the values it sets on cards, and who follows it. */
export type TemplateRow = Omit<TemplateSettings, 'backgroundKind' | 'backgroundValue' | 'links'> & {
  id: string
  name: string
  teamId: string | null
  teamName: string | null
  background: string
  links: Link[]
  following: number
  toApply: number
  deviating: { cardId: string; title: string; owner: string; fields: TemplateField[] }[]
}

export type TemplatesPageProps = {
  templates: TemplateRow[]
  teams: { id: string; name: string }[]
  hasAgencyLogo: boolean
  canManage: boolean
  brandColor: string
}

// Full width of its column: an option's long text must not widen the page on a phone.
const SELECT_CLASS =
  'h-10 w-full min-w-0 rounded-md border border-gray-300 bg-white px-2 text-sm shadow-sm dark:border-gray-700 dark:bg-gray-900'

const MODE_TONE: Record<TemplateMode, 'red' | 'amber' | 'gray'> = {
  locked: 'red',
  required: 'amber',
  free: 'gray',
}

const cards = (n: number) => `${n} ${n === 1 ? 'card' : 'cards'}`

function backgroundName(value: string) {
  const [kind, ...rest] = value.split(':')
  const body = rest.join(':')
  if (kind === 'gradient') return GRADIENT_PRESETS.find((g) => g.id === body)?.name ?? body
  return body
}

/** What the template sets in one field, in words. */
function fieldValue(template: TemplateRow, field: TemplateField) {
  switch (field) {
    case 'background':
      return backgroundName(template.background)
    case 'logo':
      return template.useAgencyLogo ? "The agency's logo" : 'No logo'
    case 'company':
      return template.company || 'Not set'
    case 'website':
      return template.website || 'Not set'
    case 'address':
      return addressLine(template) || 'Not set'
    case 'links':
      return template.links.length > 0
        ? template.links.map((link) => linkName(link)).join(', ')
        : 'None'
  }
}

function ModeSelect({ meta, field }: { meta: FieldMetadata<string>; field: TemplateField }) {
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={meta.id} className="text-sm font-medium">
        {TEMPLATE_FIELD_LABELS[field]} on cards
      </label>
      <select {...getSelectProps(meta)} className={SELECT_CLASS}>
        {TEMPLATE_MODES.map((mode) => (
          <option key={mode} value={mode}>
            {TEMPLATE_MODE_LABELS[mode]}
          </option>
        ))}
      </select>
      <ErrorList id={meta.errorId} errors={meta.errors} />
    </div>
  )
}

type Refusal = { result?: { initialValue?: Record<string, unknown> } | null; intent?: string }

function TemplateForm({
  template,
  teams,
  hasAgencyLogo,
  brandColor,
}: {
  template: TemplateRow | null
} & Pick<TemplatesPageProps, 'teams' | 'hasAgencyLogo' | 'brandColor'>) {
  const actionData = useActionData<Refusal>()
  const navigation = useNavigation()
  const id = template?.id ?? ''
  // The one reply goes to the form it came from (the page has one form per template).
  const mine =
    actionData?.intent === 'save' && (actionData.result?.initialValue?.templateId ?? '') === id
  const [form, fields] = useSchemaForm(TemplateSaveSchema, {
    id: `template-${id || 'new'}`,
    lastResult: mine ? (actionData?.result as never) : undefined,
    defaultValue: {
      intent: 'save',
      templateId: id,
      name: template?.name ?? '',
      teamId: template?.teamId ?? '',
      company: template?.company ?? '',
      website: template?.website ?? '',
      addressStreet: template?.addressStreet ?? '',
      addressCity: template?.addressCity ?? '',
      addressRegion: template?.addressRegion ?? '',
      addressPostalCode: template?.addressPostalCode ?? '',
      addressCountry: template?.addressCountry ?? '',
      links: withBlankLinkRows(template?.links ?? []),
      ...Object.fromEntries(
        TEMPLATE_FIELDS.map((field) => [`${field}Mode`, template?.modes[field] ?? 'free']),
      ),
    },
  })
  const [background, setBackground] = useState(template?.background ?? 'color:#ffffff')
  const pending = navigation.state === 'submitting' && navigation.formData?.get('templateId') === id
  return (
    <Form
      method="POST"
      className="grid min-w-0 grid-cols-1 gap-4 sm:grid-cols-2"
      {...getFormProps(form)}
    >
      <input type="hidden" name="intent" value="save" />
      <input type="hidden" name="templateId" value={id} />
      {form.errors?.length ? <FormMessage>{form.errors.join(' ')}</FormMessage> : null}
      <FormField label="Template name" field={fields.name} />
      <div className="flex flex-col gap-1.5">
        <label htmlFor={fields.teamId.id} className="text-sm font-medium">
          Applies to
        </label>
        <select {...getSelectProps(fields.teamId)} className={SELECT_CLASS}>
          <option value="">Agency default (everyone without a team template)</option>
          {teams.map((team) => (
            <option key={team.id} value={team.id}>
              Team: {team.name}
            </option>
          ))}
        </select>
        <ErrorList id={fields.teamId.errorId} errors={fields.teamId.errors} />
      </div>
      <div className="flex min-w-0 flex-col gap-3 sm:col-span-2">
        <BackgroundSwatches
          name="background"
          brandColor={brandColor}
          selected={background}
          onChoose={setBackground}
        />
        <ErrorList errors={fields.background.errors} />
      </div>
      <ModeSelect meta={fields.backgroundMode} field="background" />
      <div className="flex flex-col justify-end gap-1.5">
        <label className="flex items-center gap-2 text-sm">
          <input
            type="checkbox"
            name="useAgencyLogo"
            defaultChecked={template?.useAgencyLogo ?? false}
          />
          Put the agency's logo on the cards
        </label>
        {hasAgencyLogo ? null : (
          <p className="text-xs text-gray-500">Upload a logo on the Branding page first.</p>
        )}
      </div>
      <ModeSelect meta={fields.logoMode} field="logo" />
      <FormField label="Company" field={fields.company} />
      <ModeSelect meta={fields.companyMode} field="company" />
      <FormField label="Website" field={fields.website} />
      <ModeSelect meta={fields.websiteMode} field="website" />
      <AddressFields fields={fields} />
      <ModeSelect meta={fields.addressMode} field="address" />
      <LinkRows
        name={fields.links.name}
        rows={fields.links.getFieldList()}
        errors={fields.links.errors}
        intents={form}
      />
      <ModeSelect meta={fields.linksMode} field="links" />
      <StatusButton pending={pending} className="sm:col-span-2 sm:justify-self-end">
        {template ? 'Save template' : 'Create template'}
      </StatusButton>
    </Form>
  )
}

/** A one-button form of the page (apply, reset, delete), named for what it does. */
const PENDING_TEXT = { apply: 'Applying...', reset: 'Resetting...', delete: 'Deleting...' }

/**
 * An action on a template and its cards, asked first (issue 41 point 9): each rewrites what cards
 * show or deletes the template, so the dialog says what will happen and Cancel changes nothing.
 */
function ActionButton({
  intent,
  templateId,
  cardId,
  variant = 'primary',
  children,
  label,
  question,
  explanation,
  confirm,
}: {
  intent: 'apply' | 'reset' | 'delete'
  templateId: string
  cardId?: string
  variant?: 'primary' | 'secondary' | 'danger'
  children: string
  label?: string
  /** The dialog's title: the question the action asks. */
  question: string
  /** What the action changes, and what it leaves alone. */
  explanation: string
  /** The confirming button's words. */
  confirm: string
}) {
  const navigation = useNavigation()
  const pending =
    navigation.state === 'submitting' &&
    navigation.formData?.get('intent') === intent &&
    navigation.formData?.get('templateId') === templateId &&
    (navigation.formData?.get('cardId') ?? undefined) === cardId
  return (
    <ConfirmDialog
      trigger={
        <Button variant={variant} size="sm" aria-label={label}>
          {children}
        </Button>
      }
      title={question}
      description={explanation}
    >
      <Form method="POST" className="flex justify-end gap-2">
        <input type="hidden" name="intent" value={intent} />
        <input type="hidden" name="templateId" value={templateId} />
        {cardId ? <input type="hidden" name="cardId" value={cardId} /> : null}
        <ConfirmActions
          pending={pending}
          label={confirm}
          pendingText={PENDING_TEXT[intent]}
          variant={intent === 'delete' ? 'danger' : 'primary'}
        />
      </Form>
    </ConfirmDialog>
  )
}

function TemplatePanel({
  template,
  ...props
}: { template: TemplateRow } & Omit<TemplatesPageProps, 'templates'>) {
  const { canManage } = props
  const deviating = template.deviating.length
  return (
    <Panel
      title={template.name}
      description={
        template.teamName
          ? `Team template: ${template.teamName}. It wins over the agency default for this team's members.`
          : 'Agency default: new cards of end users without a team template start from it.'
      }
    >
      <dl className="grid gap-3 sm:grid-cols-2">
        {TEMPLATE_FIELDS.map((field) => (
          <div key={field} className="flex min-w-0 flex-col gap-1">
            <dt className="flex items-center gap-2 text-sm font-medium">
              {TEMPLATE_FIELD_LABELS[field]}
              <Badge tone={MODE_TONE[template.modes[field]]}>
                {TEMPLATE_MODE_LABELS[template.modes[field]]}
              </Badge>
            </dt>
            <dd className="text-sm text-gray-600 [overflow-wrap:anywhere] dark:text-gray-400">
              {fieldValue(template, field)}
            </dd>
          </div>
        ))}
      </dl>
      <p className="text-sm" role="status">
        {cards(template.following)} follow this template; {deviating} deviate.
        {template.toApply > 0
          ? ` ${cards(template.toApply)} of the people it applies to follow no template yet.`
          : ''}
      </p>
      {canManage ? (
        <div className="flex flex-wrap gap-2">
          {template.toApply > 0 ? (
            <ActionButton
              intent="apply"
              templateId={template.id}
              question={`Apply ${template.name} to ${cards(template.toApply)}?`}
              explanation={`The template's locked and default fields replace what ${cards(template.toApply)} show now, and they follow the template from then on. Fields the template leaves free stay as they are.`}
              confirm="Apply"
            >
              {`Apply to ${cards(template.toApply)}`}
            </ActionButton>
          ) : null}
          {deviating > 0 ? (
            <ActionButton
              intent="reset"
              templateId={template.id}
              variant="secondary"
              question={`Reset ${cards(deviating)} to ${template.name}?`}
              explanation={`What their owners changed in the template's locked and default fields is replaced by the template's values. Fields the template leaves free stay as they are.`}
              confirm="Reset"
            >
              {`Reset ${cards(deviating)} to template`}
            </ActionButton>
          ) : null}
          <ActionButton
            intent="delete"
            templateId={template.id}
            variant="danger"
            label={`Delete template ${template.name}`}
            question={`Delete ${template.name}?`}
            explanation={`${cards(template.following)} that follow it keep their values and follow no template. This cannot be undone.`}
            confirm="Delete"
          >
            Delete template
          </ActionButton>
        </div>
      ) : null}
      <section aria-labelledby={`deviating-${template.id}`} className="flex flex-col gap-2">
        <h3 id={`deviating-${template.id}`} className="text-sm font-medium">
          Cards that deviate ({deviating})
        </h3>
        <DataTable
          divided={false}
          columns={[
            { label: 'Card' },
            { label: 'Owner' },
            { label: 'Differs in' },
            canManage && actionsColumn(),
          ]}
        >
          {deviating === 0 ? (
            <EmptyRow columns={canManage ? 4 : 3}>Every card follows this template.</EmptyRow>
          ) : (
            template.deviating.map((row) => (
              <tr key={row.cardId} className="border-t border-gray-200 dark:border-gray-800">
                <td className={`${TD} [overflow-wrap:anywhere]`}>{row.title}</td>
                <td className={`${TD} [overflow-wrap:anywhere]`}>{row.owner}</td>
                <td className={TD}>
                  {row.fields.map((field) => TEMPLATE_FIELD_LABELS[field]).join(', ')}
                </td>
                {canManage ? (
                  <td className={TD}>
                    <ActionButton
                      intent="reset"
                      templateId={template.id}
                      cardId={row.cardId}
                      variant="secondary"
                      label={`Reset to template: ${row.title}`}
                      question={`Reset ${row.title} to ${template.name}?`}
                      explanation="What its owner changed in the template's locked and default fields is replaced by the template's values. Fields the template leaves free stay as they are."
                      confirm="Reset"
                    >
                      Reset to template
                    </ActionButton>
                  </td>
                ) : null}
              </tr>
            ))
          )}
        </DataTable>
      </section>
      {canManage ? (
        <details className="group min-w-0 rounded-lg border border-gray-200 p-4 dark:border-gray-800">
          <summary className="cursor-pointer text-sm font-medium">Edit template</summary>
          <div className="mt-4">
            <TemplateForm template={template} {...props} />
          </div>
        </details>
      ) : null}
    </Panel>
  )
}

export function TemplatesPage({ templates, ...props }: TemplatesPageProps) {
  return (
    <main className="flex flex-col gap-6 p-4 sm:p-6">
      <PageHeader
        title="Card Templates"
        description="Set the background, logo, company, website, address and links of your end users' cards. A locked field is read only on their cards and follows the template when you change it."
        actions={null}
      />
      {props.canManage ? null : (
        <FormMessage tone="info">Only your agency's admin changes card templates.</FormMessage>
      )}
      {templates.length === 0 ? (
        <Panel title="No templates yet">
          <p className="text-sm text-gray-600 dark:text-gray-400">
            {props.canManage
              ? 'Create the agency default below; add one per team where a team needs its own.'
              : 'Your agency has no card template yet.'}
          </p>
        </Panel>
      ) : (
        templates.map((template) => (
          <TemplatePanel key={template.id} template={template} {...props} />
        ))
      )}
      {props.canManage ? (
        <Panel
          title="New template"
          description="The agency default applies to end users without a team template; a team's template wins over it."
        >
          <TemplateForm template={null} {...props} />
        </Panel>
      ) : null}
    </main>
  )
}
