// A local stand-in for the parts of Stripe's API the app uses (ADR 051), on 127.0.0.1: customers
// and their card payment methods, Checkout Sessions, billing portal sessions, invoices and
// subscriptions, with Stripe's form-encoded requests, bearer keys, list objects and error
// bodies. It also plays the hosted pages: a Checkout page whose Pay button completes the
// session (a subscription, a Visa card, a paid invoice) and redirects to its success_url, and a
// portal page that links back. Events are signed with Stripe's scheme (t=…,v1=HMAC-SHA256 of
// `${t}.${payload}`, through the stripe package's own generateTestHeaderString) and delivered
// to the app's webhook; tests drive renewals and failures with the methods below (or, from
// another process, POST /__fake/fail-invoice).
import { randomBytes } from 'node:crypto'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import Stripe from 'stripe'
import { readBody, send } from './fake-http'

export const FAKE_STRIPE_KEY = 'sk_test_brandcard_fake'
export const FAKE_STRIPE_WEBHOOK_SECRET = 'whsec_brandcard_fake_secret'
/** The prices the fake sells: the app's STRIPE_PRICE_* point at these. */
export const FAKE_PRICES = {
  team_basic: { id: 'price_team_basic', amount: 1900 },
  team_pro: { id: 'price_team_pro', amount: 4900 },
  agency_pro: { id: 'price_agency_pro', amount: 9900 },
  team_member_basic: { id: 'price_team_member_basic', amount: 4900 },
} as const

type Obj = Record<string, unknown> & { id: string }
type Delivery = (payload: string, signature: string) => Promise<number>

export type FakeStripe = {
  url: string
  customers: Map<string, Obj>
  sessions: Map<string, Obj>
  subscriptions: Map<string, Obj>
  invoices: Obj[]
  /** Every event sent, with the status the app answered. */
  events: { event: Obj; status: number }[]
  /** The API requests, as `METHOD /path`. */
  requests: string[]
  /** Where events go: the app's URL, or a function (integration tests call the route). */
  setDelivery(delivery: string | Delivery): void
  /** Stripe's clock for new events, in seconds (tests move it instead of waiting). */
  setClock(now: () => number): void
  /** The Checkout page's Pay button, without a browser. Returns the success URL. */
  pay(sessionId: string): Promise<string>
  /** A renewal's invoice that fails: invoice.payment_failed, the subscription past due. */
  failInvoice(subscriptionId: string): Promise<Obj>
  /** A renewal's invoice paid: invoice.paid, the subscription active. */
  payInvoice(subscriptionId: string): Promise<Obj>
  /** The subscription moved to another price (as in the portal): customer.subscription.updated. */
  changePrice(subscriptionId: string, priceId: string): Promise<void>
  /** The subscription ended: customer.subscription.deleted. */
  cancel(subscriptionId: string): Promise<void>
  /**
   * Signs and delivers an event; returns the app's status. `signedAt` (seconds) dates the
   * signature, as a clock ahead or behind would.
   */
  send(
    type: string,
    object: Obj,
    options?: { id?: string; signature?: string; signedAt?: number },
  ): Promise<number>
  /**
   * Stripe does not deliver events in order: events of these types are made (and the objects
   * change) as usual, but kept back until release(). held() lists them. A new hold drops what
   * an earlier one kept (never delivered, as when Stripe gives up on an endpoint).
   */
  hold(types: string[]): void
  /**
   * A slow Stripe: reads of a subscription (`GET /v1/subscriptions/:id`) wait until the returned
   * function is called. `reading()` tells how many wait.
   */
  stallReads(): () => void
  reading(): number
  held(): string[]
  /** Delivers the kept events, each signed when it goes (as Stripe signs every attempt). */
  release(): Promise<number[]>
  /** Sends the same payload and signature again (a replay). */
  resend(index: number): Promise<number>
  close(): Promise<void>
}

/** Stripe's bracket notation (`line_items[0][price]=…`) read into nested objects and arrays. */
export function parseStripeForm(raw: string) {
  const root: Record<string, unknown> = {}
  for (const [key, value] of new URLSearchParams(raw)) {
    const parts = key.replace(/\]/g, '').split('[')
    let node: Record<string, unknown> = root
    parts.forEach((part, index) => {
      if (index === parts.length - 1) {
        node[part] = value
        return
      }
      const next = parts[index + 1] ?? ''
      node[part] ??= /^\d+$/.test(next) ? [] : {}
      node = node[part] as Record<string, unknown>
    })
  }
  return root
}

const newId = (prefix: string) => `${prefix}_${randomBytes(8).toString('hex')}`

const list = (data: Obj[], url: string) => ({ object: 'list', data, has_more: false, url })

const stripeError = (res: ServerResponse, status: number, message: string) =>
  send(res, status, { error: { type: 'invalid_request_error', message } })

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${title}</title></head><body><main><h1>${title}</h1>${body}</main></body></html>`

const escapeHtml = (value: string) =>
  value.replace(
    /[&<>"]/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] ?? c,
  )

export async function startFakeStripe(
  options: { port?: number; webhookSecret?: string; apiKey?: string } = {},
): Promise<FakeStripe> {
  const secret = options.webhookSecret ?? FAKE_STRIPE_WEBHOOK_SECRET
  const apiKey = options.apiKey ?? FAKE_STRIPE_KEY
  const signer = new Stripe(apiKey)
  const customers = new Map<string, Obj>()
  const sessions = new Map<string, Obj>()
  const subscriptions = new Map<string, Obj>()
  const portals = new Map<string, Obj>()
  const paymentMethods: Obj[] = []
  const invoices: Obj[] = []
  const events: { event: Obj; status: number; payload: string; signature: string }[] = []
  const requests: string[] = []
  let delivery: Delivery = async () => 0
  let clock = () => Math.floor(Date.now() / 1000)
  let url = ''

  async function deliver(payload: string, signature: string) {
    try {
      return await delivery(payload, signature)
    } catch {
      return 0
    }
  }

  let holding: string[] = []
  const kept: { event: Obj; payload: string }[] = []

  async function sendEvent(
    type: string,
    object: Obj,
    eventOptions: { id?: string; signature?: string; signedAt?: number } = {},
  ) {
    const created = clock()
    const event: Obj = {
      id: eventOptions.id ?? newId('evt'),
      object: 'event',
      api_version: Stripe.API_VERSION,
      created,
      type,
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      data: { object: structuredClone(object) },
    }
    const payload = JSON.stringify(event, null, 2)
    if (holding.includes(type)) {
      kept.push({ event, payload })
      return 0
    }
    const signature =
      eventOptions.signature ??
      // Signed when sent (Stripe's tolerance is five minutes), whatever the event's own time.
      signer.webhooks.generateTestHeaderString({
        payload,
        secret,
        ...(eventOptions.signedAt === undefined ? {} : { timestamp: eventOptions.signedAt }),
      })
    const status = await deliver(payload, signature)
    events.push({ event, status, payload, signature })
    return status
  }

  function priceOf(priceId: string) {
    const price = Object.values(FAKE_PRICES).find((p) => p.id === priceId)
    return {
      id: priceId,
      object: 'price',
      currency: 'usd',
      unit_amount: price?.amount ?? 0,
      recurring: { interval: 'month', interval_count: 1 },
    }
  }

  function makeInvoice(subscription: Obj, status: 'paid' | 'open') {
    const items = subscription.items as { data: { price: { id: string; unit_amount: number } }[] }
    const amount = items.data[0]?.price.unit_amount ?? 0
    const invoice: Obj = {
      id: newId('in'),
      object: 'invoice',
      number: `BC-${String(invoices.length + 1).padStart(4, '0')}`,
      customer: subscription.customer,
      created: clock(),
      currency: 'usd',
      amount_due: amount,
      amount_paid: status === 'paid' ? amount : 0,
      status,
      hosted_invoice_url: `${url}/invoice/${invoices.length + 1}`,
      parent: {
        type: 'subscription_details',
        quote_details: null,
        subscription_details: {
          subscription: subscription.id,
          metadata: subscription.metadata,
        },
      },
    }
    invoices.unshift(invoice)
    return invoice
  }

  function requireSubscription(id: string) {
    const subscription = subscriptions.get(id)
    if (!subscription) throw new Error(`no subscription ${id}`)
    return subscription
  }

  async function pay(sessionId: string) {
    const session = sessions.get(sessionId)
    if (!session) throw new Error(`no session ${sessionId}`)
    if (session.status === 'complete') return String(session.success_url)
    const customer = String(session.customer)
    paymentMethods.push({
      id: newId('pm'),
      object: 'payment_method',
      type: 'card',
      customer,
      card: { brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2030, funding: 'credit' },
    })
    const priceId = String(session.price)
    const data = (session.subscription_data ?? {}) as { metadata?: Record<string, string> }
    const subscription: Obj = {
      id: newId('sub'),
      object: 'subscription',
      customer,
      status: 'active',
      metadata: data.metadata ?? {},
      cancel_at_period_end: false,
      items: {
        object: 'list',
        data: [
          { id: newId('si'), object: 'subscription_item', price: priceOf(priceId), quantity: 1 },
        ],
      },
    }
    subscriptions.set(subscription.id, subscription)
    Object.assign(session, {
      status: 'complete',
      payment_status: 'paid',
      subscription: subscription.id,
    })
    const invoice = makeInvoice(subscription, 'paid')
    await sendEvent('checkout.session.completed', session)
    await sendEvent('invoice.paid', invoice)
    return String(session.success_url)
  }

  let readGate: Promise<void> | null = null
  let stalled = 0

  async function api(
    req: IncomingMessage,
    res: ServerResponse,
    path: string,
    query: URLSearchParams,
  ) {
    if (req.headers.authorization !== `Bearer ${apiKey}`) {
      return stripeError(res, 401, 'Invalid API Key provided')
    }
    const body = req.method === 'POST' ? parseStripeForm(await readBody(req)) : {}
    requests.push(`${req.method} ${path}`)
    const customerMethods = /^\/v1\/customers\/([^/]+)\/payment_methods$/.exec(path)
    const subscriptionPath = /^\/v1\/subscriptions\/([^/]+)$/.exec(path)
    if (req.method === 'POST' && path === '/v1/customers') {
      const customer: Obj = {
        id: newId('cus'),
        object: 'customer',
        email: body.email ?? null,
        name: body.name ?? null,
        metadata: body.metadata ?? {},
      }
      customers.set(customer.id, customer)
      return send(res, 200, customer)
    }
    if (req.method === 'GET' && customerMethods) {
      const id = customerMethods[1] ?? ''
      if (!customers.has(id)) return stripeError(res, 404, `No such customer: '${id}'`)
      const cards = paymentMethods.filter((pm) => pm.customer === id).reverse()
      return send(res, 200, list(cards.slice(0, Number(query.get('limit') ?? 10)), path))
    }
    if (req.method === 'POST' && path === '/v1/checkout/sessions') {
      const lineItems = (body.line_items ?? []) as { price?: string }[]
      const price = lineItems[0]?.price ?? ''
      if (body.mode !== 'subscription' || !Object.values(FAKE_PRICES).some((p) => p.id === price)) {
        return stripeError(res, 400, `No such price: '${price}'`)
      }
      if (!customers.has(String(body.customer))) {
        return stripeError(res, 400, `No such customer: '${String(body.customer)}'`)
      }
      const id = newId('cs_test')
      const session: Obj = {
        id,
        object: 'checkout.session',
        mode: 'subscription',
        status: 'open',
        payment_status: 'unpaid',
        customer: body.customer,
        client_reference_id: body.client_reference_id ?? null,
        metadata: body.metadata ?? {},
        subscription: null,
        subscription_data: body.subscription_data ?? {},
        success_url: body.success_url,
        cancel_url: body.cancel_url,
        price,
        url: `${url}/checkout/${id}`,
      }
      sessions.set(id, session)
      return send(res, 200, session)
    }
    if (req.method === 'POST' && path === '/v1/billing_portal/sessions') {
      if (!customers.has(String(body.customer))) {
        return stripeError(res, 400, `No such customer: '${String(body.customer)}'`)
      }
      const id = newId('bps')
      const portal: Obj = {
        id,
        object: 'billing_portal.session',
        customer: body.customer,
        return_url: body.return_url ?? null,
        url: `${url}/portal/${id}`,
      }
      portals.set(id, portal)
      return send(res, 200, portal)
    }
    if (req.method === 'GET' && path === '/v1/invoices') {
      const customer = query.get('customer')
      const own = invoices.filter((invoice) => !customer || invoice.customer === customer)
      return send(res, 200, list(own.slice(0, Number(query.get('limit') ?? 10)), path))
    }
    if (req.method === 'GET' && subscriptionPath) {
      if (readGate) {
        stalled += 1
        await readGate
        stalled -= 1
      }
      const subscription = subscriptions.get(subscriptionPath[1] ?? '')
      return subscription
        ? send(res, 200, subscription)
        : stripeError(res, 404, `No such subscription: '${subscriptionPath[1]}'`)
    }
    return stripeError(res, 404, `Unrecognized request URL (${req.method}: ${path})`)
  }

  async function hosted(req: IncomingMessage, res: ServerResponse, path: string) {
    const checkoutPath = /^\/checkout\/([^/]+)$/.exec(path)
    const portalPath = /^\/portal\/([^/]+)$/.exec(path)
    if (checkoutPath) {
      const session = sessions.get(checkoutPath[1] ?? '')
      if (!session) return send(res, 404, { error: 'no such session' })
      if (req.method === 'POST') {
        const success = await pay(session.id)
        res.writeHead(303, { Location: success })
        return res.end()
      }
      const price = priceOf(String(session.price))
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' })
      return res.end(
        page(
          'Fake Stripe Checkout',
          `<p>Subscribe for $${price.unit_amount / 100} per month</p><form method="post"><button type="submit">Pay</button></form><p><a href="${escapeHtml(String(session.cancel_url))}">Cancel</a></p>`,
        ),
      )
    }
    if (portalPath) {
      const portal = portals.get(portalPath[1] ?? '')
      if (!portal) return send(res, 404, { error: 'no such portal session' })
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' })
      return res.end(
        page(
          'Fake Stripe billing portal',
          `<a href="${escapeHtml(String(portal.return_url))}">Return</a>`,
        ),
      )
    }
    if (req.method === 'POST' && path === '/__fake/fail-invoice') {
      const { subscription } = JSON.parse(await readBody(req)) as { subscription?: string }
      const id = subscription ?? [...subscriptions.keys()].at(-1) ?? ''
      try {
        return send(res, 200, await failInvoice(id))
      } catch (error) {
        return send(res, 404, { error: String(error) })
      }
    }
    if (req.method === 'GET' && path === '/__fake/state') {
      return send(res, 200, {
        subscriptions: [...subscriptions.values()],
        events: events.map((e) => ({ type: e.event.type, status: e.status })),
      })
    }
    return send(res, 404, { error: 'not found' })
  }

  async function failInvoice(subscriptionId: string) {
    const subscription = requireSubscription(subscriptionId)
    subscription.status = 'past_due'
    const invoice = makeInvoice(subscription, 'open')
    await sendEvent('invoice.payment_failed', invoice)
    return invoice
  }

  const server: Server = createServer((req, res) => {
    const parsed = new URL(req.url ?? '/', 'http://127.0.0.1')
    const handle = parsed.pathname.startsWith('/v1/')
      ? api(req, res, parsed.pathname, parsed.searchParams)
      : hosted(req, res, parsed.pathname)
    handle.catch((error: unknown) => {
      if (!res.headersSent) stripeError(res, 500, String(error))
    })
  })
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve))
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`

  return {
    url,
    customers,
    sessions,
    subscriptions,
    invoices,
    events,
    requests,
    setDelivery(target) {
      delivery =
        typeof target === 'string'
          ? async (payload, signature) => {
              const answer = await fetch(target, {
                method: 'POST',
                headers: { 'Content-Type': 'application/json', 'Stripe-Signature': signature },
                body: payload,
              })
              return answer.status
            }
          : target
    },
    setClock(now) {
      clock = now
    },
    pay,
    failInvoice,
    async payInvoice(subscriptionId) {
      const subscription = requireSubscription(subscriptionId)
      subscription.status = 'active'
      const invoice = makeInvoice(subscription, 'paid')
      await sendEvent('invoice.paid', invoice)
      return invoice
    },
    async changePrice(subscriptionId, priceId) {
      const subscription = requireSubscription(subscriptionId)
      const items = subscription.items as { data: { price: unknown }[] }
      const item = items.data[0]
      if (item) item.price = priceOf(priceId)
      await sendEvent('customer.subscription.updated', subscription)
    },
    async cancel(subscriptionId) {
      const subscription = requireSubscription(subscriptionId)
      subscription.status = 'canceled'
      await sendEvent('customer.subscription.deleted', subscription)
    },
    send: sendEvent,
    stallReads() {
      let open = () => {}
      readGate = new Promise<void>((resolve) => {
        open = resolve
      })
      return () => {
        readGate = null
        open()
      }
    },
    reading: () => stalled,
    hold(types) {
      holding = types
      kept.length = 0
    },
    held: () => kept.map(({ event }) => String(event.type)),
    async release() {
      holding = []
      const statuses: number[] = []
      for (const { event, payload } of kept.splice(0)) {
        const signature = signer.webhooks.generateTestHeaderString({ payload, secret })
        const status = await deliver(payload, signature)
        events.push({ event, status, payload, signature })
        statuses.push(status)
      }
      return statuses
    },
    async resend(index) {
      const sent = events[index]
      if (!sent) throw new Error(`no event ${index}`)
      return deliver(sent.payload, sent.signature)
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}

const STRIPE_ENV = [
  'STRIPE_SECRET_KEY',
  'STRIPE_WEBHOOK_SECRET',
  'STRIPE_PRICE_TEAM_BASIC',
  'STRIPE_PRICE_TEAM_PRO',
  'STRIPE_PRICE_AGENCY_PRO',
  'STRIPE_PRICE_TEAM_MEMBER_BASIC',
  'STRIPE_API_URL',
] as const

/** The app's Stripe settings pointing at the fake (the caller resets the parsed environment). */
export function stripeEnvFor(
  fake: Pick<FakeStripe, 'url'>,
): Record<(typeof STRIPE_ENV)[number], string> {
  return {
    STRIPE_SECRET_KEY: FAKE_STRIPE_KEY,
    STRIPE_WEBHOOK_SECRET: FAKE_STRIPE_WEBHOOK_SECRET,
    STRIPE_PRICE_TEAM_BASIC: FAKE_PRICES.team_basic.id,
    STRIPE_PRICE_TEAM_PRO: FAKE_PRICES.team_pro.id,
    STRIPE_PRICE_AGENCY_PRO: FAKE_PRICES.agency_pro.id,
    STRIPE_PRICE_TEAM_MEMBER_BASIC: FAKE_PRICES.team_member_basic.id,
    STRIPE_API_URL: fake.url,
  }
}

export function clearStripeEnv() {
  for (const name of STRIPE_ENV) delete process.env[name]
}
