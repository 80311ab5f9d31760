// What the End Users screen shows of a person, an agency, a team member and a handed-over seat.

import type { PlanId } from '#app/validation/plans'
import type { Role } from '#app/validation/roles'

export type Person = {
  id: string
  name: string
  email: string
  organizationId: string
  agency: string
  role: Role
  status: 'active' | 'inactive'
  plan: PlanId
  lastActiveAt: string | null
  assignedToUserId?: string | null
}
export type Agency = { id: string; name: string; kind: 'platform' | 'agency' }
export type TeamMember = { id: string; name: string }

export type HandOverRow = {
  userId: string
  name: string
  status: 'active' | 'inactive'
  successorName: string
  successorActive: boolean
  handedOverAt: string
}

/** The list's filter as the loader read it from the address. */
export type EndUsersFilterView = {
  search: string
  searchError: string | null
  organizationId: string | null
  status: 'active' | 'inactive' | null
  assignedToUserId?: string | null
  role?: Role | null
}
