// Password rotation's step (ADR 045): while Super Admin Settings → Security has "Password
// rotation every 90 days" on, a session whose password is older than that reaches only this
// page until it sets a new one (the password rules of sign-up, and not the current password).
import { getFormProps } from '@conform-to/react'
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { Form, useActionData, useNavigation } from '@remix-run/react'
import { formAction } from '#app/actions/intent-action.server'
import { replaceExpiredPassword, SAME_PASSWORD_MESSAGE } from '#app/auth/accounts.server'
import { requirePendingStep } from '#app/auth/guards.server'
import { requestTranslator } from '#app/auth/page-language.server'
import { PASSWORD_MAX_AGE_DAYS } from '#app/auth/sign-in-steps'
import { SignOut } from '#app/components/auth/two-factor'
import { serverActionOrFailure, useClientFailureToast } from '#app/components/client-failure'
import { FormMessage, NewPasswordFields, useSchemaForm } from '#app/components/forms'
import { AuthCard } from '#app/components/layout/auth-card'
import { useTranslate } from '#app/components/layout/use-translate'
import { StatusButton } from '#app/components/ui/status-button'
import { Refusal } from '#app/utils/action-error'
import { rootTranslator, translateEnglish } from '#app/utils/i18n/translate'
import { translatedPageHeaders } from '#app/utils/route-headers'
import { rolePaths } from '#app/validation/roles'
import { NewPasswordSchema } from '#app/validation/two-factor'

// The page's language, which the root loader chose (ADR 105).
// The page's language, which the root loader chose (ADR 105).
export const meta: MetaFunction = ({ matches }) => [
  { title: rootTranslator(matches)('newPassword.title') },
]
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
const NO_INTENTS = {}

export default function NewPasswordStep() {
  const actionData = useActionData<typeof action>()
  const t = useTranslate()
  useClientFailureToast(actionData, NO_INTENTS, t('newPassword.failure'))
  const navigation = useNavigation()
  const [form, fields] = useSchemaForm(NewPasswordSchema, {
    id: 'new-password',
    lastResult: actionData?.result as Parameters<typeof useSchemaForm>[1]['lastResult'],
    translate: (message) => translateEnglish(message, t),
  })
  return (
    <AuthCard
      title={t('newPassword.title')}
      description={t('newPassword.description', { count: PASSWORD_MAX_AGE_DAYS })}
      footer={<SignOut />}
    >
      <Form method="POST" className="flex flex-col gap-4" {...getFormProps(form)}>
        {form.errors?.length ? <FormMessage>{form.errors.join(' ')}</FormMessage> : null}
        <NewPasswordFields fields={fields} />
        <StatusButton
          pending={navigation.state === 'submitting'}
          pendingText={t('newPassword.saving')}
        >
          {t('newPassword.submit')}
        </StatusButton>
      </Form>
    </AuthCard>
  )
}
