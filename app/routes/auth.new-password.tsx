// Password rotation's step (ADR 045): while Super Admin Settings → Security has "Password
// rotation every 90 days" on, a session whose password is older than that reaches only this
// page until it sets a new one (the password rules of sign-up, and not the current password).
import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node'
import { formAction } from '#app/actions/intent-action.server'
import { replaceExpiredPassword, SAME_PASSWORD_MESSAGE } from '#app/auth/accounts.server'
import { requirePendingStep } from '#app/auth/guards.server'
import { requestTranslator } from '#app/auth/page-language.server'
import { PASSWORD_MAX_AGE_DAYS } from '#app/auth/sign-in-steps'
import { AuthForm, useAuthForm } from '#app/components/auth/auth-form'
import { translatedTitle } from '#app/components/auth/page-title'
import { SignOut } from '#app/components/auth/two-factor'
import { serverActionOrFailure } from '#app/components/client-failure'
import { NewPasswordFields } from '#app/components/forms'
import { AuthCard } from '#app/components/layout/auth-card'
import { Refusal } from '#app/utils/action-error'
import { translatedPageHeaders } from '#app/utils/route-headers'
import { rolePaths } from '#app/validation/roles'
import { NewPasswordSchema } from '#app/validation/two-factor'

export const meta = translatedTitle('newPassword.title')
export const headers = translatedPageHeaders

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requirePendingStep(request, context, 'new-password')
  return null
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { t, translate } = await requestTranslator(request, context)
  return formAction(request, {
    translate,
    guard: () => requirePendingStep(request, context, 'new-password'),
    schema: NewPasswordSchema,
    hideFields: ['password', 'confirmPassword'],
    redirectTo: '/',
    handle: async ({ password }, { tenant, user, session }) => {
      if (!(await replaceExpiredPassword(tenant, user, session.sessionId, password))) {
        return new Refusal('invalid', SAME_PASSWORD_MESSAGE, { field: 'password' })
      }
      return { toast: t('newPassword.updated'), redirectTo: rolePaths(user.role).dashboard }
    },
  })
}

export const clientAction = serverActionOrFailure

export default function NewPasswordStep() {
  const { t, form, fields } = useAuthForm(NewPasswordSchema, {
    id: 'new-password',
    failure: 'newPassword.failure',
  })
  return (
    <AuthCard
      title={t('newPassword.title')}
      description={t('newPassword.description', { count: PASSWORD_MAX_AGE_DAYS })}
      footer={<SignOut />}
    >
      <AuthForm form={form} pendingText={t('newPassword.saving')} submit={t('newPassword.submit')}>
        <NewPasswordFields fields={fields} />
      </AuthForm>
    </AuthCard>
  )
}
