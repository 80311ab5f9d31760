// The dashboards' sidebar layout (roles-teams-admin.md §2.2, §9): product name and role badge,
// the role's Dashboard entries, the Account group and Log out. From 768 px it sits beside the page
// (16rem, or 3rem of icons when collapsed, toggled by its button or Ctrl/Cmd+B and remembered in
// a cookie); below, the same contents open as a drawer (18rem) from a Menu button.
import * as Dialog from '@radix-ui/react-dialog'
import { NavLink, useLocation, useRouteLoaderData } from '@remix-run/react'
import { LogOut, Menu, PanelLeftClose, PanelLeftOpen, X } from 'lucide-react'
import { type ReactNode, useCallback, useEffect, useId, useRef, useState } from 'react'
import { type NavEntry, roleBadge, sidebarNavigation } from '#app/navigation/role-navigation'
import { SIDEBAR_SHORTCUT_KEY, sidebarCookie } from '#app/navigation/sidebar-state'
import { cn } from '#app/utils/cn'
import type { Role } from '#app/validation/roles'
import { useSignOut } from './use-sign-out'

/** Tailwind's `md`: the drawer serves narrower screens. */
const DESKTOP_QUERY = '(min-width: 768px)'

export function SidebarLayout({
  role,
  productName,
  initialOpen,
  children,
}: {
  role: Role
  productName: string
  initialOpen: boolean
  children: ReactNode
}) {
  const [open, setOpen] = useState(initialOpen)
  const [drawerOpen, setDrawerOpen] = useState(false)
  const sidebarId = useId()
  const location = useLocation()

  const toggle = useCallback(() => setOpen((current) => !current), [])

  // Written on change only, so the 7 days count from the last toggle.
  const written = useRef(initialOpen)
  useEffect(() => {
    if (written.current === open) return
    written.current = open
    // The Cookie Store API is missing from older Safari and Firefox; this value needs no escaping.
    // biome-ignore lint/suspicious/noDocumentCookie: see above
    document.cookie = sidebarCookie(open, window.location.protocol === 'https:')
  }, [open])

  useEffect(() => {
    function onKeyDown(event: KeyboardEvent) {
      if (event.key.toLowerCase() !== SIDEBAR_SHORTCUT_KEY) return
      if (!(event.ctrlKey || event.metaKey) || event.altKey || event.shiftKey) return
      event.preventDefault()
      if (window.matchMedia(DESKTOP_QUERY).matches) toggle()
      else setDrawerOpen((current) => !current)
    }
    window.addEventListener('keydown', onKeyDown)
    return () => window.removeEventListener('keydown', onKeyDown)
  }, [toggle])

  // A drawer left open while the window widens would keep the page inert behind an invisible dialog.
  useEffect(() => {
    const desktop = window.matchMedia(DESKTOP_QUERY)
    const close = () => {
      if (desktop.matches) setDrawerOpen(false)
    }
    desktop.addEventListener('change', close)
    return () => desktop.removeEventListener('change', close)
  }, [])

  // Following a link in the drawer closes it.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on each new location on purpose
  useEffect(() => {
    setDrawerOpen(false)
  }, [location.key])

  return (
    // data-sidebar-layout: the site header widens to the window's edges above it.
    <div className="flex min-h-full" data-sidebar-layout>
      <div
        id={sidebarId}
        data-testid="sidebar"
        data-state={open ? 'expanded' : 'collapsed'}
        className={cn(
          'hidden shrink-0 border-r border-gray-200 bg-gray-50 transition-[width] duration-200 md:block dark:border-gray-800 dark:bg-gray-900',
          open ? 'w-64' : 'w-12',
        )}
      >
        {/* The header above is 4rem high: the sidebar fills the rest of the screen and stays put. */}
        <div className="sticky top-0 flex h-[calc(100svh-4rem)] flex-col">
          <SidebarContents
            role={role}
            productName={productName}
            collapsed={!open}
            control={
              <button
                type="button"
                onClick={toggle}
                aria-label="Toggle sidebar"
                aria-expanded={open}
                aria-controls={sidebarId}
                aria-keyshortcuts="Control+B Meta+B"
                title="Toggle sidebar (Ctrl+B)"
                data-testid="sidebar-toggle"
                className="flex h-8 w-8 shrink-0 items-center justify-center rounded-md text-gray-700 hover:bg-gray-200 dark:text-gray-200 dark:hover:bg-gray-800"
              >
                {open ? (
                  <PanelLeftClose aria-hidden className="h-4 w-4" />
                ) : (
                  <PanelLeftOpen aria-hidden className="h-4 w-4" />
                )}
              </button>
            }
          />
        </div>
      </div>
      <div className="min-w-0 flex-1">
        <Dialog.Root open={drawerOpen} onOpenChange={setDrawerOpen}>
          <div className="border-b border-gray-200 px-4 py-2 md:hidden dark:border-gray-800">
            <Dialog.Trigger
              data-testid="sidebar-drawer-trigger"
              className="inline-flex h-10 items-center gap-2 rounded-md px-3 text-sm font-medium text-gray-700 hover:bg-gray-100 dark:text-gray-200 dark:hover:bg-gray-800"
            >
              <Menu aria-hidden className="h-4 w-4" />
              Menu
            </Dialog.Trigger>
          </div>
          <Dialog.Portal>
            <Dialog.Overlay className="fixed inset-0 z-40 bg-black/40 md:hidden" />
            <Dialog.Content
              aria-describedby={undefined}
              data-testid="sidebar-drawer"
              className="fixed inset-y-0 left-0 z-50 flex w-72 max-w-[85vw] flex-col bg-white shadow-xl md:hidden dark:bg-gray-950"
            >
              <Dialog.Title className="sr-only">Navigation</Dialog.Title>
              <SidebarContents
                role={role}
                productName={productName}
                collapsed={false}
                control={
                  <Dialog.Close
                    aria-label="Close navigation"
                    className="flex h-8 w-8 shrink-0 items-center justify-center rounded-md text-gray-700 hover:bg-gray-100 dark:text-gray-200 dark:hover:bg-gray-800"
                  >
                    <X aria-hidden className="h-4 w-4" />
                  </Dialog.Close>
                }
              />
            </Dialog.Content>
          </Dialog.Portal>
        </Dialog.Root>
        {children}
      </div>
    </div>
  )
}

function SidebarContents({
  role,
  productName,
  collapsed,
  control,
}: {
  role: Role
  productName: string
  collapsed: boolean
  control: ReactNode
}) {
  const navigation = sidebarNavigation(role)
  const signOut = useSignOut()
  return (
    <>
      <div className={cn('flex items-start gap-2 p-2', collapsed && 'justify-center')}>
        {/* Collapsed, the name and badge stay for screen readers only. */}
        <div className={cn('min-w-0 flex-1 px-1 py-1', collapsed && 'sr-only')}>
          <p className="truncate font-semibold" data-testid="sidebar-product">
            {productName}
          </p>
          <p
            className="mt-1 inline-block rounded-full bg-gray-200 px-2 py-0.5 text-xs font-medium text-gray-800 dark:bg-gray-800 dark:text-gray-100"
            data-testid="sidebar-role"
          >
            {roleBadge(role)}
          </p>
        </div>
        {control}
      </div>
      <nav aria-label="Sidebar" className="flex flex-1 flex-col gap-4 overflow-y-auto p-2">
        <NavGroup label="Dashboard" entries={navigation.dashboard} collapsed={collapsed} />
        <NavGroup label="Account" entries={navigation.account} collapsed={collapsed} />
      </nav>
      <div className="border-t border-gray-200 p-2 dark:border-gray-800">
        <button
          type="button"
          onClick={() => void signOut()}
          title={collapsed ? 'Log out' : undefined}
          className={cn(
            'flex h-9 w-full items-center gap-2 rounded-md px-2 text-sm font-medium text-red-700 -outline-offset-2 hover:bg-red-50 dark:text-red-400 dark:hover:bg-red-950',
            collapsed && 'justify-center px-0',
          )}
        >
          <LogOut aria-hidden className="h-4 w-4 shrink-0" />
          <span className={cn(collapsed && 'sr-only')}>Log out</span>
        </button>
      </div>
    </>
  )
}

function NavGroup({
  label,
  entries,
  collapsed,
}: {
  label: string
  entries: NavEntry[]
  collapsed: boolean
}) {
  const labelId = useId()
  // The dashboards' layout counts the plan requests waiting for this admin (ADR 079).
  const planRequests =
    useRouteLoaderData<{ planRequests?: number }>('routes/dashboard')?.planRequests ?? 0
  return (
    <div>
      <p
        id={labelId}
        className={cn(
          'px-2 pb-1 text-xs font-medium tracking-wide text-gray-600 uppercase dark:text-gray-400',
          collapsed && 'sr-only',
        )}
      >
        {label}
      </p>
      <ul aria-labelledby={labelId} className="flex flex-col gap-0.5">
        {entries.map((item) => (
          <li key={item.id}>
            <NavLink
              to={item.to}
              // The Overview is the area's root: only its own page marks it current.
              end={item.id === 'dashboard'}
              title={collapsed ? item.label : undefined}
              className={({ isActive }) =>
                cn(
                  'flex h-9 items-center gap-2 rounded-md px-2 text-sm text-gray-700 -outline-offset-2 hover:bg-gray-200 hover:text-gray-900 dark:text-gray-300 dark:hover:bg-gray-800 dark:hover:text-white',
                  collapsed && 'justify-center px-0',
                  isActive &&
                    'bg-white font-semibold text-gray-900 shadow-sm ring-1 ring-gray-200 dark:bg-gray-800 dark:text-white dark:ring-gray-700',
                )
              }
            >
              <item.icon aria-hidden className="h-4 w-4 shrink-0" />
              <span className={cn('truncate', collapsed && 'sr-only')}>{item.label}</span>
              {item.id === 'end-users' && planRequests > 0 ? (
                <span
                  data-testid="plan-requests-badge"
                  className={cn(
                    'ml-auto rounded-full bg-amber-500 px-1.5 text-xs font-semibold text-gray-950',
                    collapsed && 'absolute -mt-5 ml-5 px-1',
                  )}
                >
                  {planRequests}
                  <span className="sr-only">
                    {planRequests === 1 ? ' plan request' : ' plan requests'}
                  </span>
                </span>
              ) : null}
            </NavLink>
          </li>
        ))}
      </ul>
    </div>
  )
}
