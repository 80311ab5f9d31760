// The sign-in's second step (ADR 045): the authenticator's code or a recovery code, or, for an
// account that must have two-factor authentication and has none yet, its enrolment, once this
// session opened the link emailed to the account (ADR 054). Only a
// session that owes this step reaches the page; the guard sends every other page here first.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { Link, type ShouldRevalidateFunction, useActionData, useLoaderData } from '@remix-run/react'
import { useMemo } from 'react'
import { intentAction } from '#app/actions/intent-action.server'
import {
  assertMayEnrolAtStep,
  confirmEnrolmentEmail,
  ENROLMENT_LINK_FAILED_MESSAGE,
  sendEnrolmentEmail,
} from '#app/auth/enrolment-email.server'
import { requirePendingStep } from '#app/auth/guards.server'
import { requestTranslator, translatedSignedInToast } from '#app/auth/page-language.server'
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
  EnrolmentEmailForms,
  RecoveryCodes,
  RecoveryForm,
  SignOut,
} from '#app/components/auth/two-factor'
import { serverActionOrFailure, useClientFailureToast } from '#app/components/client-failure'
import { AuthCard } from '#app/components/layout/auth-card'
import { useTranslate } from '#app/components/layout/use-translate'
import { Button } from '#app/components/ui/button'
import { Refusal } from '#app/utils/action-error'
import { type MessageKey, rootTranslator } from '#app/utils/i18n/translate'
import { translatedPageHeaders } from '#app/utils/route-headers'
import { rolePaths } from '#app/validation/roles'
import { TwoFactorStepSchema } from '#app/validation/two-factor'

// The page's language, which the root loader chose (ADR 105).
export const meta: MetaFunction = ({ matches }) => [
  { title: rootTranslator(matches)('twoFactor.title') },
]
export const headers = translatedPageHeaders

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { tenant, user, session } = await requirePendingStep(request, context, 'two-factor')
  const dashboard = rolePaths(user.role).dashboard
  const hasTotp = Boolean(user.totpKeySealed)
  const hasPasskey = (await passkeysOf(tenant, user.id)).length > 0
  if (hasTotp || hasPasskey) {
    return { mode: 'verify' as const, enrolment: null, dashboard, hasTotp, hasPasskey, email: null }
  }
  // Whoever holds the password must not pick the second factor: the account's email first.
  if (!session.enrolmentEmailConfirmed) {
    const url = new URL(request.url)
    return {
      mode: 'confirm-email' as const,
      enrolment: null,
      dashboard,
      hasTotp,
      hasPasskey,
      email: user.email,
      linkToken: url.searchParams.get('link'),
      sent: url.searchParams.has('sent'),
    }
  }
  // A new key on each visit: nothing is stored until a code from it is confirmed.
  const enrolment = await enrolmentOf(newTotpKey(), tenant.name, user.email, {
    organizationId: tenant.id,
    userId: user.id,
    sessionId: session.sessionId,
  })
  return { mode: 'enrol' as const, enrolment, dashboard, hasTotp, hasPasskey, email: null }
}

// A refused code keeps the QR code the person already scanned (a reload would make a new key);
// the emailed link's forms move the page on, so after them it loads again.
export const shouldRevalidate: ShouldRevalidateFunction = ({
  formMethod,
  formData,
  defaultShouldRevalidate,
}) => {
  const intent = formData?.get('intent')
  const movesOn = intent === 'send-enrolment-email' || intent === 'confirm-email'
  return formMethod && !movesOn ? false : defaultShouldRevalidate
}

export async function action({ request, context }: ActionFunctionArgs) {
  const clientIp = context.clientIp ?? 'unknown'
  const { t, translate } = await requestTranslator(request, context)
  return intentAction(request, {
    translate,
    guard: () => requirePendingStep(request, context, 'two-factor'),
    schema: TwoFactorStepSchema,
    redirectTo: '/',
    intents: {
      'send-enrolment-email': async (_value, { tenant, user, session }) => {
        await sendEnrolmentEmail(tenant, user, session.sessionId, clientIp)
        return { toast: t('twoFactor.linkSent'), redirectTo: '/auth/two-factor?sent=1' }
      },
      'confirm-email': async ({ token }, { tenant, user, session }) => {
        if (!(await confirmEnrolmentEmail(tenant, user, session.sessionId, token, clientIp))) {
          return new Refusal('invalid', ENROLMENT_LINK_FAILED_MESSAGE)
        }
        return { toast: t('twoFactor.emailConfirmed'), redirectTo: '/auth/two-factor' }
      },
      code: async ({ code }, { tenant, user, session }) => {
        const passed = await passWithCode(tenant, user, session.sessionId, code, clientIp)
        if (!passed) return new Refusal('invalid', WRONG_CODE_MESSAGE, { field: 'code' })
        return { ...translatedSignedInToast(passed, t), redirectTo: rolePaths(user.role).dashboard }
      },
      recovery: async ({ recoveryCode }, { tenant, user, session }) => {
        const passed = await passWithRecoveryCode(
          tenant,
          user,
          session.sessionId,
          recoveryCode,
          clientIp,
        )
        if (!passed)
          return new Refusal('invalid', WRONG_RECOVERY_CODE_MESSAGE, { field: 'recoveryCode' })
        return {
          ...translatedSignedInToast(passed, t),
          description: t('twoFactor.recoveryUsed'),
          redirectTo: rolePaths(user.role).dashboard,
        }
      },
      // An account that has no second factor yet enrols one here: a passkey's creation options;
      // every other account gets the options to use the passkeys it has.
      'passkey-options': async (_value, { tenant, user, session }) => {
        if (!(await owesEnrolment(tenant, user))) {
          return {
            reply: {
              options: await authenticationOptions(tenant, user, session.sessionId, request),
            },
          }
        }
        await assertMayEnrolAtStep(tenant, user, session)
        return {
          reply: { options: await registrationOptions(tenant, user, session.sessionId, request) },
        }
      },
      'passkey-add': async (value, { tenant, user, session }) => {
        await assertMayEnrolAtStep(tenant, user, session)
        await addPasskey(tenant, user, session.sessionId, request, value)
        const completed = await markVerified(tenant, user.id, session.sessionId)
        return {
          ...(completed.deletionPending
            ? translatedSignedInToast(completed, t)
            : { toast: t('twoFactor.passkeyAdded') }),
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
        if (!passed) return new Refusal('invalid', PASSKEY_FAILED_MESSAGE)
        return { ...translatedSignedInToast(passed, t), redirectTo: rolePaths(user.role).dashboard }
      },
      // Only an account with no second factor at all enrols here, as `passkey-add`: one with a
      // passkey passes the step with it, never by adding a key; and only after the emailed link
      // (issue 39, ADR 054).
      enrol: async (value, { tenant, user, session }) => {
        await assertMayEnrolAtStep(tenant, user, session)
        const { sessionId } = session
        const recoveryCodes = await confirmEnrolment(tenant, user, sessionId, value, clientIp)
        return { reply: { recoveryCodes } }
      },
    },
  })
}

export const clientAction = serverActionOrFailure
const INTENTS = {
  'send-enrolment-email': 'twoFactor.sendFailed',
  'confirm-email': 'twoFactor.checkFailed',
  code: 'twoFactor.verifyFailed',
  recovery: 'twoFactor.verifyFailed',
  passkey: 'twoFactor.passkeyVerifyFailed',
} as const satisfies Record<string, MessageKey>

type ActionData = {
  result?: Parameters<typeof CodeForm>[0]['lastResult']
  intent?: string | null
  recoveryCodes?: string[]
}

export default function TwoFactorStep() {
  const page = useLoaderData<typeof loader>()
  const { mode, enrolment, dashboard, hasTotp, hasPasskey } = page
  const actionData = useActionData<typeof action>() as ActionData | undefined
  const t = useTranslate()
  const failures = useMemo(
    () => Object.fromEntries(Object.entries(INTENTS).map(([intent, key]) => [intent, t(key)])),
    [t],
  )
  useClientFailureToast(actionData, failures, t('twoFactor.verifyFailed'))
  const resultOf = (intent: string) =>
    actionData?.intent === intent ? actionData.result : undefined
  if (actionData?.recoveryCodes) {
    return (
      <AuthCard title={t('twoFactor.onTitle')} description={t('twoFactor.onDescription')}>
        <div className="flex flex-col gap-4">
          <RecoveryCodes codes={actionData.recoveryCodes} />
          <Button asChild>
            <Link to={dashboard}>{t('twoFactor.continue')}</Link>
          </Button>
        </div>
      </AuthCard>
    )
  }
  return (
    <AuthCard
      title={mode === 'verify' ? t('twoFactor.title') : t('twoFactor.setUpTitle')}
      description={t(
        mode === 'confirm-email'
          ? 'twoFactor.confirmEmailDescription'
          : mode === 'enrol'
            ? 'twoFactor.enrolDescription'
            : hasTotp
              ? hasPasskey
                ? 'twoFactor.passkeyOrCode'
                : 'twoFactor.codeOnly'
              : 'twoFactor.passkeyOnly',
      )}
      footer={<SignOut />}
    >
      {page.mode === 'confirm-email' ? (
        <EnrolmentEmailForms
          email={page.email}
          linkToken={page.linkToken}
          sent={page.sent}
          lastResult={resultOf('confirm-email')}
          sendResult={resultOf('send-enrolment-email')}
        />
      ) : mode === 'enrol' && enrolment ? (
        <div className="flex flex-col gap-6">
          <EnrolForm enrolment={enrolment} lastResult={resultOf('enrol')} />
          <section aria-labelledby="passkey-enrol-heading" className="flex flex-col gap-3">
            <h2 id="passkey-enrol-heading" className="text-sm font-medium">
              {t('twoFactor.orPasskey')}
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
                  {t('twoFactor.lostAuthenticator')}
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
