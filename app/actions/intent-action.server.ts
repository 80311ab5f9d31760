// The one way to write a form action (issue 27 point 2, ADR 035): guard, read, parse with the
// form's zod schema, dispatch on `intent`, turn a refusal into the reply the page shows, and
// redirect with a toast on success. Route modules only say which guard, which schema and what
// each intent does; the steps, their order and the reply's shape live here.
import { parseWithZod } from '@conform-to/zod/v4'
import { data, redirect } from '@remix-run/node'
import type { z } from 'zod'
import { readForm, readPlainForm } from '#app/media/uploads.server'
import { IMAGE_REFUSALS, isRefusal, Refusal } from '#app/utils/action-error'
import { redirectWithToast } from '#app/utils/toast.server'

/**
 * What a refused form gets back: conform's reply (the messages next to their fields), the
 * intent it was posted with (which dialog stays open) and the first message (the toast when its
 * field is not on screen).
 */
export type ActionRefusal = { result: unknown; intent: string | null; error: string }

/**
 * What a handler answers when it is done:
 * - its toast (a title, or a title, a line under it, a kind other than success, and where it
 *   lands when not on the action's `redirectTo`), carried by a redirect;
 * - `{ redirectTo }` alone: a redirect without a toast (a wizard's next step);
 * - `{ reply }`: no redirect, the form's reply with what the page reads besides it (a fetcher's
 *   answer, such as a contact saved from a public card), `status` 200 unless said, `error` the
 *   message above the form unless `result` (conform's reply options) places it;
 * - a Refusal, returned rather than thrown: the same refusal as thrown.
 */
export type IntentDone =
  | string
  | {
      toast: string
      description?: string
      type?: 'success' | 'error' | 'info'
      redirectTo?: string
      headers?: HeadersInit
    }
  | { redirectTo: string; toast?: undefined; headers?: HeadersInit }
  | {
      reply: Record<string, unknown>
      status?: number
      error?: string
      result?: {
        formErrors?: string[]
        fieldErrors?: Record<string, string[]>
        resetForm?: boolean
      }
    }
  | Refusal

type IntentValue = { intent: string }
type Handler<G> = (value: unknown, guarded: G, form: FormData) => Promise<IntentDone>

/** The schema's value for one intent (a branch that takes several intents narrowed to one). */
type OfIntent<V extends IntentValue, K> = V extends unknown
  ? K extends V['intent']
    ? V & { intent: K }
    : never
  : never

export type IntentHandlers<V extends IntentValue, G> = {
  [K in V['intent']]: (value: OfIntent<V, K>, guarded: G, form: FormData) => Promise<IntentDone>
}

/** What intentAction and formAction share. */
type CommonOptions<G> = {
  /**
   * The action's one permission check (a guard from #app/auth/guards.server). It runs before the
   * form is read, so a refused visitor's form is never parsed; what it returns reaches every
   * handler.
   */
  guard: () => Promise<G>
  /** Where a done form lands with its toast (a handler may name another place). */
  redirectTo: string
  /**
   * A form with image fields: read as multipart, and an image refused (not an image, too large,
   * past a quota: a Refusal of IMAGE_REFUSALS) is a 400 with its message next to its field, named by
   * `uploadField` when the form calls it otherwise.
   */
  multipart?: {
    uploadField?: (field: string) => string
    /** The intent of the page's one form with image fields, when the body could not be read. */
    intent?: string
  }
  /** Fields whose typed values never come back in a reply (passwords). */
  hideFields?: string[]
  /** Headers on every answer, refusals included (a page whose URL holds a token: no Referer). */
  headers?: HeadersInit
  /**
   * What a refusal carries besides the one shape, for a page that reads more (the CRM page's key
   * status): derived from the refusal, so the handlers only throw.
   */
  refused?: (refusal: Refusal) => Record<string, unknown>
  /**
   * The visitor's language for the messages the shared schemas and refusals write in English
   * (ADR 105: the card page's forms); every message of a refused form passes through it.
   */
  translate?: (message: string) => string
}

export type IntentActionOptions<S extends z.ZodType<IntentValue>, G> = CommonOptions<G> & {
  /** The form's schema: a discriminated union on `intent`, shared with the page's conform form. */
  schema: S
  /** What each intent does; it throws a Refusal to refuse, and returns its toast. */
  intents: IntentHandlers<z.output<S>, G>
}

export type FormActionOptions<S extends z.ZodType, G> = CommonOptions<G> & {
  /** The form's schema, shared with the page's conform form. */
  schema: S
  /** What the form does; it throws a Refusal to refuse, and returns its toast. */
  handle: (value: z.output<S>, guarded: G, form: FormData) => Promise<IntentDone>
}

/** The first message of a refused parse, or a generic one. */
function firstError(error: Record<string, string[] | null> | null | undefined) {
  return Object.values(error ?? {}).flat()[0] ?? 'Please check the form'
}

/**
 * The form parsed with its schema, or null when conform cannot read the form's list intent (a
 * `__intent__` that is not one, or moves a field that is not a list): a refusal, not a 500.
 */
export function parseSubmission<S extends z.ZodType>(form: FormData, schema: S) {
  try {
    return parseWithZod(form, { schema })
  } catch (error) {
    if (form.has('__intent__')) return null
    throw error
  }
}

/** intentAction's and formAction's steps; `dispatch` is the only difference. */
async function runAction<G>(
  request: Request,
  options: CommonOptions<G> & { schema: z.ZodType },
  dispatch: (value: unknown, guarded: G, form: FormData) => Promise<IntentDone>,
) {
  const { hideFields, refused = () => ({}), translate = (message: string) => message } = options
  // Conform's reply with its messages in the visitor's language.
  const translated = <R extends { error?: Record<string, string[] | null> | null }>(result: R) =>
    result.error
      ? {
          ...result,
          error: Object.fromEntries(
            Object.entries(result.error).map(([field, messages]) => [
              field,
              messages ? messages.map(translate) : messages,
            ]),
          ),
        }
      : result
  const init = (status: number, extra?: HeadersInit): ResponseInit => {
    const headers = new Headers(options.headers)
    // Appended, not set: a handler's cookie must not replace the action's (or another one).
    for (const [name, value] of new Headers(extra)) headers.append(name, value)
    return { status, headers }
  }
  const guarded = await options.guard()
  let form: FormData
  try {
    form = options.multipart ? await readForm(request) : await readPlainForm(request)
  } catch (error) {
    // Nothing parsed yet: the image's message next to its field is the whole reply.
    if (!isRefusal(error, ...IMAGE_REFUSALS)) throw error
    const field = options.multipart?.uploadField?.(error.field) ?? error.field
    return data<ActionRefusal>(
      {
        result: { status: 'error', error: { [field]: [error.message] } },
        intent: options.multipart?.intent ?? null,
        error: error.message,
      },
      init(400),
    )
  }
  const posted = form.get('intent')
  const intentOf = typeof posted === 'string' ? posted : null
  const submission = parseSubmission(form, options.schema)
  if (!submission) {
    const error = 'Please check the form'
    return data<ActionRefusal>(
      { result: { status: 'error', error: { '': [error] } }, intent: intentOf, error },
      init(400),
    )
  }
  // A list intent (a link row moved by a button, without JavaScript): no save and no refusal,
  // the form comes back with its rows in the new order.
  if (submission.status === undefined) {
    return data(
      { result: submission.reply({ hideFields }), intent: intentOf, error: null },
      init(200),
    )
  }
  if (submission.status !== 'success') {
    return data<ActionRefusal>(
      {
        result: translated(submission.reply({ hideFields })),
        intent: intentOf,
        error: translate(firstError(submission.error)),
      },
      init(400),
    )
  }
  const refuse = (error: Refusal) => {
    const image = isRefusal(error, ...IMAGE_REFUSALS)
    const field = image
      ? (options.multipart?.uploadField?.(error.field) ?? error.field)
      : error.field
    const result = submission.reply({
      ...(field ? { fieldErrors: { [field]: [error.message] } } : { formErrors: [error.message] }),
      hideFields,
    })
    const body = {
      result: translated(result),
      intent: intentOf,
      error: translate(error.message),
      ...(image ? {} : refused(error)),
    }
    // Past a send limit (an invitation re-sent too soon, too many emails): 429, and the
    // transaction that hit it wrote nothing.
    if (isRefusal(error, 'rate_limited')) {
      return data(body, init(429, { 'Retry-After': String(error.retryAfterSeconds) }))
    }
    // A refused image is a 400 here, a quota's too (resources.upload answers its 413).
    return data(body, init(image ? 400 : error.status))
  }
  let done: IntentDone
  try {
    done = await dispatch(submission.value, guarded, form)
  } catch (error) {
    if (isRefusal(error)) return refuse(error)
    throw error
  }
  if (done instanceof Refusal) return refuse(done)
  if (typeof done === 'string') done = { toast: done }
  if ('reply' in done) {
    const { reply, status = 200, error = null } = done
    const result = done.result ?? (error ? { formErrors: [error] } : {})
    return data(
      {
        result: submission.reply({ ...result, hideFields }),
        intent: intentOf,
        error,
        ...reply,
      },
      init(status),
    )
  }
  const { redirectTo = options.redirectTo, headers } = done
  if (done.toast === undefined) return redirect(redirectTo, init(302, headers))
  const { toast, description, type = 'success' } = done
  return redirectWithToast(
    redirectTo,
    description ? { type, title: toast, description } : { type, title: toast },
    init(302, headers),
  )
}

export async function intentAction<S extends z.ZodType<IntentValue>, G>(
  request: Request,
  options: IntentActionOptions<S, G>,
) {
  return runAction(request, options, (value, guarded, form) => {
    const intent = (value as IntentValue).intent
    // The cast is the price of indexing a mapped type with a union key; the types make the map
    // cover every intent the schema admits.
    const handler = (options.intents as Record<string, Handler<G> | undefined>)[intent]
    if (!handler) throw new Error(`No handler for the intent "${intent}"`)
    return handler(value, guarded, form)
  })
}

/**
 * intentAction for a form with one schema and no intents (a sign-in form, a link's confirm
 * button): the same guard, parse, refusals and redirect, one handler.
 */
export async function formAction<S extends z.ZodType, G>(
  request: Request,
  options: FormActionOptions<S, G>,
) {
  return runAction(request, options, (value, guarded, form) =>
    options.handle(value as z.output<S>, guarded, form),
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
