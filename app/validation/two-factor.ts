// Forms of two-factor sign-in and password rotation (ADR 045), shared by conform and the actions.
import { z } from 'zod'
import { confirmPasswordField, PASSWORDS_DO_NOT_MATCH, passwordField } from './passwords'

export const CODE_MESSAGE = 'Please enter the 6-digit code from your authenticator app'
export const RECOVERY_CODE_MESSAGE = 'Please enter one of your recovery codes'

const code = z
  .string({ error: CODE_MESSAGE })
  .trim()
  .transform((value) => value.replace(/\s+/g, ''))
  .pipe(z.string().regex(/^\d{6}$/, CODE_MESSAGE))

export const SET_UP_EXPIRED_MESSAGE = 'The set-up expired. Please start again.'
const sealedKey = z.string({ error: SET_UP_EXPIRED_MESSAGE }).min(1).max(500)

export const EnrolSchema = z.object({ intent: z.literal('enrol'), sealedKey, code })

export const CodeStepSchema = z.object({ intent: z.literal('code'), code })
export const RecoveryStepSchema = z.object({
  intent: z.literal('recovery'),
  recoveryCode: z
    .string({ error: RECOVERY_CODE_MESSAGE })
    .trim()
    .min(1, RECOVERY_CODE_MESSAGE)
    .max(40, RECOVERY_CODE_MESSAGE),
})
export const RegenerateSchema = z.object({ intent: z.literal('regenerate') })
export const DisableSchema = z.object({ intent: z.literal('disable'), code })

// Passkeys (ADR 045, Passkeys): the browser's credential travels as JSON text; the server
// parses and verifies it (a few kilobytes at most: a key, a signature, authenticator data).
export const PASSKEY_NAME_MESSAGE = 'Please give this passkey a name (up to 60 characters)'
const passkeyName = z
  .string({ error: PASSKEY_NAME_MESSAGE })
  .trim()
  .min(1, PASSKEY_NAME_MESSAGE)
  .max(60, PASSKEY_NAME_MESSAGE)
export const PASSKEY_NO_ANSWER_MESSAGE = 'The passkey did not answer. Please try again.'
const credential = z
  .string({ error: PASSKEY_NO_ANSWER_MESSAGE })
  .min(1, PASSKEY_NO_ANSWER_MESSAGE)
  .max(20_000, PASSKEY_NO_ANSWER_MESSAGE)
const passkeyId = z.uuid({ error: 'That passkey was not found.' })

export const PasskeyOptionsSchema = z.object({ intent: z.literal('passkey-options') })
export const PasskeyAddSchema = z.object({
  intent: z.literal('passkey-add'),
  name: passkeyName,
  credential,
})
export const PasskeyRenameSchema = z.object({
  intent: z.literal('passkey-rename'),
  passkeyId,
  name: passkeyName,
})
export const PasskeyRemoveSchema = z.object({ intent: z.literal('passkey-remove'), passkeyId })
export const PasskeyStepSchema = z.object({ intent: z.literal('passkey'), credential })

// Before a first second factor is set up at the step, the account's email (ADR 054): the step
// sends a link, and the link's page posts its token back from the session that asked.
export const SendEnrolmentEmailSchema = z.object({ intent: z.literal('send-enrolment-email') })
export const ENROLMENT_LINK_INCOMPLETE_MESSAGE =
  'That link is not complete. Please open it from the email again.'
export const ConfirmEnrolmentEmailSchema = z.object({
  intent: z.literal('confirm-email'),
  token: z.string({ error: ENROLMENT_LINK_INCOMPLETE_MESSAGE }).trim().min(1).max(100),
})

/** The sign-in's second step: the authenticator's code, a recovery code, a passkey, enrolment. */
export const TwoFactorStepSchema = z.discriminatedUnion('intent', [
  SendEnrolmentEmailSchema,
  ConfirmEnrolmentEmailSchema,
  CodeStepSchema,
  RecoveryStepSchema,
  EnrolSchema,
  PasskeyOptionsSchema,
  PasskeyStepSchema,
  PasskeyAddSchema,
])

/** The Security area's two-factor page. */
export const AccountTwoFactorSchema = z.discriminatedUnion('intent', [
  EnrolSchema,
  RegenerateSchema,
  DisableSchema,
  PasskeyOptionsSchema,
  PasskeyAddSchema,
  PasskeyRenameSchema,
  PasskeyRemoveSchema,
])

/** Password rotation's step: a new password, typed twice. */
export const NewPasswordSchema = z
  .object({
    password: passwordField(),
    confirmPassword: confirmPasswordField(),
  })
  .refine((value) => value.password === value.confirmPassword, {
    message: PASSWORDS_DO_NOT_MATCH,
    path: ['confirmPassword'],
  })
