// The End Users screen's search and Filter: by team member (the agency's) or by agency and role
// (the super admin's), and by status.

import { LabelledSelect } from '#app/components/ui/labelled-select'
import { ROLE_BADGES } from '#app/user-accounts/user-accounts'
import type { Role } from '#app/validation/roles'
import type { Agency, EndUsersFilterView, TeamMember } from './end-user-types'
import { SearchBar } from './people-ui'

export function EndUserFilters({
  filter,
  agencyScope,
  teamMembers,
  agencies,
  listRoles,
}: {
  filter: EndUsersFilterView
  agencyScope: boolean
  teamMembers: TeamMember[]
  agencies: Agency[]
  listRoles: readonly Role[]
}) {
  return (
    <SearchBar q={filter.search} searchError={filter.searchError} label="Search by name or email">
      {agencyScope ? (
        <LabelledSelect
          id="filter-assignee"
          name="assignee"
          label="Team Member"
          defaultValue={filter.assignedToUserId ?? ''}
        >
          <option value="">All team members</option>
          {teamMembers.map((member) => (
            <option key={member.id} value={member.id}>
              {member.name}
            </option>
          ))}
        </LabelledSelect>
      ) : (
        <LabelledSelect
          id="filter-agency"
          name="agency"
          label="Agency"
          defaultValue={filter.organizationId ?? ''}
        >
          <option value="">All agencies</option>
          {agencies.map((agency) => (
            <option key={agency.id} value={agency.id}>
              {agency.name}
            </option>
          ))}
        </LabelledSelect>
      )}
      {agencyScope ? null : (
        <LabelledSelect id="filter-role" name="role" label="Role" defaultValue={filter.role ?? ''}>
          <option value="">All roles</option>
          {listRoles.map((value) => (
            <option key={value} value={value}>
              {ROLE_BADGES[value].label}
            </option>
          ))}
        </LabelledSelect>
      )}
      <LabelledSelect
        id="filter-status"
        name="status"
        label="Status"
        defaultValue={filter.status ?? ''}
      >
        <option value="">All statuses</option>
        <option value="active">Active</option>
        <option value="inactive">Inactive</option>
      </LabelledSelect>
    </SearchBar>
  )
}
