// The End Users screen's search and Filter: by team member (the agency's) or by agency and role
// (the super admin's), and by status.

import { byName, LabelledSelect, SelectOptions } from '#app/components/ui/labelled-select'
import { ROLE_BADGES } from '#app/user-accounts/user-accounts'
import type { Role } from '#app/validation/roles'
import type { Agency, EndUsersFilterView, TeamMember } from './end-user-types'
import { SearchBar } from './people-ui'

const STATUSES = [
  { value: 'active', label: 'Active' },
  { value: 'inactive', label: 'Inactive' },
]

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
          <SelectOptions empty="All team members" options={byName(teamMembers)} />
        </LabelledSelect>
      ) : (
        <LabelledSelect
          id="filter-agency"
          name="agency"
          label="Agency"
          defaultValue={filter.organizationId ?? ''}
        >
          <SelectOptions empty="All agencies" options={byName(agencies)} />
        </LabelledSelect>
      )}
      {agencyScope ? null : (
        <LabelledSelect id="filter-role" name="role" label="Role" defaultValue={filter.role ?? ''}>
          <SelectOptions
            empty="All roles"
            options={listRoles.map((value) => ({ value, label: ROLE_BADGES[value].label }))}
          />
        </LabelledSelect>
      )}
      <LabelledSelect
        id="filter-status"
        name="status"
        label="Status"
        defaultValue={filter.status ?? ''}
      >
        <SelectOptions empty="All statuses" options={STATUSES} />
      </LabelledSelect>
    </SearchBar>
  )
}
