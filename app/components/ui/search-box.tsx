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
}: {
  /** The form's id (and its field's). */
  id: string
  q: string
  searchError: string | null
  /** The box's name for screen readers ("Search agencies"). */
  label: string
  placeholder: string
}) {
  const [form, fields] = useSearchForm(id, q, searchError)
  return (
    <Form
      method="GET"
      role="search"
      className="flex max-w-md flex-col gap-1"
      {...getFormProps(form)}
    >
      <div className="flex gap-2">
        <label htmlFor={fields.q.id} className="sr-only">
          {label}
        </label>
        <input
          {...getInputProps(fields.q, { type: 'search' })}
          placeholder={placeholder}
          className="h-10 min-w-0 flex-1 rounded-md border border-gray-300 bg-white px-3 text-sm shadow-sm focus-visible:border-brand aria-[invalid]:border-red-500 dark:border-gray-700 dark:bg-gray-900"
        />
        <Button type="submit" variant="secondary">
          <Search aria-hidden className="h-4 w-4" /> Search
        </Button>
      </div>
      <ErrorList id={fields.q.errorId} errors={fields.q.errors} />
    </Form>
  )
}
