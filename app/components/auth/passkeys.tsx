// Passkeys (ADR 045, Passkeys): adding one in the Security area and using one at the sign-in's
// second step. Each ceremony asks the page's own action for options (a fetcher: the challenge
// stays on the server, bound to the session), runs the browser's WebAuthn call, and posts the
// credential back in an ordinary form the action verifies.
import type { SubmissionResult } from '@conform-to/react'
import { getFormProps, getInputProps } from '@conform-to/react'
import { Form, useFetcher, useNavigation } from '@remix-run/react'
import { startAuthentication, startRegistration } from '@simplewebauthn/browser'
import { useEffect, useRef, useState } from 'react'
import { Field, FormMessage, useSchemaForm } from '#app/components/forms'
import { useTranslate } from '#app/components/layout/use-translate'
import { Button } from '#app/components/ui/button'
import { StatusButton } from '#app/components/ui/status-button'
import { translateEnglish } from '#app/utils/i18n/translate'
import {
  PasskeyAddSchema,
  PasskeyRemoveSchema,
  PasskeyRenameSchema,
  PasskeyStepSchema,
} from '#app/validation/two-factor'

type LastResult = SubmissionResult<string[]> | null | undefined
type OptionsAnswer = { options?: unknown; error?: string | null }

export type PasskeyRow = {
  id: string
  name: string
  createdAt: string | Date
  lastUsedAt: string | Date | null
}

function submitting(navigation: ReturnType<typeof useNavigation>, intent: string) {
  return navigation.state === 'submitting' && navigation.formData?.get('intent') === intent
}

/**
 * Asks the action for a ceremony's options, runs `ceremony` on them, and submits `form` with the
 * credential in its `credential` field. `problem` is what went wrong on the way, if anything.
 */
function usePasskeyCeremony(ceremony: (optionsJSON: never) => Promise<unknown>, failed: string) {
  const fetcher = useFetcher<OptionsAnswer>()
  const formRef = useRef<HTMLFormElement>(null)
  const credentialRef = useRef<HTMLInputElement>(null)
  const [problem, setProblem] = useState<string | null>(null)
  const [running, setRunning] = useState(false)
  const answer = fetcher.state === 'idle' ? fetcher.data : undefined
  useEffect(() => {
    if (!answer) return
    if (!answer.options) {
      setProblem(answer.error ?? failed)
      setRunning(false)
      return
    }
    let cancelled = false
    ceremony(answer.options as never)
      .then((credential) => {
        if (cancelled || !formRef.current || !credentialRef.current) return
        credentialRef.current.value = JSON.stringify(credential)
        formRef.current.requestSubmit()
      })
      .catch(() => {
        if (!cancelled) setProblem(failed)
      })
      .finally(() => {
        if (!cancelled) setRunning(false)
      })
    return () => {
      cancelled = true
    }
  }, [answer, ceremony, failed])
  const start = () => {
    setProblem(null)
    setRunning(true)
    fetcher.submit({ intent: 'passkey-options' }, { method: 'POST' })
  }
  return { start, running: running || fetcher.state !== 'idle', problem, formRef, credentialRef }
}

const register = (optionsJSON: never) => startRegistration({ optionsJSON })
const authenticate = (optionsJSON: never) => startAuthentication({ optionsJSON })

/** The Security area: name a new passkey and create it with the browser. */
export function PasskeyAddForm({ lastResult }: { lastResult: LastResult }) {
  const navigation = useNavigation()
  // In the page's language at sign-in's step (ADR 105); English in the Security area.
  const t = useTranslate()
  const ceremony = usePasskeyCeremony(register, t('passkey.addFailed'))
  const [form, fields] = useSchemaForm(PasskeyAddSchema, {
    id: 'passkey-add',
    lastResult,
    defaultValue: { name: t('passkey.defaultName') },
    translate: (message) => translateEnglish(message, t),
  })
  const { key: _key, ...nameProps } = getInputProps(fields.name, { type: 'text' })
  return (
    <Form
      method="POST"
      className="flex flex-col gap-4"
      {...getFormProps(form)}
      ref={ceremony.formRef}
    >
      {form.errors?.length ? <FormMessage>{form.errors.join(' ')}</FormMessage> : null}
      {ceremony.problem ? <FormMessage>{ceremony.problem}</FormMessage> : null}
      <input type="hidden" name="intent" value="passkey-add" />
      <input type="hidden" name="credential" ref={ceremony.credentialRef} defaultValue="" />
      <Field
        label={t('passkey.name')}
        inputProps={{ ...nameProps, autoComplete: 'off' }}
        errors={fields.name.errors}
        hint={t('passkey.nameHint')}
      />
      <Button
        type="button"
        variant="secondary"
        onClick={ceremony.start}
        disabled={ceremony.running || submitting(navigation, 'passkey-add')}
        aria-busy={ceremony.running}
      >
        {ceremony.running || submitting(navigation, 'passkey-add')
          ? t('passkey.adding')
          : t('passkey.add')}
      </Button>
    </Form>
  )
}

function when(value: string | Date | null) {
  return value ? new Date(value).toLocaleDateString('en-US', { dateStyle: 'medium' }) : 'never'
}

function PasskeyItem({ passkey, lastResult }: { passkey: PasskeyRow; lastResult: LastResult }) {
  const navigation = useNavigation()
  const [form, fields] = useSchemaForm(PasskeyRenameSchema, {
    id: `passkey-rename-${passkey.id}`,
    lastResult,
    defaultValue: { name: passkey.name },
  })
  const removeForm = useSchemaForm(PasskeyRemoveSchema, { id: `passkey-remove-${passkey.id}` })[0]
  const { key: _key, ...nameProps } = getInputProps(fields.name, { type: 'text' })
  const busy =
    navigation.state === 'submitting' && navigation.formData?.get('passkeyId') === passkey.id
  return (
    <li className="flex flex-col gap-3 border-t border-gray-200 pt-4 first:border-t-0 first:pt-0 dark:border-gray-800">
      <p className="text-sm">
        <span className="font-medium" data-testid="passkey-name">
          {passkey.name}
        </span>
        <span className="text-gray-600 dark:text-gray-400">
          {' '}
          · added {when(passkey.createdAt)} · last used {when(passkey.lastUsedAt)}
        </span>
      </p>
      <div className="flex flex-wrap items-end gap-3">
        <Form method="POST" className="flex flex-wrap items-end gap-3" {...getFormProps(form)}>
          <input type="hidden" name="intent" value="passkey-rename" />
          <input type="hidden" name="passkeyId" value={passkey.id} />
          <Field
            label={`New name for ${passkey.name}`}
            inputProps={{ ...nameProps, autoComplete: 'off' }}
            errors={fields.name.errors ?? form.errors}
          />
          <StatusButton
            variant="secondary"
            size="sm"
            pending={busy && navigation.formData?.get('intent') === 'passkey-rename'}
            pendingText="Renaming..."
          >
            Rename
          </StatusButton>
        </Form>
        <Form method="POST" {...getFormProps(removeForm)}>
          <input type="hidden" name="intent" value="passkey-remove" />
          <input type="hidden" name="passkeyId" value={passkey.id} />
          <StatusButton
            variant="danger"
            size="sm"
            pending={busy && navigation.formData?.get('intent') === 'passkey-remove'}
            pendingText="Removing..."
            aria-label={`Remove ${passkey.name}`}
          >
            Remove
          </StatusButton>
        </Form>
      </div>
    </li>
  )
}

/** The account's passkeys, each with rename and remove; a refusal shows on its own row. */
export function PasskeyList({
  passkeys,
  result,
}: {
  passkeys: PasskeyRow[]
  result?: { intent?: string | null; result?: LastResult }
}) {
  if (passkeys.length === 0) {
    return <p className="text-sm text-gray-600 dark:text-gray-400">No passkey is added yet.</p>
  }
  const posted = (result?.result as { initialValue?: { passkeyId?: unknown } } | undefined)
    ?.initialValue?.passkeyId
  return (
    <ul aria-label="Passkeys" className="flex flex-col gap-4">
      {passkeys.map((passkey) => (
        <PasskeyItem
          key={passkey.id}
          passkey={passkey}
          lastResult={
            result?.intent?.startsWith('passkey-') && posted === passkey.id
              ? result.result
              : undefined
          }
        />
      ))}
    </ul>
  )
}

/** The sign-in's second step with a passkey. */
export function PasskeyStepForm({ lastResult }: { lastResult: LastResult }) {
  const navigation = useNavigation()
  const t = useTranslate()
  const ceremony = usePasskeyCeremony(authenticate, t('passkey.stepFailed'))
  const [form] = useSchemaForm(PasskeyStepSchema, {
    id: 'passkey-step',
    lastResult,
    translate: (message) => translateEnglish(message, t),
  })
  return (
    <Form
      method="POST"
      className="flex flex-col gap-3"
      {...getFormProps(form)}
      ref={ceremony.formRef}
    >
      {form.errors?.length ? <FormMessage>{form.errors.join(' ')}</FormMessage> : null}
      {ceremony.problem ? <FormMessage>{ceremony.problem}</FormMessage> : null}
      <input type="hidden" name="intent" value="passkey" />
      <input type="hidden" name="credential" ref={ceremony.credentialRef} defaultValue="" />
      <Button
        type="button"
        onClick={ceremony.start}
        disabled={ceremony.running || submitting(navigation, 'passkey')}
        aria-busy={ceremony.running}
      >
        {ceremony.running || submitting(navigation, 'passkey')
          ? t('twoFactor.verifying')
          : t('passkey.use')}
      </Button>
    </Form>
  )
}
