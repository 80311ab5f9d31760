// Forms of the sign-in area, shared by conform on the client and the actions (spec §5).
import { z } from 'zod'
import { COMPANY_MAX_LENGTH } from './card-details'
import { signUpNameField } from './names'
import { PASSWORDS_DO_NOT_MATCH, passwordField } from './passwords'
import { plainText } from './text'

export const emailField = () =>
  z
    .string({ error: 'Please enter a valid email address' })
    .trim()
    .max(254, 'Please enter a valid email address')
    .pipe(z.email({ error: 'Please enter a valid email address' }))

const email = emailField()

const password = passwordField()

export const LoginSchema = z.object({
  email,
  password,
  redirectTo: z.string().max(2000).optional(),
})

export const RegisterSchema = z.object({
  firstName: signUpNameField('First name'),
  lastName: signUpNameField('Last name'),
  email,
  password,
  company: plainText(
    COMPANY_MAX_LENGTH,
    `Company name must be at most ${COMPANY_MAX_LENGTH} characters`,
  ).optional(),
})

/** Sign-up's answer for an address that already has an account here (spec §8). */
export const ACCOUNT_EXISTS_MESSAGE =
  'An account with this email already exists. Please sign in instead.'

export const ForgotPasswordSchema = z.object({ email })

export const ResetPasswordSchema = z
  .object({
    token: z.string().min(1).max(200),
    password,
    // Spec §5: both passwords at least 6, and the same.
    confirmPassword: passwordField(),
  })
  .refine((value) => value.password === value.confirmPassword, {
    message: PASSWORDS_DO_NOT_MATCH,
    path: ['confirmPassword'],
  })
