// Forms of the sign-in area, shared by conform on the client and the actions (spec §5).
import { z } from 'zod'
import { NAME_MAX_LENGTH, nameField } from './names'
import { plainText } from './text'

export const emailField = () =>
  z
    .string({ error: 'Please enter a valid email address' })
    .trim()
    .max(254, 'Please enter a valid email address')
    .pipe(z.email({ error: 'Please enter a valid email address' }))

const email = emailField()

export const passwordField = () =>
  z
    .string({ error: 'Password must be at least 6 characters' })
    .min(6, 'Password must be at least 6 characters')
    // argon2 hashes anything, but a megabyte password is an attack, not a password.
    .max(200, 'Password must be at most 200 characters')
const password = passwordField()

const name = (label: 'First' | 'Last') => nameField(`${label} name`, NAME_MAX_LENGTH.namePart)

export const LoginSchema = z.object({
  email,
  password,
  redirectTo: z.string().max(2000).optional(),
})

export const RegisterSchema = z.object({
  firstName: name('First'),
  lastName: name('Last'),
  email,
  password,
  company: plainText(200, 'Company name must be at most 200 characters').optional(),
})

export const ForgotPasswordSchema = z.object({ email })

export const ResetPasswordSchema = z
  .object({
    token: z.string().min(1).max(200),
    password,
    confirmPassword: z
      .string({ error: 'Password must be at least 6 characters' })
      .min(6, 'Password must be at least 6 characters')
      .max(200, 'Password must be at most 200 characters'),
  })
  .refine((value) => value.password === value.confirmPassword, {
    message: 'Passwords do not match',
    path: ['confirmPassword'],
  })
