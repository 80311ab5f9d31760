import { INVITATION_EXPIRES_IN } from '#app/validation/invitation-lifetime'
import { type EmailBranding, renderActionEmail } from './layout.server'

export function teamInvitationEmail(options: {
  branding: EmailBranding
  to: string
  inviterName: string
  teamName: string
  role: string
  acceptUrl: string
  declineUrl: string
}) {
  const { branding, to, inviterName, teamName, role, acceptUrl, declineUrl } = options
  const { html, text } = renderActionEmail({
    branding,
    heading: `Join ${teamName}`,
    paragraphs: [
      'Hi there,',
      `${inviterName} invited you to join the team “${teamName}” on ${branding.name} as ${role === 'admin' ? 'an' : 'a'} ${role}.`,
      `Open the link to accept. If you do not have an account yet, you can create one with this email address (${to}). ${INVITATION_EXPIRES_IN}`,
    ],
    action: { label: 'Accept invitation', url: acceptUrl },
    secondaryAction: { label: 'Decline invitation', url: declineUrl },
    footnote: "If you weren't expecting this invitation, you can ignore this email.",
  })
  return { to, subject: `${inviterName} invited you to join ${teamName}`, html, text }
}
