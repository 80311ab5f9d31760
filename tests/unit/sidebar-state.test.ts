// The sidebar's state cookie (roles-teams-admin.md §2.2, §9): read on the server for the first
// paint, written by the browser for 7 days.
import { expect, test } from 'vitest'
import { readSidebarOpen, SIDEBAR_COOKIE, sidebarCookie } from '#app/navigation/sidebar-state'

test('a first visit, or any value but false, shows the sidebar expanded', () => {
  expect(readSidebarOpen(null)).toBe(true)
  expect(readSidebarOpen('other=1')).toBe(true)
  expect(readSidebarOpen(`${SIDEBAR_COOKIE}=true; other=1`)).toBe(true)
  expect(readSidebarOpen(`other=1; ${SIDEBAR_COOKIE}=false`)).toBe(false)
})

test('the cookie lasts 7 days for the whole site, Secure on https', () => {
  expect(sidebarCookie(false, false)).toBe(
    `${SIDEBAR_COOKIE}=false; Path=/; Max-Age=604800; SameSite=Lax`,
  )
  expect(sidebarCookie(true, true)).toMatch(/^sidebar_state=true; .*; Secure$/)
  expect(readSidebarOpen(sidebarCookie(false, true).split(';')[0] ?? '')).toBe(false)
})
