export const TEAM_PAGE_PATH = '/dashboard/end-user/team'

export const teamPagePath = (teamId?: string | null) =>
  teamId ? `${TEAM_PAGE_PATH}?${new URLSearchParams({ team: teamId })}` : TEAM_PAGE_PATH

export const PLANS_VIEW_PATH = `${TEAM_PAGE_PATH}?view=plans`

/** An invitation link answers accept, or decline on its /decline path (one route module). */
export const invitationAnswerOfPath = (pathname: string): 'accept' | 'decline' =>
  pathname.replace(/\/+$/, '').endsWith('/decline') ? 'decline' : 'accept'
