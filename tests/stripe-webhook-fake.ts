// The fake Stripe (tests/fake-stripe.ts) wired to the app for integration tests: the app's Stripe
// settings point at it, and each event it sends reaches the webhook route's action as Stripe's
// signed POST would, after which the job queue runs (the events are applied by jobs).
import { resetEnvForTests } from '#app/env.server'
import { runJobsNow } from '#app/job-handlers.server'
import { action as webhookAction } from '#app/routes/api.stripe.webhook'
import { contextFor, settle } from '#tests/factories'
import { clearStripeEnv, type FakeStripe, startFakeStripe, stripeEnvFor } from '#tests/fake-stripe'

export async function startStripeForWebhook(): Promise<FakeStripe> {
  const fake = await startFakeStripe()
  Object.assign(process.env, stripeEnvFor(fake))
  resetEnvForTests()
  fake.setDelivery(async (payload, signature) => {
    const response = await settle(() =>
      webhookAction({
        request: new Request('http://localhost/api/stripe/webhook', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'Stripe-Signature': signature },
          body: payload,
        }),
        context: contextFor('localhost'),
        params: {},
      }),
    )
    await runJobsNow()
    return response.status
  })
  return fake
}

export async function stopStripeForWebhook(fake: FakeStripe) {
  clearStripeEnv()
  resetEnvForTests()
  await fake.close()
}
