// A list's search box with its Search button; the shared length limit is answered next to it
// (useSearchForm), with or without JavaScript.
import { getFormProps, getInputProps } from '@conform-to/react'
import { Form } from '@remix-run/react'
import { Search } from 'lucide-react'
import { ErrorList, useSearchForm } from '#app/components/forms'
import { Button } from './button'

export function SearchBox({
  id,
  q,
  searchError,
  label,
  placeholder,
  busy,
  plain = false,
}: {
  /** The form's id (and its field's). */
  id: string
  q: string
  searchError: string | null
  /** The box's name for screen readers ("Search agencies"). */
  label: string
  placeholder: string
  /** While the search loads: the button says so (aria-busy). */
  busy?: boolean
  /** Full width and without the box's shadow (the contacts list). */
  plain?: boolean
}) {
  const [form, fields] = useSearchForm(id, q, searchError)
  return (
    <Form
      method="GET"
      role="search"
      className={plain ? 'flex flex-col gap-1' : 'flex max-w-md flex-col gap-1'}
      {...getFormProps(form)}
    >
      <label htmlFor={fields.q.id} className="sr-only">
        {label}
      </label>
      <SearchInput
        field={fields.q}
        placeholder={placeholder}
        busy={busy}
        className={
          plain
            ? 'h-10 min-w-0 flex-1 rounded-md border border-gray-300 px-3 text-sm aria-[invalid]:border-red-500 dark:border-gray-700 dark:bg-gray-900'
            : 'h-10 min-w-0 flex-1 rounded-md border border-gray-300 bg-white px-3 text-sm shadow-sm focus-visible:border-brand aria-[invalid]:border-red-500 dark:border-gray-700 dark:bg-gray-900'
        }
      />
    </Form>
  )
}

/** The search box with its Search button and, under them, what the search was refused for. */
export function SearchInput({
  field,
  placeholder,
  className,
  busy,
}: {
  field: ReturnType<typeof useSearchForm>[1]['q']
  placeholder?: string
  className: string
  busy?: boolean
}) {
  return (
    <>
      <div className="flex gap-2">
        <input
          {...getInputProps(field, { type: 'search' })}
          placeholder={placeholder}
          className={className}
        />
        <Button type="submit" variant="secondary" aria-busy={busy}>
          <Search aria-hidden className="h-4 w-4" /> Search
        </Button>
      </div>
      <ErrorList id={field.errorId} errors={field.errors} />
    </>
  )
}
