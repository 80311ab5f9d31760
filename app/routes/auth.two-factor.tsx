// The sign-in's second step (ADR 045): the authenticator's code or a recovery code, or, for an
// account that must have two-factor authentication and has none yet, its enrolment. Only a
// session that owes this step reaches the page; the guard sends every other page here first.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { Link, type ShouldRevalidateFunction, useActionData, useLoaderData } from '@remix-run/react'
import { requirePendingStep } from '#app/auth/guards.server'
import {
  addPasskey,
  authenticationOptions,
  markVerified,
  owesEnrolment,
  PASSKEY_FAILED_MESSAGE,
  passkeysOf,
  passWithPasskey,
  registrationOptions,
} from '#app/auth/passkey-ceremonies.server'
import { rolePaths } from '#app/auth/roles'
import {
  confirmEnrolment,
  enrolmentOf,
  newTotpKey,
  passWithCode,
  passWithRecoveryCode,
  WRONG_CODE_MESSAGE,
  WRONG_RECOVERY_CODE_MESSAGE,
} from '#app/auth/two-factor.server'
import { PasskeyAddForm, PasskeyStepForm } from '#app/components/auth/passkeys'
import {
  CodeForm,
  EnrolForm,
  RecoveryCodes,
  RecoveryForm,
  SignOut,
} from '#app/components/auth/two-factor'
import { AuthCard } from '#app/components/layout/auth-card'
import { Button } from '#app/components/ui/button'
import { ActionError } from '#app/utils/action-error'
import { serverActionOrFailure, useClientFailureToast } from '#app/utils/client-failure'
import { intentAction } from '#app/utils/intent-action.server'
import { actionAndLoaderHeaders } from '#app/utils/route-headers'
import { signedInToast } from '#app/validation/account-deletion'
import { TwoFactorStepSchema } from '#app/validation/two-factor'

export const meta: MetaFunction = () => [{ title: 'Two-factor authentication' }]
export const headers = actionAndLoaderHeaders

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { tenant, user, session } = await requirePendingStep(request, context, 'two-factor')
  const dashboard = rolePaths(user.role).dashboard
  const hasTotp = Boolean(user.totpKeySealed)
  const hasPasskey = (await passkeysOf(tenant, user.id)).length > 0
  if (hasTotp || hasPasskey) {
    return { mode: 'verify' as const, enrolment: null, dashboard, hasTotp, hasPasskey }
  }
  // A new key on each visit: nothing is stored until a code from it is confirmed.
  const enrolment = await enrolmentOf(newTotpKey(), tenant.name, user.email, {
    organizationId: tenant.id,
    userId: user.id,
    sessionId: session.sessionId,
  })
  return { mode: 'enrol' as const, enrolment, dashboard, hasTotp, hasPasskey }
}

// A refused code keeps the QR code the person already scanned (a reload would make a new key).
export const shouldRevalidate: ShouldRevalidateFunction = ({
  formMethod,
  defaultShouldRevalidate,
}) => (formMethod ? false : defaultShouldRevalidate)

export async function action({ request, context }: ActionFunctionArgs) {
  const clientIp = context.clientIp ?? 'unknown'
  return intentAction(request, {
    guard: () => requirePendingStep(request, context, 'two-factor'),
    schema: TwoFactorStepSchema,
    redirectTo: '/',
    intents: {
      code: async ({ code }, { tenant, user, session }) => {
        const passed = await passWithCode(tenant, user, session.sessionId, code, clientIp)
        if (!passed) return new ActionError(400, WRONG_CODE_MESSAGE, 'code')
        return { ...signedInToast(passed), redirectTo: rolePaths(user.role).dashboard }
      },
      recovery: async ({ recoveryCode }, { tenant, user, session }) => {
        const passed = await passWithRecoveryCode(
          tenant,
          user,
          session.sessionId,
          recoveryCode,
          clientIp,
        )
        if (!passed) return new ActionError(400, WRONG_RECOVERY_CODE_MESSAGE, 'recoveryCode')
        return {
          ...signedInToast(passed),
          description: 'That recovery code is now used up. Make new ones under Security.',
          redirectTo: rolePaths(user.role).dashboard,
        }
      },
      // An account that has no second factor yet enrols one here: a passkey's creation options;
      // every other account gets the options to use the passkeys it has.
      'passkey-options': async (_value, { tenant, user, session }) => ({
        reply: {
          options: (await owesEnrolment(tenant, user))
            ? await registrationOptions(tenant, user, session.sessionId, request)
            : await authenticationOptions(tenant, user, session.sessionId, request),
        },
      }),
      'passkey-add': async (value, { tenant, user, session }) => {
        if (!(await owesEnrolment(tenant, user))) {
          return new ActionError(400, 'Two-factor authentication is on.')
        }
        await addPasskey(tenant, user, session.sessionId, request, value)
        const completed = await markVerified(tenant, user.id, session.sessionId)
        return {
          ...(completed.deletionCancelled ? signedInToast(completed) : { toast: 'Passkey added' }),
          redirectTo: rolePaths(user.role).dashboard,
        }
      },
      passkey: async ({ credential }, { tenant, user, session }) => {
        const passed = await passWithPasskey(
          tenant,
          user,
          session.sessionId,
          request,
          credential,
          clientIp,
        )
        if (!passed) return new ActionError(400, PASSKEY_FAILED_MESSAGE)
        return { ...signedInToast(passed), redirectTo: rolePaths(user.role).dashboard }
      },
      // Only an account with no second factor at all enrols here (as `passkey-add` checks): one
      // with a passkey passes the step with it, never by adding a key (issue 39).
      enrol: async (value, { tenant, user, session }) => {
        if (!(await owesEnrolment(tenant, user))) {
          return new ActionError(400, 'Two-factor authentication is on.')
        }
        const recoveryCodes = await confirmEnrolment(
          tenant,
          user,
          session.sessionId,
          value,
          clientIp,
        )
        return { reply: { recoveryCodes } }
      },
    },
  })
}

export const clientAction = serverActionOrFailure
const INTENTS = {
  code: 'Failed to verify the code',
  recovery: 'Failed to verify the code',
  passkey: 'Failed to verify the passkey',
}

type ActionData = {
  result?: Parameters<typeof CodeForm>[0]['lastResult']
  intent?: string | null
  recoveryCodes?: string[]
}

export default function TwoFactorStep() {
  const { mode, enrolment, dashboard, hasTotp, hasPasskey } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>() as ActionData | undefined
  useClientFailureToast(actionData, INTENTS, 'Failed to verify the code')
  const resultOf = (intent: string) =>
    actionData?.intent === intent ? actionData.result : undefined
  if (actionData?.recoveryCodes) {
    return (
      <AuthCard
        title="Two-factor authentication is on"
        description="From now on you sign in with your password and a code from your app."
      >
        <div className="flex flex-col gap-4">
          <RecoveryCodes codes={actionData.recoveryCodes} />
          <Button asChild>
            <Link to={dashboard}>Continue</Link>
          </Button>
        </div>
      </AuthCard>
    )
  }
  return (
    <AuthCard
      title={mode === 'enrol' ? 'Set up two-factor authentication' : 'Two-factor authentication'}
      description={
        mode === 'enrol'
          ? 'Your account must sign in with a second step. Set up an authenticator app to continue.'
          : hasTotp
            ? hasPasskey
              ? 'Use your passkey, or enter the 6-digit code from your authenticator app.'
              : 'Enter the 6-digit code from your authenticator app.'
            : 'Use your passkey to continue.'
      }
      footer={<SignOut />}
    >
      {mode === 'enrol' && enrolment ? (
        <div className="flex flex-col gap-6">
          <EnrolForm enrolment={enrolment} lastResult={resultOf('enrol')} />
          <section aria-labelledby="passkey-enrol-heading" className="flex flex-col gap-3">
            <h2 id="passkey-enrol-heading" className="text-sm font-medium">
              Or add a passkey instead
            </h2>
            <PasskeyAddForm lastResult={resultOf('passkey-add')} />
          </section>
        </div>
      ) : (
        <div className="flex flex-col gap-6">
          {hasPasskey ? <PasskeyStepForm lastResult={resultOf('passkey')} /> : null}
          {hasTotp ? (
            <>
              <CodeForm lastResult={resultOf('code')} />
              <section aria-labelledby="recovery-heading" className="flex flex-col gap-3">
                <h2 id="recovery-heading" className="text-sm font-medium">
                  Lost your authenticator? Use a recovery code
                </h2>
                <RecoveryForm lastResult={resultOf('recovery')} />
              </section>
            </>
          ) : null}
        </div>
      )}
    </AuthCard>
  )
}
