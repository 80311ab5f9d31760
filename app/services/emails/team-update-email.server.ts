import { type EmailBranding, teamUpdatesEmail } from './layout.server'

export type TeamUpdate =
  | { kind: 'added'; teamName: string; role: string; actorName: string }
  | { kind: 'role_changed'; teamName: string; from: string; role: string; actorName: string }

const withArticle = (role: string) => `${role === 'admin' ? 'an' : 'a'} ${role}`

/**
 * Tells a team member what someone else changed about their place in a team (the Team Updates
 * notification, roles-teams-admin.md §2.6). An invitation has its own email: this one is for
 * changes that take effect without the member's answer. Carries the one-click unsubscribe
 * headers (RFC 8058) like every notification.
 */
export function teamUpdateEmail(options: {
  branding: EmailBranding
  to: string
  firstName: string
  update: TeamUpdate
  teamUrl: string
  unsubscribeUrl: string
}) {
  const { branding, to, firstName, update, teamUrl, unsubscribeUrl } = options
  const added = update.kind === 'added'
  return teamUpdatesEmail(
    {
      to,
      subject: added
        ? `You were added to ${update.teamName} on ${branding.name}`
        : `Your role in ${update.teamName} is now ${update.role}`,
      unsubscribeUrl,
    },
    {
      branding,
      heading: added ? `You joined ${update.teamName}` : `Your role in ${update.teamName} changed`,
      paragraphs: [
        `Hi ${firstName || 'there'},`,
        added
          ? `${update.actorName} added you to the team “${update.teamName}” as ${withArticle(update.role)}.`
          : `${update.actorName} changed your role in the team “${update.teamName}” from ${update.from} to ${update.role}.`,
      ],
      action: { label: 'Open your team', url: teamUrl },
    },
  )
}
