// The Security area's two-factor page (ADR 045), for every signed-in role: whether the account
// has an authenticator, setting one up, new recovery codes, and turning it off when nothing
// requires it. Linked from the profile's Security tab.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import {
  Form,
  Link,
  type ShouldRevalidateFunction,
  useActionData,
  useLoaderData,
  useNavigation,
} from '@remix-run/react'
import { intentAction } from '#app/actions/intent-action.server'
import { requireUser } from '#app/auth/guards.server'
import {
  addPasskey,
  passkeysOf,
  registrationOptions,
  removePasskey,
  renameUserPasskey,
} from '#app/auth/passkey-ceremonies.server'
import {
  confirmEnrolment,
  disableTwoFactor,
  enrolmentOf,
  newTotpKey,
  regenerateRecoveryCodes,
  twoFactorRequired,
} from '#app/auth/two-factor.server'
import { PasskeyAddForm, PasskeyList } from '#app/components/auth/passkeys'
import { DisableForm, EnrolForm, RecoveryCodes } from '#app/components/auth/two-factor'
import { serverActionOrFailure, useClientFailureToast } from '#app/components/client-failure'
import { StatusButton } from '#app/components/ui/status-button'
import { TitledSection } from '#app/components/ui/titled-section'
import { Refusal } from '#app/utils/action-error'
import { actionAndLoaderHeaders } from '#app/utils/route-headers'
import { rolePaths } from '#app/validation/roles'
import { AccountTwoFactorSchema } from '#app/validation/two-factor'

export const meta: MetaFunction = () => [{ title: 'Two-factor authentication' }]
export const headers = actionAndLoaderHeaders

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { tenant, user, session } = await requireUser(request, context)
  const required = await twoFactorRequired(tenant, user)
  const enabled = Boolean(user.totpKeySealed)
  const passkeys = (await passkeysOf(tenant, user.id)).map(
    ({ id, name, createdAt, lastUsedAt }) => ({ id, name, createdAt, lastUsedAt }),
  )
  return {
    enabled,
    required,
    passkeys,
    recoveryCodesLeft: user.recoveryCodeHashes.length,
    // Only while there is none: a new key each visit, stored once a code from it is confirmed.
    enrolment: enabled
      ? null
      : await enrolmentOf(newTotpKey(), tenant.name, user.email, {
          organizationId: tenant.id,
          userId: user.id,
          sessionId: session.sessionId,
        }),
    securityPath: `${rolePaths(user.role).profile}?tab=security`,
  }
}

// A refused code keeps the QR code already scanned, and a passkey's options fetch reloads nothing.
export const shouldRevalidate: ShouldRevalidateFunction = ({
  formMethod,
  actionResult,
  defaultShouldRevalidate,
}) =>
  // A done form redirects (no action result): the page reloads and lists what changed.
  formMethod && actionResult && actionResult.recoveryCodes === undefined
    ? false
    : defaultShouldRevalidate

export async function action({ request, context }: ActionFunctionArgs) {
  const clientIp = context.clientIp ?? 'unknown'
  return intentAction(request, {
    guard: () => requireUser(request, context),
    schema: AccountTwoFactorSchema,
    redirectTo: '/account/two-factor',
    intents: {
      enrol: async (value, { tenant, user, session: { sessionId } }) => {
        if (user.totpKeySealed) return new Refusal('invalid', 'Two-factor authentication is on.')
        const recoveryCodes = await confirmEnrolment(tenant, user, sessionId, value, clientIp)
        return { reply: { recoveryCodes } }
      },
      regenerate: async (_value, { tenant, user }) => ({
        reply: { recoveryCodes: await regenerateRecoveryCodes(tenant, user) },
      }),
      disable: async ({ code }, { tenant, user }) => {
        if (!user.totpKeySealed) return new Refusal('invalid', 'Two-factor authentication is off.')
        await disableTwoFactor(tenant, user, code, clientIp)
        return 'Two-factor authentication turned off'
      },
      'passkey-options': async (_value, { tenant, user, session }) => ({
        reply: { options: await registrationOptions(tenant, user, session.sessionId, request) },
      }),
      'passkey-add': async (value, { tenant, user, session }) => {
        await addPasskey(tenant, user, session.sessionId, request, value)
        return 'Passkey added'
      },
      'passkey-rename': async ({ passkeyId, name }, { tenant, user }) => {
        await renameUserPasskey(tenant, user, passkeyId, name)
        return 'Passkey renamed'
      },
      'passkey-remove': async ({ passkeyId }, { tenant, user }) => {
        await removePasskey(tenant, user, passkeyId)
        return 'Passkey removed'
      },
    },
  })
}

export const clientAction = serverActionOrFailure
const INTENTS = {
  enrol: 'Failed to turn on two-factor authentication',
  regenerate: 'Failed to make new recovery codes',
  disable: 'Failed to turn off two-factor authentication',
  'passkey-add': 'Failed to add the passkey',
  'passkey-rename': 'Failed to rename the passkey',
  'passkey-remove': 'Failed to remove the passkey',
}

type ActionData = {
  result?: Parameters<typeof DisableForm>[0]['lastResult']
  intent?: string | null
  recoveryCodes?: string[]
}

export default function AccountTwoFactor() {
  const { enabled, required, passkeys, recoveryCodesLeft, enrolment, securityPath } =
    useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>() as ActionData | undefined
  useClientFailureToast(actionData, INTENTS, 'Failed to save')
  const navigation = useNavigation()
  const resultOf = (intent: string) =>
    actionData?.intent === intent ? actionData.result : undefined
  return (
    <main className="mx-auto flex w-full max-w-2xl flex-col gap-6 px-4 py-8">
      <div>
        <Link
          to={securityPath}
          className="text-sm text-brand-text underline-offset-4 hover:underline"
        >
          Back to Security
        </Link>
        <h1 className="mt-2 text-2xl font-semibold">Two-factor authentication</h1>
        <p className="mt-1 text-sm text-gray-600 dark:text-gray-400">
          Sign in with your password and a code from an authenticator app or a passkey.
        </p>
      </div>
      <TitledSection
        id="two-factor-status"
        title={<>Status: {enabled || passkeys.length > 0 ? 'On' : 'Off'}</>}
        className="rounded-2xl border border-gray-200 bg-white p-6 dark:border-gray-800 dark:bg-gray-900"
        titleClassName="text-lg font-semibold"
      >
        <p
          className="mt-1 text-sm text-gray-600 dark:text-gray-400"
          data-testid="two-factor-status"
        >
          {enabled
            ? `Authenticator app set up. ${recoveryCodesLeft} of 10 recovery codes left.`
            : 'No authenticator app is set up.'}
          {passkeys.length > 0
            ? ` ${passkeys.length} ${passkeys.length === 1 ? 'passkey' : 'passkeys'} added.`
            : ''}
          {required ? ' Your account is required to use two-factor authentication.' : ''}
        </p>
      </TitledSection>
      {actionData?.recoveryCodes ? <RecoveryCodes codes={actionData.recoveryCodes} /> : null}
      {enabled ? (
        <>
          <TitledSection
            id="recovery-codes"
            title="Recovery codes"
            className="flex flex-col gap-3 rounded-2xl border border-gray-200 bg-white p-6 dark:border-gray-800 dark:bg-gray-900"
            titleClassName="text-lg font-semibold"
          >
            <p className="text-sm text-gray-600 dark:text-gray-400">
              New codes replace every earlier one.
            </p>
            <Form method="POST">
              <input type="hidden" name="intent" value="regenerate" />
              <StatusButton
                variant="secondary"
                pending={
                  navigation.state === 'submitting' &&
                  navigation.formData?.get('intent') === 'regenerate'
                }
                pendingText="Making codes..."
              >
                Make new recovery codes
              </StatusButton>
            </Form>
          </TitledSection>
          {required && passkeys.length === 0 ? null : (
            <TitledSection
              id="turn-off"
              title="Turn off"
              className="flex flex-col gap-3 rounded-2xl border border-gray-200 bg-white p-6 dark:border-gray-800 dark:bg-gray-900"
              titleClassName="text-lg font-semibold"
            >
              <DisableForm lastResult={resultOf('disable')} />
            </TitledSection>
          )}
        </>
      ) : enrolment && !actionData?.recoveryCodes ? (
        <TitledSection
          id="set-up"
          title="Set up an authenticator app"
          className="rounded-2xl border border-gray-200 bg-white p-6 dark:border-gray-800 dark:bg-gray-900"
          titleClassName="mb-4 text-lg font-semibold"
        >
          <EnrolForm enrolment={enrolment} lastResult={resultOf('enrol')} />
        </TitledSection>
      ) : null}
      <section
        aria-labelledby="passkeys"
        className="flex flex-col gap-4 rounded-2xl border border-gray-200 bg-white p-6 dark:border-gray-800 dark:bg-gray-900"
      >
        <div>
          <h2 id="passkeys" className="text-lg font-semibold">
            Passkeys
          </h2>
          <p className="mt-1 text-sm text-gray-600 dark:text-gray-400">
            Pass the second step with your device's fingerprint, face or PIN, or a security key,
            instead of a code.
          </p>
        </div>
        <PasskeyList passkeys={passkeys} result={actionData} />
        <PasskeyAddForm lastResult={resultOf('passkey-add')} />
      </section>
    </main>
  )
}
