import { getFormProps, type SubmissionResult, useForm } from '@conform-to/react'
import { Form, useNavigation } from '@remix-run/react'
import { CircleAlert, CircleCheck } from 'lucide-react'
import { useState } from 'react'
import {
  FORM_VALIDATION,
  FormField,
  FormMessage,
  formConstraint,
  NameFields,
  withEveryError,
} from '#app/components/forms'
import { ImageField } from '#app/components/image-field'
import { ResendConfirmationForm } from '#app/components/layout/email-confirmation-banner'
import { Panel } from '#app/components/ui/panel'
import { StatusButton } from '#app/components/ui/status-button'
import { ProfileSchema } from '#app/validation/profile'
import { parseProfileForm } from '#app/validation/profile-form'

export type ProfileValues = {
  firstName: string
  lastName: string
  email: string
  emailConfirmed: boolean
  workEmail: string
  phoneNumber: string
  company: string
  jobTitle: string
  website: string
  logoUrl: string | null
  profilePictureUrl: string | null
}

/** The profile form (spec §5): names required, valid emails and website, two images. */
export function PersonalInfoForm({
  profile,
  lastResult,
}: {
  profile: ProfileValues
  lastResult?: SubmissionResult<string[]> | null
}) {
  const navigation = useNavigation()
  const pending =
    navigation.state === 'submitting' && navigation.formData?.get('intent') === 'profile'
  const [form, fields] = withEveryError(
    useForm({
      id: 'profile',
      lastResult,
      defaultValue: {
        firstName: profile.firstName,
        lastName: profile.lastName,
        email: profile.email,
        workEmail: profile.workEmail,
        phoneNumber: profile.phoneNumber,
        company: profile.company,
        jobTitle: profile.jobTitle,
        website: profile.website,
      },
      constraint: formConstraint(ProfileSchema),
      ...FORM_VALIDATION,
      onValidate: ({ formData }) => parseProfileForm(formData),
    }),
  )
  // A new email needs the current password (checked on the server): the field shows once the
  // email differs from the saved one, or when the server asked for it (no JavaScript).
  const [email, setEmail] = useState(profile.email)
  const askPassword =
    email.trim().toLowerCase() !== profile.email || Boolean(fields.currentPassword.errors?.length)
  // Image errors come from the server only (the file is checked there).
  const imageErrors = (name: string) => lastResult?.error?.[name] ?? undefined
  return (
    <Panel title="Personal Information" description="Update your personal details and images.">
      <Form
        method="POST"
        encType="multipart/form-data"
        className="flex flex-col gap-6"
        {...getFormProps(form)}
      >
        <input type="hidden" name="intent" value="profile" />
        {form.errors?.length ? <FormMessage>{form.errors.join(' ')}</FormMessage> : null}
        <div className="grid gap-4 sm:grid-cols-2">
          <NameFields fields={fields} />
          <div className="flex flex-col gap-1.5">
            <FormField
              label="Email"
              field={fields.email}
              type="email"
              autoComplete="email"
              onChange={(event) => setEmail(event.currentTarget.value)}
            />
            <EmailConfirmationStatus confirmed={profile.emailConfirmed} />
          </div>
          {askPassword ? (
            <FormField
              label="Current password"
              hint="Needed to change your email. Your other sessions will be signed out."
              className="sm:col-span-2"
              field={fields.currentPassword}
              type="password"
              autoComplete="current-password"
            />
          ) : null}
          <FormField
            label="Work email"
            field={fields.workEmail}
            type="email"
            autoComplete="work email"
          />
          <FormField label="Phone" field={fields.phoneNumber} type="tel" autoComplete="tel" />
          <FormField label="Company" field={fields.company} autoComplete="organization" />
          <FormField label="Job title" field={fields.jobTitle} autoComplete="organization-title" />
          {/* Text, not url: a bare domain is accepted and gets https:// on the server. */}
          <FormField
            label="Website"
            field={fields.website}
            inputMode="url"
            autoComplete="url"
            placeholder="example.com"
          />
        </div>
        <div className="grid gap-6 sm:grid-cols-2">
          {(
            [
              {
                name: 'profilePicture',
                label: 'Profile picture',
                currentUrl: profile.profilePictureUrl,
              },
              { name: 'logo', label: 'Logo', currentUrl: profile.logoUrl },
            ] as const
          ).map((image) => (
            <ImageField
              key={image.name}
              {...image}
              purpose={image.name}
              errors={imageErrors(image.name)}
            />
          ))}
        </div>
        <div className="flex justify-end">
          <StatusButton pending={pending} pendingText="Saving..." className="w-full sm:w-auto">
            Save Changes
          </StatusButton>
        </div>
      </Form>
      {/* Outside the profile form (forms do not nest); its button sits by the email field. */}
      {profile.emailConfirmed ? null : <ResendConfirmationForm id={RESEND_FORM_ID} />}
    </Panel>
  )
}

const RESEND_FORM_ID = 'resend-confirmation'

/** Whether the saved email is confirmed; if not, the resend button (of the form above). */
function EmailConfirmationStatus({ confirmed }: { confirmed: boolean }) {
  if (confirmed) {
    return (
      <p className="flex items-center gap-1.5 text-xs text-green-700 dark:text-green-400">
        <CircleCheck aria-hidden className="h-3.5 w-3.5" />
        Email confirmed
      </p>
    )
  }
  return (
    <div className="flex flex-wrap items-center gap-2 text-xs text-amber-800 dark:text-amber-300">
      <p className="flex items-center gap-1.5">
        <CircleAlert aria-hidden className="h-3.5 w-3.5" />
        Email not confirmed
      </p>
      <button
        type="submit"
        form={RESEND_FORM_ID}
        className="font-medium text-brand-text underline underline-offset-4 hover:no-underline"
      >
        Resend confirmation email
      </button>
    </div>
  )
}
