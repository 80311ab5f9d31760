// The pieces of two-factor sign-in shared by the sign-in step and the Security area (ADR 045).
import type { SubmissionResult } from '@conform-to/react'
import { getFormProps } from '@conform-to/react'
import { Form, Link, useNavigation } from '@remix-run/react'
import { Copy, Download } from 'lucide-react'
import { FormField, FormMessage, useSchemaForm } from '#app/components/forms'
import { useTranslate } from '#app/components/layout/use-translate'
import { Button } from '#app/components/ui/button'
import { StatusButton } from '#app/components/ui/status-button'
import { TitledSection } from '#app/components/ui/titled-section'
import { toast } from '#app/components/ui/toasts'
import { translateEnglish } from '#app/utils/i18n/translate'
import { lifetimeMinutes, TWO_FACTOR_ENROLMENT_LINK } from '#app/validation/token-lifetimes'
import {
  CodeStepSchema,
  ConfirmEnrolmentEmailSchema,
  DisableSchema,
  EnrolSchema,
  RecoveryStepSchema,
  SendEnrolmentEmailSchema,
} from '#app/validation/two-factor'

export type Enrolment = { qrSvg: string; keyText: string; sealedKey: string; uri: string }
type LastResult = SubmissionResult<string[]> | null | undefined

const codeInput = {
  autoComplete: 'one-time-code',
  inputMode: 'numeric' as const,
  pattern: '[0-9 ]*',
}

function submitting(navigation: ReturnType<typeof useNavigation>, intent: string) {
  return navigation.state === 'submitting' && navigation.formData?.get('intent') === intent
}

/**
 * Before a first second factor is set up at sign-in (ADR 054): a button that emails the account
 * a link, and, on the link's page, the button that uses it in this session.
 */
export function EnrolmentEmailForms({
  email,
  linkToken,
  sent,
  lastResult,
  sendResult,
}: {
  email: string
  linkToken: string | null
  sent: boolean
  lastResult: LastResult
  sendResult: LastResult
}) {
  const navigation = useNavigation()
  const t = useTranslate()
  const [form] = useSchemaForm(ConfirmEnrolmentEmailSchema, {
    id: 'enrolment-email-link',
    lastResult,
    translate: (message) => translateEnglish(message, t),
  })
  const [sendForm] = useSchemaForm(SendEnrolmentEmailSchema, {
    id: 'enrolment-email-send',
    lastResult: sendResult,
  })
  return (
    <div className="flex flex-col gap-4">
      {linkToken ? (
        <Form method="POST" className="flex flex-col gap-4" {...getFormProps(form)}>
          {form.errors?.length ? <FormMessage>{form.errors.join(' ')}</FormMessage> : null}
          <input type="hidden" name="intent" value="confirm-email" />
          <input type="hidden" name="token" value={linkToken} />
          <StatusButton
            pending={submitting(navigation, 'confirm-email')}
            pendingText={t('twoFactor.checkingLink')}
          >
            {t('twoFactor.continueSetUp')}
          </StatusButton>
        </Form>
      ) : null}
      <p className="text-sm text-gray-600 dark:text-gray-400" data-testid="enrolment-email-note">
        {sent
          ? t('twoFactor.emailedLink', {
              email,
              count: lifetimeMinutes(TWO_FACTOR_ENROLMENT_LINK),
            })
          : t('twoFactor.firstEmail', { email })}
      </p>
      <Form method="POST" className="flex flex-col gap-4" {...getFormProps(sendForm)}>
        {sendForm.errors?.length ? <FormMessage>{sendForm.errors.join(' ')}</FormMessage> : null}
        <input type="hidden" name="intent" value="send-enrolment-email" />
        <StatusButton
          variant={linkToken || sent ? 'secondary' : 'primary'}
          pending={submitting(navigation, 'send-enrolment-email')}
          pendingText={t('twoFactor.sending')}
        >
          {sent ? t('twoFactor.sendAnother') : t('twoFactor.emailMe')}
        </StatusButton>
      </Form>
    </div>
  )
}

/** Set-up: the QR code of the otpauth URI, the key as text, and the first code to confirm. */
export function EnrolForm({
  enrolment,
  lastResult,
}: {
  enrolment: Enrolment
  lastResult: LastResult
}) {
  const navigation = useNavigation()
  // In the page's language at sign-in's step (ADR 105); English in the Security area.
  const t = useTranslate()
  const [form, fields] = useSchemaForm(EnrolSchema, {
    id: 'two-factor-enrol',
    lastResult,
    translate: (message) => translateEnglish(message, t),
  })
  return (
    <div className="flex flex-col gap-4">
      <ol className="list-decimal space-y-1 pl-5 text-sm text-gray-700 dark:text-gray-300">
        <li>{t('twoFactor.step1')}</li>
        <li>{t('twoFactor.step2')}</li>
        <li>{t('twoFactor.step3')}</li>
      </ol>
      <div
        role="img"
        aria-label={t('twoFactor.qrLabel')}
        className="mx-auto w-48 rounded-md bg-white p-2 [&_svg]:h-auto [&_svg]:w-full"
        // Drawn on the server by the qrcode package from our own URI: an SVG with no script.
        // biome-ignore lint/security/noDangerouslySetInnerHtml: our own QR SVG, no user markup
        dangerouslySetInnerHTML={{ __html: enrolment.qrSvg }}
      />
      <div className="text-sm">
        <p className="font-medium">{t('twoFactor.key')}</p>
        <p
          className="mt-1 break-all rounded-md bg-gray-100 px-3 py-2 font-mono dark:bg-gray-800"
          data-testid="totp-key"
        >
          {enrolment.keyText}
        </p>
      </div>
      <Form method="POST" className="flex flex-col gap-4" {...getFormProps(form)}>
        {form.errors?.length ? <FormMessage>{form.errors.join(' ')}</FormMessage> : null}
        <input type="hidden" name="intent" value="enrol" />
        <input type="hidden" name="sealedKey" value={enrolment.sealedKey} />
        <FormField label={t('twoFactor.appCode')} field={fields.code} {...codeInput} />
        <StatusButton
          pending={submitting(navigation, 'enrol')}
          pendingText={t('twoFactor.checking')}
        >
          {t('twoFactor.turnOn')}
        </StatusButton>
      </Form>
    </div>
  )
}

/** The recovery codes, shown once right after they are made. */
export function RecoveryCodes({ codes }: { codes: readonly string[] }) {
  const t = useTranslate()
  return (
    <div className="flex flex-col gap-3">
      <FormMessage tone="info">{t('twoFactor.saveCodes')}</FormMessage>
      <ul
        aria-label={t('twoFactor.recoveryCodes')}
        className="grid grid-cols-2 gap-2 rounded-md bg-gray-100 p-3 font-mono text-sm dark:bg-gray-800"
      >
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      <RecoveryCodeActions codes={codes} />
    </div>
  )
}

/**
 * Copy and Download for the codes (issue 41 point 16): the file downloads without JavaScript (a
 * data: link with `download`); copying needs the clipboard, and says so when it fails.
 */
function RecoveryCodeActions({ codes }: { codes: readonly string[] }) {
  const t = useTranslate()
  const text = `${codes.join('\n')}\n`
  async function copy() {
    try {
      await navigator.clipboard.writeText(text)
      toast.success(t('twoFactor.codesCopied'))
    } catch {
      toast.error(t('twoFactor.copyFailed'))
    }
  }
  return (
    <div className="flex flex-wrap gap-2">
      <Button type="button" variant="secondary" onClick={() => void copy()}>
        <Copy aria-hidden className="h-4 w-4" /> {t('twoFactor.copyCodes')}
      </Button>
      <Button asChild variant="secondary">
        <a
          href={`data:text/plain;charset=utf-8,${encodeURIComponent(text)}`}
          download="recovery-codes.txt"
        >
          <Download aria-hidden className="h-4 w-4" /> {t('twoFactor.downloadCodes')}
        </a>
      </Button>
    </div>
  )
}

export function CodeForm({ lastResult }: { lastResult: LastResult }) {
  const navigation = useNavigation()
  const t = useTranslate()
  const [form, fields] = useSchemaForm(CodeStepSchema, {
    id: 'two-factor-code',
    lastResult,
    translate: (message) => translateEnglish(message, t),
  })
  return (
    <Form method="POST" className="flex flex-col gap-4" {...getFormProps(form)}>
      {form.errors?.length ? <FormMessage>{form.errors.join(' ')}</FormMessage> : null}
      <input type="hidden" name="intent" value="code" />
      <FormField label={t('twoFactor.code')} field={fields.code} {...codeInput} autoFocus />
      <StatusButton pending={submitting(navigation, 'code')} pendingText={t('twoFactor.verifying')}>
        {t('twoFactor.verify')}
      </StatusButton>
    </Form>
  )
}

export function RecoveryForm({ lastResult }: { lastResult: LastResult }) {
  const navigation = useNavigation()
  const t = useTranslate()
  const [form, fields] = useSchemaForm(RecoveryStepSchema, {
    id: 'two-factor-recovery',
    lastResult,
    translate: (message) => translateEnglish(message, t),
  })
  return (
    <Form method="POST" className="flex flex-col gap-4" {...getFormProps(form)}>
      {form.errors?.length ? <FormMessage>{form.errors.join(' ')}</FormMessage> : null}
      <input type="hidden" name="intent" value="recovery" />
      <FormField
        label={t('twoFactor.recoveryCode')}
        field={fields.recoveryCode}
        autoComplete="off"
      />
      <StatusButton
        variant="secondary"
        pending={submitting(navigation, 'recovery')}
        pendingText={t('twoFactor.verifying')}
      >
        {t('twoFactor.useRecovery')}
      </StatusButton>
    </Form>
  )
}

export function DisableForm({ lastResult }: { lastResult: LastResult }) {
  const navigation = useNavigation()
  const [form, fields] = useSchemaForm(DisableSchema, { id: 'two-factor-disable', lastResult })
  return (
    <Form method="POST" className="flex flex-col gap-4" {...getFormProps(form)}>
      {form.errors?.length ? <FormMessage>{form.errors.join(' ')}</FormMessage> : null}
      <input type="hidden" name="intent" value="disable" />
      <FormField label="Code from your authenticator app" field={fields.code} {...codeInput} />
      <StatusButton
        variant="danger"
        pending={submitting(navigation, 'disable')}
        pendingText="Turning off..."
      >
        Turn off two-factor authentication
      </StatusButton>
    </Form>
  )
}

/** A way out for someone who cannot pass the step now: sign out (a POST, as everywhere). */
export function SignOut() {
  // Also the footer of the expired password's step, in the visitor's language (ADR 105).
  const t = useTranslate()
  return (
    <Form method="POST" action="/auth/logout" className="inline">
      <button
        type="submit"
        className="font-medium text-brand-text underline-offset-4 hover:underline"
      >
        {t('newPassword.signOut')}
      </button>
    </Form>
  )
}

/** The profile's Security tab: where two-factor authentication is managed. */
export function TwoFactorLink() {
  return (
    <TitledSection
      id="two-factor-link"
      title="Two-factor authentication"
      className="flex flex-col gap-2 rounded-2xl border border-gray-200 bg-white p-6 dark:border-gray-800 dark:bg-gray-900"
      titleClassName="text-lg font-semibold"
    >
      <p className="text-sm text-gray-600 dark:text-gray-400">
        A second step at sign-in: a code from an authenticator app or a passkey, with recovery codes
        in case you lose your device.
      </p>
      <Link
        to="/account/two-factor"
        className="text-sm font-medium text-brand-text underline-offset-4 hover:underline"
      >
        Manage two-factor authentication
      </Link>
    </TitledSection>
  )
}
