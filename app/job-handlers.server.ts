// Every kind of queued job and the code that runs it.

import { fanOutAnnouncement } from '#app/announcements/send-announcements.server'
import { passwordResetJob } from '#app/auth/accounts.server'
import { takeDailyBackup } from '#app/backups/backups.server'
import {
  graceEndJob,
  graceReminderJob,
  stripeEventJob,
} from '#app/billing/stripe-event-jobs.server'
import { followDigestJob } from '#app/cards/card-follow.server'
import { googleWalletPatchJob } from '#app/cards/google-wallet.server'
import { deleteContactFromCrm, forwardContactToCrm } from '#app/crm/forwarding.server'
import { buildDataExportJob } from '#app/data-export/data-export.server'
import {
  checkSendingDomainJob,
  expireSendingDomainJob,
  removeProviderDomainJob,
} from '#app/domains/sending-domain-verification.server'
import { deliverEmail } from '#app/email/mailer.server'
import { type JobHandlers, runDueJobs, startJobWorker } from '#app/jobs/worker.server'
import { sweepMedia } from '#app/media/media-sweep.server'
import { accountDeletionJob, requeueOverdueDeletions } from '#app/people/account-deletion.server'
import { movedNoticeJob } from '#app/people/personal-card.server'
import { manageLinkJob } from '#app/people/personal-card-manage.server'
import { refreshWalletPasses } from '#app/wallet/refresh-passes.server'
import { cardViewsDigestJob } from '#app/webhooks/webhook-card-views.server'
import { deliverWebhookJob } from '#app/webhooks/webhook-delivery.server'

export const jobHandlers: JobHandlers = {
  'email.send': deliverEmail,
  // An agency's announcement, one email per opted-in end user, in committed batches (ADR 046).
  'announcement.send': fanOutAnnouncement,
  'auth.password-reset': passwordResetJob,
  'crm.forward': forwardContactToCrm,
  // A lead that deleted their data through their receipt link, deleted in the CRM (ADR 050).
  'crm.delete': deleteContactFromCrm,
  // An agency's sending domain, asked of the provider again (ADR 026); each check queues the next.
  'sending-domain.check': checkSendingDomainJob,
  // A deleted agency's sending domain, removed from the provider's account after the deletion.
  'sending-domain.remove': removeProviderDomainJob,
  // A sending domain still unverified DOMAIN_CLAIM_DAYS after it was added or lost is released.
  'sending-domain.expire': expireSendingDomainJob,
  // A card's Google Wallet object brought up to date after an edit (ADR 043).
  'google-wallet.patch': googleWalletPatchJob,
  // One per day (enqueueDailyJobs), whichever process takes it: DATA_DIR/backups (ADR 018).
  'backup.daily': {
    async run() {
      await takeDailyBackup()
    },
  },
  // Hourly (enqueueDailyJobs): unreferenced images deleted after their grace (ADR 029), and
  // account deletions past their date queued again (ADR 053).
  'media.sweep': {
    async run() {
      await sweepMedia()
      await requeueOverdueDeletions()
    },
  },
  // Queued by the database on any write a wallet pass may show (ADR 042): new versions, pushed.
  'wallet.refresh': { run: refreshWalletPasses },
  // A verified Stripe event applied to its account, once (ADR 051).
  'billing.stripe-event': stripeEventJob,
  // A failed payment's grace period over: an account still unpaid falls back to Free (ADR 051).
  'billing.grace-end': graceEndJob,
  // "Delete my account" after its grace period, unless a sign-in cancelled it (ADR 053).
  'account.delete': accountDeletionJob,
  // A person's "Download my data": the zip built and kept for 7 days, the owner emailed (ADR 052).
  'data-export.build': buildDataExportJob,
  'billing.grace-reminder': graceReminderJob,
  // One attempt of a signed webhook delivery; a failure queues the next (ADR 093).
  'webhook.deliver': deliverWebhookJob,
  // Hourly (enqueueDailyJobs): the previous hour's card.viewed digest per agency (ADR 093).
  'webhook.card-views': cardViewsDigestJob,
  // Queued by the database when a followed card's title, company, phone, email or photo changes:
  // the followers' digest with the new vCard, at most one a day per card (ADR 102).
  'card-follow.digest': followDigestJob,
  // A departed person's followers told once that they moved to a personal card (ADR 103).
  'personal-card.moved': movedNoticeJob,
  // A personal card's owner asked for a link to edit or remove it (ADR 106).
  'personal-card.manage-link': manageLinkJob,
}

export function startJobs(log: (message: string) => void) {
  startJobWorker(jobHandlers, log)
}

const EVERY_DUE_JOB = 1000

/**
 * Runs every due job now, in this process: tests, and work that should not wait for a poll.
 * A queue that never empties (a retry due at once, again and again) is an error, not a thousand
 * silent runs; a caller that means to stop early says after how many jobs (`limit`).
 */
export async function runJobsNow(log?: (message: string) => void, limit?: number) {
  const ran = await runDueJobs(jobHandlers, log, limit ?? EVERY_DUE_JOB)
  if (limit === undefined && ran >= EVERY_DUE_JOB)
    throw new Error(`The job queue was not empty after ${EVERY_DUE_JOB} jobs: one keeps coming due`)
  return ran
}
