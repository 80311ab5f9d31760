import * as DropdownMenu from '@radix-ui/react-dropdown-menu'
import { MoreHorizontal } from 'lucide-react'
import type { ReactNode } from 'react'
import { Button } from '#app/components/ui/button'

/** A table row's actions menu, behind a "more" button named by `label`. */
export function RowMenu({
  label,
  modal,
  className = 'z-50 min-w-40 rounded-md border border-gray-200 bg-white p-1 shadow-lg dark:border-gray-800 dark:bg-gray-900',
  children,
}: {
  label: string
  modal?: boolean
  /** The menu's classes, for a menu whose items are larger. */
  className?: string
  children: ReactNode
}) {
  return (
    <DropdownMenu.Root modal={modal}>
      <DropdownMenu.Trigger asChild>
        <Button variant="ghost" size="sm" aria-label={label}>
          <MoreHorizontal aria-hidden className="h-4 w-4" />
        </Button>
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content align="end" sideOffset={4} className={className}>
          {children}
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  )
}

export function RowMenuItem({
  onSelect,
  danger,
  children,
}: {
  onSelect: () => void
  danger?: boolean
  children: ReactNode
}) {
  return (
    <DropdownMenu.Item
      onSelect={onSelect}
      className={`flex cursor-pointer items-center gap-2 rounded px-2 py-1.5 text-sm outline-none data-[highlighted]:bg-gray-100 dark:data-[highlighted]:bg-gray-800 ${danger ? 'text-red-700 dark:text-red-400' : ''}`}
    >
      {children}
    </DropdownMenu.Item>
  )
}
