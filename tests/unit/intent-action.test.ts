// The one action helper (issue 27 point 2, ADR 035): the guard before the form, the schema's
// refusals as conform replies, one handler per intent, Refusals (send limits included) as the
// replies the pages show, and a redirect with the handler's toast.
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest'
import { z } from 'zod'
import {
  formAction,
  type IntentHandlers,
  intentAction,
  postedUrl,
} from '#app/actions/intent-action.server'
import { resetEnvForTests } from '#app/env.server'
import { rateLimitMessage } from '#app/rate-limits/rate-limit.server'
import { Refusal } from '#app/utils/action-error'
import { readToast } from '#app/utils/toast.server'

const URL_POSTED = 'http://acme.localhost/dashboard/things?q=blue'

const ThingSchema = z.discriminatedUnion('intent', [
  z.object({
    intent: z.literal('rename'),
    name: z.string({ error: 'Name is required' }).min(2, 'Name must be at least 2 characters'),
  }),
  z.object({ intent: z.literal('delete'), thingId: z.string({ error: 'Thing ID is required' }) }),
])

type Body = { result: { error?: Record<string, string[]> }; intent: string | null; error: string }

function post(fields: Record<string, string>) {
  return new Request(URL_POSTED, { method: 'POST', body: new URLSearchParams(fields) })
}

const signedIn = { userId: 'user-1' }

function thingsAction(
  request: Request,
  intents: Partial<IntentHandlers<z.output<typeof ThingSchema>, typeof signedIn>> = {},
) {
  return intentAction(request, {
    guard: async () => signedIn,
    schema: ThingSchema,
    intents: {
      rename: async (value) => `Renamed to ${value.name}`,
      delete: async () => 'Thing deleted',
      ...intents,
    },
    redirectTo: postedUrl(request, '/dashboard/things'),
  }).then(asResponse)
}

/** A refusal comes back as data() (single fetch); a redirect as a Response. */
function asResponse(answer: unknown): Response {
  if (answer instanceof Response) return answer
  const refused = answer as { type?: string; data?: unknown; init?: ResponseInit | null }
  if (refused?.type === 'DataWithResponseInit') {
    return Response.json(refused.data, refused.init ?? undefined)
  }
  throw new Error('expected a Response or data()')
}

/** The toast a redirect carries, as the next page's root loader would read it. */
async function toastOf(response: Response) {
  const cookie = response.headers.get('Set-Cookie')?.split(';')[0] ?? ''
  const { toast } = await readToast(new Request(URL_POSTED, { headers: { Cookie: cookie } }))
  return toast
}

beforeAll(() => {
  process.env.APP_SECRET = 'intent-action-test-secret-of-32-characters'
  resetEnvForTests()
})
afterAll(() => {
  delete process.env.APP_SECRET
  resetEnvForTests()
})

describe('intentAction', () => {
  test('the guard runs first: a refused visitor gets its Response and the form is never read', async () => {
    const request = post({ intent: 'rename', name: 'New name' })
    const handler = vi.fn(async () => 'never')
    const refused = intentAction(request, {
      guard: async () => {
        throw new Response('Forbidden', { status: 403 })
      },
      schema: ThingSchema,
      intents: { rename: handler, delete: handler },
      redirectTo: '/dashboard/things',
    })
    await expect(refused).rejects.toMatchObject({ status: 403 })
    expect(request.bodyUsed).toBe(false)
    expect(handler).not.toHaveBeenCalled()
  })

  test('an intent reaches its handler with the parsed value and what the guard returned, then redirects with its toast', async () => {
    const rename = vi.fn(async (value: { name: string }) => `Renamed to ${value.name}`)
    const response = await thingsAction(post({ intent: 'rename', name: '  Blue  ' }), { rename })
    expect(rename).toHaveBeenCalledWith(
      { intent: 'rename', name: '  Blue  ' },
      signedIn,
      expect.any(FormData),
    )
    expect(response.status).toBe(302)
    // Back to the list as it was searched, without Remix's index marker.
    expect(response.headers.get('Location')).toBe('/dashboard/things?q=blue')
    expect(await toastOf(response)).toMatchObject({ type: 'success', title: 'Renamed to   Blue  ' })
  })

  test('a handler may add a line to its toast and land elsewhere than the action says', async () => {
    const response = await thingsAction(post({ intent: 'delete', thingId: 't-1' }), {
      delete: async () => ({
        toast: 'Thing deleted',
        description: 'Its card is gone too.',
        redirectTo: '/dashboard',
      }),
    })
    expect(response.headers.get('Location')).toBe('/dashboard')
    expect(await toastOf(response)).toMatchObject({
      title: 'Thing deleted',
      description: 'Its card is gone too.',
    })
  })

  test('a form the schema refuses: 400, the messages by field, the intent and the first message', async () => {
    const response = await thingsAction(post({ intent: 'rename', name: 'x' }))
    expect(response.status).toBe(400)
    const body = (await response.json()) as Body
    expect(body.intent).toBe('rename')
    expect(body.error).toBe('Name must be at least 2 characters')
    expect(body.result.error).toEqual({ name: ['Name must be at least 2 characters'] })
  })

  test('an intent the schema does not know is refused the same way, nothing dispatched', async () => {
    const handler = vi.fn(async () => 'never')
    const response = await thingsAction(post({ intent: 'explode' }), {
      rename: handler,
      delete: handler,
    })
    expect(response.status).toBe(400)
    const body = (await response.json()) as Body
    expect(body.intent).toBe('explode')
    expect(body.error).toEqual(expect.any(String))
    expect(handler).not.toHaveBeenCalled()
  })

  test('a form without an intent answers with intent null', async () => {
    const response = await thingsAction(post({ name: 'Blue' }))
    expect(response.status).toBe(400)
    expect(((await response.json()) as Body).intent).toBeNull()
  })

  test('a Refusal with a field: its status, its message next to that field', async () => {
    const response = await thingsAction(post({ intent: 'rename', name: 'Taken' }), {
      rename: async () => {
        throw new Refusal('conflict', 'This name is already taken', { field: 'name' })
      },
    })
    expect(response.status).toBe(409)
    const body = (await response.json()) as Body
    expect(body).toMatchObject({ intent: 'rename', error: 'This name is already taken' })
    expect(body.result.error).toEqual({ name: ['This name is already taken'] })
  })

  test('a Refusal without a field: its status, its message above the form', async () => {
    const response = await thingsAction(post({ intent: 'delete', thingId: 'other' }), {
      delete: async () => {
        throw new Refusal('not_found', 'Thing not found')
      },
    })
    expect(response.status).toBe(404)
    const body = (await response.json()) as Body
    expect(body).toMatchObject({ intent: 'delete', error: 'Thing not found' })
    expect(body.result.error).toEqual({ '': ['Thing not found'] })
  })

  test('past a send limit: 429 with Retry-After and the limit message above the form', async () => {
    const response = await thingsAction(post({ intent: 'rename', name: 'Blue' }), {
      rename: async () => {
        throw new Refusal('rate_limited', rateLimitMessage(120), { retryAfterSeconds: 120 })
      },
    })
    expect(response.status).toBe(429)
    expect(response.headers.get('Retry-After')).toBe('120')
    const body = (await response.json()) as Body
    expect(body.error).toBe('Too many attempts. Please wait 2 minutes and try again.')
    expect(body.result.error).toEqual({ '': [body.error] })
  })

  test('any other error is not a refusal: it propagates', async () => {
    const failing = thingsAction(post({ intent: 'rename', name: 'Blue' }), {
      rename: async () => {
        throw new Error('database down')
      },
    })
    await expect(failing).rejects.toThrow('database down')
  })
})

describe('what else a handler may answer', () => {
  test('an error toast with headers of its own (a limit met on a plain form post)', async () => {
    const response = await thingsAction(post({ intent: 'delete', thingId: 't-1' }), {
      delete: async () => ({
        toast: 'Wait a minute',
        type: 'error',
        headers: { 'Retry-After': '60' },
      }),
    })
    expect(response.status).toBe(302)
    expect(response.headers.get('Retry-After')).toBe('60')
    expect(await toastOf(response)).toMatchObject({ type: 'error', title: 'Wait a minute' })
  })

  test('a redirect without a toast', async () => {
    const response = await thingsAction(post({ intent: 'delete', thingId: 't-1' }), {
      delete: async () => ({ redirectTo: '/dashboard/things/next' }),
    })
    expect(response.headers.get('Location')).toBe('/dashboard/things/next')
    expect(response.headers.get('Set-Cookie')).toBeNull()
  })

  test('a reply without a redirect: the one shape and what the page reads besides it', async () => {
    const response = await thingsAction(post({ intent: 'delete', thingId: 't-1' }), {
      delete: async () => ({ reply: { applied: 'color' } }),
    })
    expect(response.status).toBe(200)
    expect(await response.json()).toMatchObject({ intent: 'delete', error: null, applied: 'color' })
  })

  test('a returned Refusal is the thrown one', async () => {
    const response = await thingsAction(post({ intent: 'delete', thingId: 't-1' }), {
      delete: async () => new Refusal('not_found', 'Thing not found'),
    })
    expect(response.status).toBe(404)
    expect(await response.json()).toMatchObject({ error: 'Thing not found' })
  })

  test('a send limit on a field: 429, its message next to that field', async () => {
    const response = await thingsAction(post({ intent: 'rename', name: 'Blue' }), {
      rename: async () => {
        throw new Refusal('rate_limited', 'Slow down', { field: 'name', retryAfterSeconds: 60 })
      },
    })
    expect(response.status).toBe(429)
    expect(((await response.json()) as Body).result.error).toEqual({ name: ['Slow down'] })
  })
})

describe('formAction', () => {
  const NameSchema = z.object({ name: z.string({ error: 'Name is required' }) })

  function nameAction(request: Request, handle = async () => 'Saved') {
    return formAction(request, {
      guard: async () => signedIn,
      schema: NameSchema,
      handle,
      redirectTo: '/done',
      hideFields: ['name'],
      headers: { 'Referrer-Policy': 'no-referrer' },
      refused: (error) => ({ extra: error.message.length }),
    }).then(asResponse)
  }

  test('one schema, one handler: a redirect with the toast and the action headers', async () => {
    const response = await nameAction(post({ name: 'Blue' }))
    expect(response.headers.get('Location')).toBe('/done')
    expect(response.headers.get('Referrer-Policy')).toBe('no-referrer')
    expect(await toastOf(response)).toMatchObject({ title: 'Saved' })
  })

  test('a refusal keeps the headers, hides the hidden fields and carries the extras', async () => {
    const response = await nameAction(post({ name: 'Blue' }), async () => {
      throw new Refusal('invalid', 'Nope', { field: 'name' })
    })
    expect(response.status).toBe(400)
    expect(response.headers.get('Referrer-Policy')).toBe('no-referrer')
    const body = (await response.json()) as Body & { extra: number }
    expect(body).toMatchObject({ intent: null, error: 'Nope', extra: 4 })
    expect(body.result.error).toEqual({ name: ['Nope'] })
    expect(JSON.stringify(body.result)).not.toContain('Blue')
  })
})

describe("conform's list intents (a row's Move up or Move down, posted without JavaScript)", () => {
  const ListSchema = z.discriminatedUnion('intent', [
    z.object({ intent: z.literal('save'), items: z.array(z.string()) }),
  ])
  const listAction = (request: Request, save = vi.fn(async () => 'Saved')) =>
    intentAction(request, {
      guard: async () => signedIn,
      schema: ListSchema,
      intents: { save },
      redirectTo: '/done',
    }).then(asResponse)
  const reorder = (name: string, from: number, to: number) =>
    JSON.stringify({ type: 'reorder', payload: { name, from, to } })

  test('a move is answered with the rows in their new order: a 200, no message, no handler', async () => {
    const save = vi.fn(async () => 'Saved')
    const body = new URLSearchParams([
      ['intent', 'save'],
      ['items[0]', 'a'],
      ['items[1]', 'b'],
      ['__intent__', reorder('items', 1, 0)],
    ])
    const response = await listAction(new Request(URL_POSTED, { method: 'POST', body }), save)
    expect(response.status).toBe(200)
    const reply = (await response.json()) as {
      error: string | null
      intent: string
      result: { initialValue: { items: string[] } }
    }
    expect(reply).toMatchObject({ error: null, intent: 'save' })
    expect(reply.result.initialValue.items).toEqual(['b', 'a'])
    expect(save).not.toHaveBeenCalled()
  })

  test('a malformed intent is a 400 with a message, never a 500', async () => {
    for (const intent of ['not json', reorder('intent', 0, 1)]) {
      const body = new URLSearchParams([
        ['intent', 'save'],
        ['__intent__', intent],
      ])
      const response = await listAction(new Request(URL_POSTED, { method: 'POST', body }))
      expect(response.status, intent).toBe(400)
      expect(((await response.json()) as Body).error).toBe('Please check the form')
    }
  })
})

describe('postedUrl', () => {
  test('keeps the search and filters, drops the index marker', () => {
    const request = new Request('http://acme.localhost/settings?index&tab=privacy')
    expect(postedUrl(request)).toBe('/settings?tab=privacy')
    expect(postedUrl(request, '/dashboard/users')).toBe('/dashboard/users?tab=privacy')
    expect(postedUrl(new Request('http://acme.localhost/settings?index'))).toBe('/settings')
  })
})
