// A secret the server made and will not show again (a SCIM token, a webhook signing secret): said
// as a status so a screen reader announces it, and highlighted so it is not missed before the
// page is left.
import { CopyField } from '#app/components/ui/copy-field'

/** The new secret, with what to do with it, to copy now. */
export function SecretShownOnce({
  message,
  id,
  label,
  value,
  hint,
}: {
  /** Says whose secret it is and that it is not shown again. */
  message: string
  id: string
  label: string
  value: string
  hint: string
}) {
  return (
    <div
      role="status"
      className="flex flex-col gap-3 rounded-lg border border-amber-300 bg-amber-50 p-4 text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-50"
    >
      <p className="text-sm font-medium">{message}</p>
      <CopyField id={id} label={label} value={value} hint={hint} />
    </div>
  )
}
