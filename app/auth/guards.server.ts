// One guard per permission. Guards throw Responses so loaders and actions stay linear.
import { type AppLoadContext, redirect } from '@remix-run/node'
import type { User } from '#app/models/users.server'
import { requireTenant } from '#app/tenancy/require-tenant.server'
import type { Tenant } from '#app/tenancy/tenant.server'
import { type Role, rolePaths } from '#app/validation/roles'
import { issuePlatformScopeGrant, type PlatformScopeGrant } from '#drizzle/db.server'
import { type AuthRequiredData, SESSION_ENDED_MESSAGE } from './auth-required'
import { getSession, type ValidSession } from './session.server'
import type { SignInStep } from './sign-in-steps'
import { pendingSignInStep, SIGN_IN_STEP_PATHS } from './sign-in-steps.server'

/** Who acts: a signed-in user on their own tenant's host. */
export type Actor = {
  tenant: Tenant
  user: User
  session: { sessionId: string }
}

export type SignedIn = { tenant: Tenant; user: User; session: ValidSession }

/**
 * The request's user, or null. A session that still owes a step of its sign-in (a second
 * factor, a new password: ADR 045) counts as no user here, so a page that only looks whether
 * someone is signed in shows nothing of theirs; `pendingStep` says which step it owes.
 */
export async function getOptionalUser(request: Request, context: AppLoadContext) {
  const tenant = await requireTenant(context)
  const session = await getSession(request, context, tenant.id)
  const pendingStep = session ? await pendingSignInStep(session) : null
  if (pendingStep)
    return { tenant, user: null, session: null, pendingStep, pendingSession: session }
  return { tenant, user: session?.user ?? null, session, pendingStep, pendingSession: null }
}

/**
 * Sign-in step pages (ADR 045): the session that owes `step`. Without a session, to the sign-in
 * form; a session that owes another step (or none) goes where it belongs.
 */
export async function requirePendingStep(
  request: Request,
  context: AppLoadContext,
  step: SignInStep,
): Promise<SignedIn> {
  const { tenant, user, pendingStep, pendingSession } = await getOptionalUser(request, context)
  if (pendingSession && pendingStep === step) {
    return { tenant, user: pendingSession.user, session: pendingSession }
  }
  if (pendingStep) throw redirect(SIGN_IN_STEP_PATHS[pendingStep])
  if (user) throw redirect(rolePaths(user.role).dashboard)
  throw redirect('/auth/login')
}

function loginRedirect(request: Request) {
  const url = new URL(request.url)
  const redirectTo = `${url.pathname}${url.search}`
  const params = new URLSearchParams({ redirectTo })
  return redirect(`/auth/login?${params}`)
}

/**
 * The signed-in user of this tenant. Without one, a document request is redirected to sign in
 * and come back; a client-side data request gets a 401 marker, so the page can say the session
 * ended (app/auth/auth-required.ts) instead of silently dropping the user on the login form.
 */
export async function requireUser(request: Request, context: AppLoadContext): Promise<SignedIn> {
  const { tenant, user, session, pendingStep } = await getOptionalUser(request, context)
  // Before anything else, the step the sign-in still owes: every signed-in loader and action
  // passes here, so none is reachable (and no action runs) past it (ADR 045).
  if (pendingStep) throw redirect(SIGN_IN_STEP_PATHS[pendingStep])
  if (!user || !session) {
    if (context.dataRequest) {
      throw Response.json(
        { authRequired: true, message: SESSION_ENDED_MESSAGE } satisfies AuthRequiredData,
        {
          status: 401,
          headers: { 'Cache-Control': 'no-store' },
        },
      )
    }
    throw loginRedirect(request)
  }
  return { tenant, user, session }
}

/** Signed in with one of `roles`; any other role gets 403, never another role's data. */
export async function requireRole(
  request: Request,
  context: AppLoadContext,
  roles: readonly Role[],
): Promise<SignedIn> {
  const signedIn = await requireUser(request, context)
  if (!roles.includes(signedIn.user.role)) {
    throw new Response('Forbidden', { status: 403, statusText: 'Forbidden' })
  }
  return signedIn
}

/** For sign-in and sign-up pages: a signed-in user goes to their dashboard instead. */
export async function requireAnonymous(request: Request, context: AppLoadContext) {
  const { tenant, user } = await getOptionalUser(request, context)
  if (user) throw redirect(rolePaths(user.role).dashboard)
  return { tenant }
}

/**
 * The platform scope (reads across every tenant) for a super admin on the platform's own
 * host, or null for anyone else. The only place a grant is issued.
 */
export async function getPlatformScope(
  request: Request,
  context: AppLoadContext,
): Promise<{ tenant: Tenant; user: User | null; platformScope: PlatformScopeGrant | null }> {
  const { tenant, user } = await getOptionalUser(request, context)
  const isPlatformAdmin = tenant.kind === 'platform' && user?.role === 'super_admin'
  const platformScope = isPlatformAdmin
    ? issuePlatformScopeGrant({ userId: user.id, organizationId: tenant.id })
    : null
  return { tenant, user, platformScope }
}

/**
 * The super admin's platform screens (Agencies, …): a super admin on the platform's own host,
 * with the platform scope those screens read through. Any other role, and a super admin's
 * session on an agency host, gets 403.
 */
export async function requirePlatformAdmin(
  request: Request,
  context: AppLoadContext,
): Promise<SignedIn & { platformScope: PlatformScopeGrant }> {
  const signedIn = await requireRole(request, context, ['super_admin'])
  if (signedIn.tenant.kind !== 'platform') {
    throw new Response('Forbidden', { status: 403, statusText: 'Forbidden' })
  }
  const platformScope = issuePlatformScopeGrant({
    userId: signedIn.user.id,
    organizationId: signedIn.tenant.id,
  })
  return { ...signedIn, platformScope }
}

/**
 * The agency's own screens (Team Members, End Users; roles doc §2.12): its staff on the
 * agency's own host. A session is bound to its tenant, so another agency's host never gets this
 * far; on the platform's host (whatever the role) the answer is 403. `manage`: only the agency
 * admin may change anything, an agency member reads.
 */
export async function requireAgencyStaff(
  request: Request,
  context: AppLoadContext,
  { manage }: { manage: boolean },
): Promise<SignedIn> {
  const signedIn = await requireRole(
    request,
    context,
    manage ? ['agency_admin'] : ['agency_admin', 'agency_member'],
  )
  if (signedIn.tenant.kind !== 'agency') {
    throw new Response('Forbidden', { status: 403, statusText: 'Forbidden' })
  }
  return signedIn
}
