export const TEAM_PAGE_PATH = '/dashboard/end-user/team'

export const teamPagePath = (teamId?: string | null) =>
  teamId ? `${TEAM_PAGE_PATH}?${new URLSearchParams({ team: teamId })}` : TEAM_PAGE_PATH

export const PLANS_VIEW_PATH = `${TEAM_PAGE_PATH}?view=plans`
