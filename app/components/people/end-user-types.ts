// What the End Users screen shows of a person, an agency, a team member and a handed-over seat.
import type { Role } from '#app/auth/roles'
import type { PlanId } from '#app/teams/plans'

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
