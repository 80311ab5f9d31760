import { Link } from '@remix-run/react'
import { ArrowLeft } from 'lucide-react'
import { Button } from './button'

/** The arrow before a page's title that leads back: named for screen readers by `label`. */
export function BackButton({ to, label = 'Back' }: { to: string; label?: string }) {
  return (
    <Button asChild variant="ghost" size="sm" aria-label={label}>
      <Link to={to}>
        <ArrowLeft aria-hidden className="h-4 w-4" />
      </Link>
    </Button>
  )
}
