// "Your webhook endpoint was disabled" (issue 43 point 3, ADR 093): every attempt to reach it
// failed for days, so nothing more is sent until an admin turns it on again. The email names the
// endpoint by its host only: a URL may carry a token in its path or query.
import { type EmailRecipient, personalEmail } from './layout.server'

export function webhookDisabledEmail(
  options: EmailRecipient & { endpointHost: string; lastError: string; screenUrl: string },
) {
  const { branding, endpointHost, lastError, screenUrl } = options
  return personalEmail(options, {
    subject: `A ${branding.name} webhook endpoint was disabled`,
    heading: 'A webhook endpoint was disabled',
    paragraphs: [
      `Every attempt to deliver events to the endpoint at ${endpointHost} failed for three days, so it was disabled and nothing more is sent to it.`,
      `The last attempt's error: ${lastError}`,
      'Fix the receiver, then turn the endpoint on again and resend what it missed from the delivery log.',
    ],
    action: { label: 'Open the webhooks', url: screenUrl },
    footnote: 'You receive this email because you are an administrator of this agency.',
  })
}
