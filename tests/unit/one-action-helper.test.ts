// Issue 27 point 2, ADR 035: one way to write an action. Every route module that exports an
// `action` either re-exports another route's, or answers through intentAction/formAction (in the
// module itself or in the domain function it delegates to), or is on the short list below with
// the reason its answer is not a page form's. A new hand-rolled action fails here.
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { expect, test } from 'vitest'

const DIR = 'app/routes'
const HELPER_CALL = /\b(?:intentAction|formAction)\(/

/** Actions whose answer is not a page form's reply; each says why. Keep it short. */
const ALLOWED: Record<string, string> = {
  '$.tsx': 'the catch-all: every method is a 404',
  'auth.logout.ts': 'signing out never fails on its body; it only clears cookies and redirects',
  'resources.upload.ts':
    "the image widget's JSON endpoint ({ mediaId, url } or { error }), read by fetch, not conform",
  'email.unsubscribe.tsx':
    "RFC 8058 one-click POST from a mail client, answered with the link page's own states",
  'follow.unsubscribe.tsx':
    "a card follower's RFC 8058 one-click POST (ADR 102), answered with the link page's own states",
  'invitations.$token.tsx':
    'a single accept/decline button whose refusal ({ answerError }, no-referrer) catches the same Refusal',
  'api.stripe.webhook.ts':
    "Stripe's webhook: a signed JSON event from Stripe's servers, answered with bare statuses (400 unsigned, 200 stored or ignored)",
  'wallet.apple.v1.$.ts':
    "Apple's PassKit web service: JSON from devices, answered with the protocol's bare statuses (201, 200, 401)",
  'api.v1.$.ts':
    'the REST API (ADR 092): JSON from integrations, answered with RFC 9457 problem details under an API key',
  'scim.v2.$.ts':
    'SCIM 2.0 (ADR 089): JSON from the identity provider, answered with RFC 7644 bodies and statuses under a bearer token',
  'account.data-export[.]zip.ts':
    "the data export's download (ADR 052): the zip streamed to its owner or a bare 404, a file and not a form's reply",
  'auth.sso.saml.$providerId.acs.ts':
    "a SAML IdP's HTTP-POST binding (ADR 090): the signed response from the IdP's page, checked whole, its outcome passed on to the callback in a sealed cookie",
  'onboarding.tsx':
    "the card wizard's steps (app/cards/wizard-route.server.ts): a schema per step from the URL, step 4's images answered by field as imageErrors, step 5 a button",
}

const source = (path: string) => readFileSync(path, 'utf8')

/** The text of `export … action …` up to the end of its statement or function. */
function actionExport(code: string) {
  const start = code.search(/^export (?:async function action\b|const action\b)/m)
  if (start < 0) return null
  const rest = code.slice(start)
  const end = rest.search(/\n\}\n|\n\n/)
  return end < 0 ? rest : rest.slice(0, end + 2)
}

const reExportsAction = (code: string) =>
  /^export \{[^}]*\baction\b[^}]*\} from '\.\/[^']+'/m.test(code)

/** The file an `#app/…` import names. */
function resolve(specifier: string) {
  const base = specifier.replace(/^#app\//, 'app/')
  return ['.ts', '.tsx'].map((ext) => base + ext).find((path) => existsSync(path)) ?? null
}

/** Whether the action, or a function of a module it calls, answers through the helper. */
function usesHelper(code: string, body: string) {
  if (HELPER_CALL.test(body)) return true
  for (const [, name] of body.matchAll(/\b(\w+)\(/g)) {
    const from = code.match(
      new RegExp(`import \\{[^}]*\\b${name}\\b[^}]*\\} from '(#app/[^']+)'`),
    )?.[1]
    const path = from && resolve(from)
    if (!path) continue
    const module = source(path)
    const called = functionBody(module, `export async function ${name}`)
    if (called === null) continue
    if (HELPER_CALL.test(called)) return true
    // A dispatcher (settingsAction picks the path's area) answers through the functions of its
    // own module that it calls.
    for (const [, local] of called.matchAll(/\b(\w+)\(/g)) {
      const body = functionBody(module, `(?:export )?async function ${local}`)
      if (body !== null && HELPER_CALL.test(body)) return true
    }
  }
  return false
}

/** The text of a module's function from its header to its closing brace, or null. */
function functionBody(module: string, header: string) {
  const start = module.search(new RegExp(`^${header}\\b`, 'm'))
  if (start < 0) return null
  const rest = module.slice(start)
  const end = rest.search(/\n\}\n/)
  return end < 0 ? rest : rest.slice(0, end)
}

const routes = readdirSync(DIR)
  .filter((file) => /\.tsx?$/.test(file))
  .sort()
  .map((file) => ({ file, code: source(`${DIR}/${file}`) }))
  .filter(({ code }) => reExportsAction(code) || actionExport(code) !== null)

test('the route modules with an action are found', () => {
  // A broken search would pass the test below with nothing to check.
  expect(routes.length).toBeGreaterThan(25)
})

test('every route action re-exports, uses intentAction/formAction, or is allowed with a reason', () => {
  const handRolled = routes
    .filter(({ file, code }) => {
      if (reExportsAction(code) || file in ALLOWED) return false
      return !usesHelper(code, actionExport(code) ?? '')
    })
    .map(({ file }) => file)
  expect(handRolled).toEqual([])
})

test('the allow-list names only route modules that still hand-roll their action', () => {
  const stale = Object.keys(ALLOWED).filter((file) => {
    const route = routes.find((r) => r.file === file)
    return !route || usesHelper(route.code, actionExport(route.code) ?? '')
  })
  expect(stale).toEqual([])
})
