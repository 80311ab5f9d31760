import { Loader2 } from 'lucide-react'
import { Button, type ButtonProps } from './button'

/** A submit button that shows the form's pending state. */
export function StatusButton({
  pending,
  pendingText,
  children,
  ...props
}: ButtonProps & { pending: boolean; pendingText?: string }) {
  return (
    <Button type="submit" disabled={pending || props.disabled} aria-busy={pending} {...props}>
      {pending ? <Loader2 aria-hidden className="h-4 w-4 animate-spin" /> : null}
      {pending && pendingText ? pendingText : children}
    </Button>
  )
}
