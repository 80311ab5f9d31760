import { type EmailBranding, teamUpdatesEmail } from './layout.server'

/**
 * What someone else changed about a team member's place in the agency (the team member's Team
 * Updates, ADR 046): the end users they manage, their role, their account's status.
 */
export type TeamMemberUpdate =
  | { kind: 'assigned'; endUserName: string }
  | { kind: 'unassigned'; endUserName: string }
  | { kind: 'end_user_removed'; endUserName: string }
  | { kind: 'role_changed'; from: string; to: string }
  | { kind: 'deactivated' }
  | { kind: 'reactivated' }

function wording(update: TeamMemberUpdate, actorName: string) {
  switch (update.kind) {
    case 'assigned':
      return {
        subject: `${update.endUserName} is now assigned to you`,
        heading: 'An end user was assigned to you',
        line: `${actorName} assigned ${update.endUserName} to you. They are now on your My End Users list.`,
      }
    case 'unassigned':
      return {
        subject: `${update.endUserName} is no longer assigned to you`,
        heading: 'An end user is no longer assigned to you',
        line: `${actorName} took ${update.endUserName} off your My End Users list.`,
      }
    case 'end_user_removed':
      return {
        subject: `${update.endUserName} was removed`,
        heading: 'An end user you managed was removed',
        line: `${actorName} deleted the account of ${update.endUserName}, who was assigned to you.`,
      }
    case 'role_changed':
      return {
        subject: `Your role is now ${update.to}`,
        heading: 'Your role changed',
        line: `${actorName} changed your role from ${update.from} to ${update.to}. Sign in again to use it.`,
      }
    case 'deactivated':
      return {
        subject: 'Your account was deactivated',
        heading: 'Your account was deactivated',
        line: `${actorName} deactivated your account: you cannot sign in until it is activated again.`,
      }
    case 'reactivated':
      return {
        subject: 'Your account is active again',
        heading: 'Your account is active again',
        line: `${actorName} activated your account again: you can sign in.`,
      }
  }
}

/** Carries the one-click unsubscribe headers (RFC 8058) like every notification. */
export function teamMemberUpdateEmail(options: {
  branding: EmailBranding
  to: string
  firstName: string
  actorName: string
  update: TeamMemberUpdate
  unsubscribeUrl: string
}) {
  const { branding, to, firstName, actorName, update, unsubscribeUrl } = options
  const words = wording(update, actorName)
  const listed = ['assigned', 'unassigned', 'end_user_removed'].includes(update.kind)
  return teamUpdatesEmail(
    { to, subject: words.subject, unsubscribeUrl },
    {
      branding,
      heading: words.heading,
      paragraphs: [`Hi ${firstName || 'there'},`, words.line],
      action: listed
        ? { label: 'Open My End Users', url: `${branding.origin}/dashboard/team-member/users` }
        : { label: `Open ${branding.name}`, url: `${branding.origin}/auth/login` },
    },
  )
}
