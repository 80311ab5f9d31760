// A value to copy (a token, a key, a base URL): read only, selectable, with its Copy button. The
// SCIM and API screens show their new secret once through it.
import { Copy } from 'lucide-react'
import { Button } from '#app/components/ui/button'
import { toast } from '#app/components/ui/toasts'

async function copyText(text: string, what: string) {
  try {
    await navigator.clipboard.writeText(text)
    toast.success(`${what} copied`)
  } catch {
    toast.error(`Could not copy. Select the ${what.toLowerCase()} and copy it instead.`)
  }
}

/** A value to copy: read-only, selectable, with its Copy button. */
export function CopyField({
  id,
  label,
  value,
  hint,
}: {
  id: string
  label: string
  value: string
  hint: string
}) {
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      <div className="flex flex-col gap-2 sm:flex-row">
        <input
          id={id}
          readOnly
          value={value}
          aria-describedby={`${id}-hint`}
          onFocus={(event) => event.currentTarget.select()}
          className="h-10 min-w-0 flex-1 rounded-md border border-gray-300 bg-gray-50 px-3 font-mono text-sm dark:border-gray-700 dark:bg-gray-900"
        />
        <Button type="button" variant="secondary" onClick={() => void copyText(value, label)}>
          <Copy aria-hidden className="h-4 w-4" /> Copy
        </Button>
      </div>
      <p id={`${id}-hint`} className="text-xs text-gray-600 dark:text-gray-400">
        {hint}
      </p>
    </div>
  )
}
