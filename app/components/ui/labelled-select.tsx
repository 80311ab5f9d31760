// A native <select> with its label above and, under it, its errors or else its hint (the
// people screens' forms and filters).
import type { ReactNode } from 'react'
import { SELECT_CLASS } from './select'

export function LabelledSelect({
  id,
  name,
  label,
  defaultValue,
  errors,
  hint,
  children,
}: {
  id: string
  name: string
  label: string
  defaultValue?: string
  /** The server's messages for the field: the select is marked invalid and described by them. */
  errors?: string[]
  /** Said under the select while there is no error. */
  hint?: string
  /** The options: `<SelectOptions>` or, where one needs more, hand-written ones. */
  children: ReactNode
}) {
  const describedBy = errors ? `${id}-error` : hint ? `${id}-hint` : undefined
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      <select
        id={id}
        name={name}
        defaultValue={defaultValue}
        className={SELECT_CLASS}
        aria-invalid={errors ? true : undefined}
        aria-describedby={describedBy}
      >
        {children}
      </select>
      {errors ? (
        errors.map((error) => (
          <p key={error} id={`${id}-error`} className="text-sm text-red-600">
            {error}
          </p>
        ))
      ) : hint ? (
        <p id={`${id}-hint`} className="text-xs text-gray-600 dark:text-gray-400">
          {hint}
        </p>
      ) : null}
    </div>
  )
}

export type SelectOption = { value: string; label: string; disabled?: boolean }

/** A select's options from a list, after an optional one with the empty value ("All roles"). */
export function SelectOptions({
  options,
  empty,
}: {
  options: readonly SelectOption[]
  empty?: string
}) {
  return (
    <>
      {empty === undefined ? null : <option value="">{empty}</option>}
      {options.map((option) => (
        <option key={option.value} value={option.value} disabled={option.disabled}>
          {option.label}
        </option>
      ))}
    </>
  )
}

/** Options for records chosen by name (team members, agencies, people). */
export function byName(records: readonly { id: string; name: string }[]): SelectOption[] {
  return records.map((record) => ({ value: record.id, label: record.name }))
}
