// The one way to write a form action (issue 27 point 2, ADR 035): guard, read, parse with the
// form's zod schema, dispatch on `intent`, turn a refusal into the reply the page shows, and
// redirect with a toast on success. Route modules only say which guard, which schema and what
// each intent does; the steps, their order and the reply's shape live here.
import { parseWithZod } from '@conform-to/zod/v4'
import { data } from '@remix-run/node'
import type { z } from 'zod'
import { RateLimitedError, tooManyRequests } from '#app/auth/rate-limit.server'
import { readPlainForm } from '#app/media/uploads.server'
import { ActionError } from './action-error'
import { redirectWithToast } from './toast.server'

/**
 * What a refused form gets back: conform's reply (the messages next to their fields), the
 * intent it was posted with (which dialog stays open) and the first message (the toast when its
 * field is not on screen).
 */
export type ActionRefusal = { result: unknown; intent: string | null; error: string }

/**
 * A done intent: its toast (a title, or a title and a line under it), and where it lands when
 * not on the action's `redirectTo`.
 */
export type IntentDone = string | { toast: string; description?: string; redirectTo?: string }

type IntentValue = { intent: string }
type Handler<G> = (value: unknown, guarded: G) => Promise<IntentDone>

/** The schema's value for one intent (a branch that takes several intents narrowed to one). */
type OfIntent<V extends IntentValue, K> = V extends unknown
  ? K extends V['intent']
    ? V & { intent: K }
    : never
  : never

export type IntentHandlers<V extends IntentValue, G> = {
  [K in V['intent']]: (value: OfIntent<V, K>, guarded: G) => Promise<IntentDone>
}

export type IntentActionOptions<S extends z.ZodType<IntentValue>, G> = {
  /**
   * The action's one permission check (a guard from #app/auth/guards.server). It runs before the
   * form is read, so a refused visitor's form is never parsed; what it returns reaches every
   * handler.
   */
  guard: () => Promise<G>
  /** The form's schema: a discriminated union on `intent`, shared with the page's conform form. */
  schema: S
  /** What each intent does; it throws ActionError to refuse, and returns its toast. */
  intents: IntentHandlers<z.output<S>, G>
  /** Where a done intent lands with its toast (a handler may name another place). */
  redirectTo: string
}

/** The first message of a refused parse, or a generic one. */
function firstError(error: Record<string, string[] | null> | null | undefined) {
  return Object.values(error ?? {}).flat()[0] ?? 'Please check the form'
}

export async function intentAction<S extends z.ZodType<IntentValue>, G>(
  request: Request,
  options: IntentActionOptions<S, G>,
) {
  const guarded = await options.guard()
  const submission = parseWithZod(await readPlainForm(request), { schema: options.schema })
  if (submission.status !== 'success') {
    const intent = submission.payload.intent
    return data<ActionRefusal>(
      {
        result: submission.reply(),
        intent: typeof intent === 'string' ? intent : null,
        error: firstError(submission.error),
      },
      { status: 400 },
    )
  }
  const value = submission.value as z.output<S>
  const intent: string = value.intent
  // The cast is the price of indexing a mapped type with a union key; the types make the map
  // cover every intent the schema admits.
  const handlers = options.intents as Record<string, Handler<G> | undefined>
  const handler = handlers[intent]
  if (!handler) throw new Error(`No handler for the intent "${intent}"`)
  let done: IntentDone
  try {
    done = await handler(value, guarded)
  } catch (error) {
    // Past a send limit (an invitation re-sent too soon, too many emails): 429, and the
    // transaction that hit it wrote nothing.
    if (error instanceof RateLimitedError) {
      return tooManyRequests(error, {
        result: submission.reply({ formErrors: [error.message] }),
        intent,
        error: error.message,
      } satisfies ActionRefusal)
    }
    if (!(error instanceof ActionError)) throw error
    return data<ActionRefusal>(
      {
        result: submission.reply(
          error.field
            ? { fieldErrors: { [error.field]: [error.message] } }
            : { formErrors: [error.message] },
        ),
        intent,
        error: error.message,
      },
      { status: error.status },
    )
  }
  const {
    toast,
    description,
    redirectTo = options.redirectTo,
  } = typeof done === 'string' ? { toast: done, description: undefined } : done
  return redirectWithToast(
    redirectTo,
    description ? { title: toast, description } : { title: toast },
  )
}

/**
 * The URL the form was posted to, without Remix's `index` marker: back to the list or page the
 * form was on, keeping its search and filters.
 */
export function postedUrl(request: Request, path = new URL(request.url).pathname) {
  const search = new URL(request.url).searchParams
  search.delete('index')
  const query = search.toString()
  return query ? `${path}?${query}` : path
}
