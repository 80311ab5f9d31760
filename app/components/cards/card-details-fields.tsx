// The card details' fields (issue 28), shared by the card editor and the wizard:
// native inputs and selects, so every form works without JavaScript; the schema is
// app/validation/card-details.ts.
import { type FieldMetadata, getSelectProps, getTextareaProps } from '@conform-to/react'
import { ArrowDown, ArrowUp, Plus } from 'lucide-react'
import type { ButtonHTMLAttributes } from 'react'
import { ErrorList, FormField } from '#app/components/forms'
import { Button } from '#app/components/ui/button'
import {
  LINK_KIND_RULES,
  LINK_KINDS,
  LINKS_MAX,
  type LinkKind,
  linkName,
  PHONE_TYPE_LABELS,
  PHONE_TYPES,
} from '#app/validation/card-details'

type Link = { kind: LinkKind; label: string; url: string }

const BLANK_LINK: Link = { kind: 'custom', label: '', url: '' }

/**
 * The card's links and one empty row for the next (never past the limit); "Add link" adds more
 * rows as they are needed (issue 41 point 14).
 */
export function withBlankLinkRows(links: Link[]) {
  return [...links, BLANK_LINK].slice(0, Math.max(LINKS_MAX, links.length))
}

const SELECT_CLASS =
  'h-10 rounded-md border border-gray-300 bg-white px-2 text-sm shadow-sm dark:border-gray-700 dark:bg-gray-900'

/** A phone's kind (mobile or work), a native select so it works without JavaScript. */
export function PhoneTypeSelect({ meta, label }: { meta: FieldMetadata<string>; label: string }) {
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={meta.id} className="text-sm font-medium">
        {label}
      </label>
      <select {...getSelectProps(meta)} className={SELECT_CLASS}>
        {PHONE_TYPES.map((type) => (
          <option key={type} value={type}>
            {PHONE_TYPE_LABELS[type]}
          </option>
        ))}
      </select>
      <ErrorList id={meta.errorId} errors={meta.errors} />
    </div>
  )
}

type LinkFields = FieldMetadata<
  { kind: LinkKind; label?: string; url?: string },
  Record<string, unknown>,
  string[]
>

/**
 * The form's reorder intent (conform's `form.reorder`): a submit button that moves a row. With
 * JavaScript conform moves it in place; without, the server answers the form with the rows moved
 * (intentAction replies to a list intent without saving).
 */
export type ReorderIntent = {
  getButtonProps(options: { name: string; from: number; to: number }): IntentButtonProps
}

/** The form's insert intent (conform's `form.insert`): a submit button that adds a row. */
export type InsertIntent = {
  getButtonProps(options: { name: string; defaultValue?: Link }): IntentButtonProps
}

type IntentButtonProps = { name: string; value: string; form?: string }

/** The list intents the link rows use: conform's form metadata has both. */
export type LinkListIntents = { reorder: ReorderIntent; insert: InsertIntent }

/** The row's name for its buttons' labels: the service or the custom label, and its place. */
function rowName(index: number, kind: unknown, label: unknown) {
  const known = LINK_KINDS.includes(kind as LinkKind) ? (kind as LinkKind) : 'custom'
  const text = typeof label === 'string' ? label.trim() : ''
  // An empty custom row has no name yet: its place says which it is.
  if (known === 'custom' && !text) return `link ${index + 1}`
  return `link ${index + 1} (${linkName({ kind: known, label: text })})`
}

function MoveButton({
  direction,
  rowLabel,
  ...props
}: ButtonHTMLAttributes<HTMLButtonElement> & { direction: 'up' | 'down'; rowLabel: string }) {
  const Icon = direction === 'up' ? ArrowUp : ArrowDown
  return (
    <Button
      type="submit"
      variant="secondary"
      size="sm"
      // The visible words first (WCAG 2.5.3, label in name), then which link.
      aria-label={`Move ${direction} ${rowLabel}`}
      {...props}
    >
      <Icon aria-hidden className="h-4 w-4" />
      {direction === 'up' ? 'Move up' : 'Move down'}
    </Button>
  )
}

/**
 * The links in order: the card's own, then an empty row for the next, and "Add link" for more up
 * to the limit. A row left without an address is not kept, so clearing one removes it; "Move up"
 * and "Move down" change the order, which is the order saved. The form needs no script.
 */
export function LinkRows({
  name,
  rows,
  errors,
  intents: { reorder, insert },
}: {
  /** The list's field name (`fields.links.name`). */
  name: string
  rows: LinkFields[]
  errors?: string[]
  intents: LinkListIntents
}) {
  return (
    <fieldset className="flex min-w-0 flex-col gap-3 sm:col-span-2">
      <legend className="text-sm font-medium">Links</legend>
      {/* The form's default button, ahead of the rows' buttons: Enter in a field submits the
          form, not the first row's "Move down". */}
      <button type="submit" hidden tabIndex={-1} aria-hidden />
      <p className="text-xs text-gray-500 dark:text-gray-400">
        Up to {LINKS_MAX} links, shown in this order. Addresses start with https://; a WhatsApp link
        may be a phone number. Clear an address to remove its link.
      </p>
      <ErrorList errors={errors} />
      {rows.map((row, index) => {
        const link = row.getFieldset()
        const rowLabel = rowName(index, link.kind.value, link.label.value)
        return (
          <div
            key={row.key}
            className="grid min-w-0 gap-2 rounded-md border border-gray-200 p-3 sm:grid-cols-[9rem_minmax(0,1fr)_minmax(0,2fr)] dark:border-gray-800"
            data-testid="link-row"
          >
            <div className="flex flex-col gap-1.5">
              <label htmlFor={link.kind.id} className="text-xs font-medium">
                Link {index + 1} kind
              </label>
              <select {...getSelectProps(link.kind)} className={SELECT_CLASS}>
                {LINK_KINDS.map((kind) => (
                  <option key={kind} value={kind}>
                    {kind === 'custom' ? 'Custom' : LINK_KIND_RULES[kind].name}
                  </option>
                ))}
              </select>
            </div>
            <FormField
              label={`Link ${index + 1} label`}
              hint="Custom links only"
              field={link.label}
            />
            <FormField label={`Link ${index + 1} address`} field={link.url} inputMode="url" />
            <div className="flex flex-wrap justify-end gap-2 sm:col-span-3">
              <MoveButton
                direction="up"
                rowLabel={rowLabel}
                disabled={index === 0}
                {...reorder.getButtonProps({ name, from: index, to: index - 1 })}
              />
              <MoveButton
                direction="down"
                rowLabel={rowLabel}
                disabled={index === rows.length - 1}
                {...reorder.getButtonProps({ name, from: index, to: index + 1 })}
              />
            </div>
          </div>
        )
      })}
      {rows.length < LINKS_MAX ? (
        <Button
          type="submit"
          variant="secondary"
          size="sm"
          className="self-start"
          {...insert.getButtonProps({ name, defaultValue: BLANK_LINK })}
        >
          <Plus aria-hidden className="h-4 w-4" /> Add link
        </Button>
      ) : null}
    </fieldset>
  )
}

/** A template's locked links: listed, and sent back as they are so the form keeps them. */
function LockedLinks({ name, hint, links }: { name: string; hint: string; links: Link[] }) {
  return (
    <fieldset className="flex min-w-0 flex-col gap-2 sm:col-span-2">
      <legend className="text-sm font-medium">Links</legend>
      <p className="text-xs text-gray-500 dark:text-gray-400">{hint}</p>
      {links.length === 0 ? <p className="text-sm">No links</p> : null}
      <ul className="flex flex-col gap-1 text-sm">
        {links.map((link, index) => (
          <li key={`${link.kind}-${link.url}`} className="[overflow-wrap:anywhere]">
            {linkName(link)}: {link.url}
            <input type="hidden" name={`${name}[${index}].kind`} value={link.kind} />
            <input type="hidden" name={`${name}[${index}].label`} value={link.label} />
            <input type="hidden" name={`${name}[${index}].url`} value={link.url} />
          </li>
        ))}
      </ul>
    </fieldset>
  )
}

export function BioField({ meta }: { meta: FieldMetadata<string> }) {
  return (
    <div className="flex flex-col gap-1.5 sm:col-span-2">
      <label htmlFor={meta.id} className="text-sm font-medium">
        Headline or short bio
      </label>
      <textarea
        {...getTextareaProps(meta)}
        rows={3}
        className="rounded-md border border-gray-300 p-3 text-sm aria-[invalid]:border-red-500 dark:border-gray-700 dark:bg-gray-900"
      />
      <ErrorList id={meta.errorId} errors={meta.errors} />
    </div>
  )
}

type AddressMeta = Record<
  'addressStreet' | 'addressCity' | 'addressRegion' | 'addressPostalCode' | 'addressCountry',
  FieldMetadata<string>
>

/** The address's inputs; `lockedHint` makes them read only with the template's words (ADR 048). */
export function AddressFields({
  fields,
  lockedHint,
}: {
  fields: AddressMeta
  lockedHint?: string
}) {
  const readOnly = lockedHint !== undefined
  return (
    <fieldset className="grid gap-4 sm:col-span-2 sm:grid-cols-2">
      <legend className="mb-2 text-sm font-medium">Address</legend>
      {lockedHint ? (
        <p className="text-xs text-gray-500 dark:text-gray-400 sm:col-span-2">{lockedHint}</p>
      ) : null}
      <FormField
        className="sm:col-span-2"
        label="Street"
        field={fields.addressStreet}
        readOnly={readOnly}
        autoComplete="street-address"
      />
      <FormField label="City" field={fields.addressCity} readOnly={readOnly} />
      <FormField label="Region" field={fields.addressRegion} readOnly={readOnly} />
      <FormField label="Postal code" field={fields.addressPostalCode} readOnly={readOnly} />
      <FormField label="Country" field={fields.addressCountry} readOnly={readOnly} />
    </fieldset>
  )
}

type ExtrasMeta = AddressMeta &
  Record<'pronouns' | 'phoneType' | 'phone2' | 'phone2Type' | 'bio', FieldMetadata<string>> & {
    links: { name: string; errors?: string[]; getFieldList(): LinkFields[] }
  }

/**
 * Every detail beyond the basics, in the order the editor shows them (the wizard
 * spreads them over its steps): pronouns, the phones' types and the second phone, the bio, the
 * address and the links.
 */
export function CardExtrasFields({
  fields,
  intents,
  locked,
}: {
  fields: ExtrasMeta
  /** The form's list intents (pass conform's form metadata): move and add link rows. */
  intents: LinkListIntents
  /** A card template's locked address and links (ADR 048): shown read only, sent as they are. */
  locked?: { address?: string; links?: { hint: string; links: Link[] } }
}) {
  return (
    <>
      <FormField label="Pronouns" hint="For example she/her" field={fields.pronouns} />
      <PhoneTypeSelect meta={fields.phoneType} label="Phone type" />
      <FormField label="Second phone" field={fields.phone2} type="tel" />
      <PhoneTypeSelect meta={fields.phone2Type} label="Second phone type" />
      <BioField meta={fields.bio} />
      <AddressFields fields={fields} lockedHint={locked?.address} />
      {locked?.links ? (
        <LockedLinks name={fields.links.name} {...locked.links} />
      ) : (
        <LinkRows
          name={fields.links.name}
          rows={fields.links.getFieldList()}
          errors={fields.links.errors}
          intents={intents}
        />
      )}
    </>
  )
}
