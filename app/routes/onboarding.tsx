import { getFormProps, getInputProps, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import {
  type ActionFunctionArgs,
  data,
  type LoaderFunctionArgs,
  type MetaFunction,
  redirect,
} from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react'
import { ArrowLeft } from 'lucide-react'
import { useState } from 'react'
import { requireUser } from '#app/auth/guards.server'
import { rolePaths } from '#app/auth/roles'
import { WIZARD_STEPS, type WizardMode, wizardUrl } from '#app/cards/wizard'
import { finishWizard, loadDraft, saveDraftStep, type WizardDraft } from '#app/cards/wizard.server'
import { BackgroundSwatches, parseSwatch } from '#app/components/card/background-swatches'
import { CardDisplay } from '#app/components/card/card-display'
import { Field, FormMessage, formConstraint } from '#app/components/forms'
import { ImageField } from '#app/components/image-field'
import { Button } from '#app/components/ui/button'
import { StatusButton } from '#app/components/ui/status-button'
import { readForm, resolveImageField, UploadError } from '#app/media/uploads.server'
import { recordAudit } from '#app/models/audit.server'
import { getMediaPath } from '#app/models/media.server'
import { useRootData } from '#app/root'
import { redirectWithToast } from '#app/utils/toast.server'
import { BackgroundSchema } from '#app/validation/card-background'
import { WizardContactSchema, WizardNameSchema, WizardWorkSchema } from '#app/validation/profile'
import { plainText } from '#app/validation/text'
import { withTenant } from '#drizzle/db.server'

export const meta: MetaFunction = () => [{ title: 'Create Your Profile' }]

function readStep(url: URL) {
  const step = Number(url.searchParams.get('step') ?? '1')
  return Number.isInteger(step) && step >= 1 && step <= WIZARD_STEPS ? step : 1
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { tenant, user } = await requireUser(request, context)
  const url = new URL(request.url)
  const mode: WizardMode = url.searchParams.get('mode') === 'card' ? 'card' : 'profile'
  const title = url.searchParams.get('title')
  const step = readStep(url)
  const loaded = await withTenant(tenant.id, async (tx) => {
    // The title comes from the URL: anything that is not plain text is dropped.
    const cleanTitle = title === null ? null : (plainText(100).safeParse(title).data ?? '')
    const draft = await loadDraft(tx, user, mode, cleanTitle)
    const [logoUrl, profilePictureUrl, backgroundImageUrl] = await Promise.all([
      getMediaPath(tx, tenant.id, draft.logoMediaId),
      getMediaPath(tx, tenant.id, draft.profilePictureMediaId),
      getMediaPath(tx, tenant.id, draft.backgroundMediaId),
    ])
    return { draft, logoUrl, profilePictureUrl, backgroundImageUrl }
  })
  return { step, mode, ...loaded }
}

const StepSchemas = { 1: WizardNameSchema, 2: WizardContactSchema, 3: WizardWorkSchema } as const

export async function action({ request, context }: ActionFunctionArgs) {
  const { tenant, user } = await requireUser(request, context)
  const url = new URL(request.url)
  const mode: WizardMode = url.searchParams.get('mode') === 'card' ? 'card' : 'profile'
  const step = readStep(url)
  let formData: FormData
  try {
    formData = await readForm(request)
  } catch (error) {
    if (!(error instanceof UploadError)) throw error
    return data(
      { result: null, imageErrors: { [error.field.replace(/File$/, '')]: error.message } },
      { status: 400 },
    )
  }

  if (step <= 3) {
    const schema = StepSchemas[step as 1 | 2 | 3]
    const submission = parseWithZod(formData, { schema })
    if (submission.status !== 'success') {
      return data({ result: submission.reply(), imageErrors: {} }, { status: 400 })
    }
    await withTenant(tenant.id, async (tx) => {
      const draft = await loadDraft(tx, user, mode, null)
      await saveDraftStep(tx, user, draft, submission.value, step + 1)
    })
    return redirect(wizardUrl(mode, step + 1))
  }

  if (step === 4) {
    try {
      // One transaction: a refused field or background leaves no image of this form behind.
      await withTenant(tenant.id, async (tx) => {
        const [logo, picture, backgroundImage] = [
          await resolveImageField({ tenant, user }, formData, 'logo', 'logo', tx),
          await resolveImageField(
            { tenant, user },
            formData,
            'profilePicture',
            'profilePicture',
            tx,
          ),
          await resolveImageField({ tenant, user }, formData, 'background', 'background', tx),
        ]
        const choice = parseSwatch(formData.get('backgroundChoice'))
        const background = backgroundImage
          ? BackgroundSchema.safeParse({ kind: 'image', mediaId: backgroundImage })
          : choice
            ? BackgroundSchema.safeParse(choice)
            : null
        if (background && !background.success) {
          throw new UploadError('background', 'Please choose a background')
        }
        const draft = await loadDraft(tx, user, mode, null)
        const changes: Partial<WizardDraft> = {}
        if (logo !== undefined) changes.logoMediaId = logo
        if (picture !== undefined) changes.profilePictureMediaId = picture
        if (background?.success) {
          const value = background.data
          Object.assign(
            changes,
            value.kind === 'image'
              ? { backgroundKind: 'image', backgroundValue: '', backgroundMediaId: value.mediaId }
              : {
                  backgroundKind: value.kind,
                  backgroundValue: value.value,
                  backgroundMediaId: null,
                },
          )
        }
        await saveDraftStep(tx, user, draft, changes, 5)
      })
    } catch (error) {
      if (!(error instanceof UploadError)) throw error
      return data({ result: null, imageErrors: { [error.field]: error.message } }, { status: 400 })
    }
    return redirect(wizardUrl(mode, 5))
  }

  // Step 5: create the card (and, in profile mode, complete the profile).
  const card = await withTenant(tenant.id, async (tx) => {
    const draft = await loadDraft(tx, user, mode, null)
    const parsedNames = WizardNameSchema.safeParse(draft)
    if (!parsedNames.success) return null
    const created = await finishWizard(tx, user, draft)
    await recordAudit(tx, tenant.id, {
      actorUserId: user.id,
      action: mode === 'card' ? 'card.created' : 'profile.created',
      entityType: 'digital_card',
      entityId: created.id,
    })
    return created
  })
  if (!card) {
    return redirectWithToast(wizardUrl(mode, 1), {
      type: 'error',
      title:
        mode === 'card' ? 'Failed to create digital card' : 'Please enter your first and last name',
    })
  }
  if (mode === 'card') {
    return redirectWithToast(rolePaths(user.role).digitalCards, {
      title: 'Digital card created successfully!',
    })
  }
  return redirectWithToast('/qrcode', { title: 'Profile created successfully!' })
}

function StepHeader({ step, title, back }: { step: number; title: string; back: string }) {
  return (
    <div className="flex flex-col gap-4">
      <div className="flex items-center gap-3">
        <Button asChild variant="ghost" size="sm" aria-label="Back">
          <Link to={back}>
            <ArrowLeft aria-hidden className="h-4 w-4" />
          </Link>
        </Button>
        <h1 className="text-2xl font-semibold">{title}</h1>
      </div>
      <div className="flex flex-col gap-2">
        <p className="text-sm text-gray-600 dark:text-gray-400">
          Step {step} of {WIZARD_STEPS}
        </p>
        <div
          className="h-2 w-full overflow-hidden rounded-full bg-gray-200 dark:bg-gray-800"
          role="progressbar"
          aria-valuemin={1}
          aria-valuemax={WIZARD_STEPS}
          aria-valuenow={step}
          aria-label="Wizard progress"
        >
          <div
            className="h-full bg-brand transition-all"
            style={{ width: `${(step / WIZARD_STEPS) * 100}%` }}
          />
        </div>
      </div>
    </div>
  )
}

const STEP_TITLES = ['Your name', 'How to reach you', 'Your work', 'Visual elements', 'Review']

export default function OnboardingPage() {
  const { step, mode, draft, logoUrl, profilePictureUrl, backgroundImageUrl } =
    useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const navigation = useNavigation()
  const productName = useRootData()?.branding.name ?? ''
  const title = mode === 'card' ? 'Create New Digital Card' : 'Create Your Profile'
  const back = step === 1 ? '/' : wizardUrl(mode, step - 1)
  const pending = navigation.state === 'submitting'
  const schema = step === 1 ? WizardNameSchema : step === 2 ? WizardContactSchema : WizardWorkSchema
  const [form, fields] = useForm({
    id: `wizard-${step}`,
    lastResult: actionData?.result ?? undefined,
    defaultValue: draft,
    shouldValidate: 'onSubmit',
    constraint: formConstraint(schema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  })
  const imageErrors: Record<string, string> = actionData?.imageErrors ?? {}
  const [swatch, setSwatch] = useState(
    draft.backgroundKind === 'image' ? null : `${draft.backgroundKind}:${draft.backgroundValue}`,
  )

  return (
    <main className="mx-auto flex w-full max-w-2xl flex-col gap-6 px-4 py-10">
      <StepHeader step={step} title={title} back={back} />
      <section className="rounded-2xl border border-gray-200 p-6 dark:border-gray-800">
        <h2 className="mb-4 text-lg font-semibold">{STEP_TITLES[step - 1]}</h2>
        {step <= 3 ? (
          <Form method="POST" className="flex flex-col gap-4" {...getFormProps(form)}>
            {step === 1 ? (
              <>
                <Field
                  label="First name"
                  inputProps={{
                    ...getInputProps(fields.firstName, { type: 'text' }),
                    autoComplete: 'given-name',
                    autoFocus: true,
                  }}
                  errors={fields.firstName.errors}
                />
                <Field
                  label="Last name"
                  inputProps={{
                    ...getInputProps(fields.lastName, { type: 'text' }),
                    autoComplete: 'family-name',
                  }}
                  errors={fields.lastName.errors}
                />
              </>
            ) : step === 2 ? (
              <>
                <Field
                  label="Work email"
                  inputProps={{
                    ...getInputProps(fields.workEmail, { type: 'email' }),
                    autoComplete: 'email',
                    autoFocus: true,
                  }}
                  errors={fields.workEmail.errors}
                />
                <Field
                  label="Phone number"
                  inputProps={{
                    ...getInputProps(fields.phoneNumber, { type: 'tel' }),
                    autoComplete: 'tel',
                  }}
                  errors={fields.phoneNumber.errors}
                />
              </>
            ) : (
              <>
                <Field
                  label="Company"
                  inputProps={{
                    ...getInputProps(fields.company, { type: 'text' }),
                    autoComplete: 'organization',
                    autoFocus: true,
                  }}
                  errors={fields.company.errors}
                />
                <Field
                  label="Job title"
                  inputProps={{
                    ...getInputProps(fields.jobTitle, { type: 'text' }),
                    autoComplete: 'organization-title',
                  }}
                  errors={fields.jobTitle.errors}
                />
                <Field
                  label="Website"
                  inputProps={{
                    ...getInputProps(fields.website, { type: 'text' }),
                    autoComplete: 'url',
                    placeholder: 'https://example.com',
                  }}
                  errors={fields.website.errors}
                />
              </>
            )}
            <StatusButton pending={pending} pendingText="Saving..." className="self-end">
              Continue
            </StatusButton>
          </Form>
        ) : step === 4 ? (
          <Form method="POST" encType="multipart/form-data" className="flex flex-col gap-6">
            <ImageField
              name="logo"
              label="Logo"
              purpose="logo"
              currentUrl={logoUrl}
              hint="Recommended 200×80 px."
              errors={imageErrors.logo ? [imageErrors.logo] : undefined}
            />
            <ImageField
              name="profilePicture"
              label="Profile picture"
              purpose="profilePicture"
              currentUrl={profilePictureUrl}
              errors={imageErrors.profilePicture ? [imageErrors.profilePicture] : undefined}
            />
            <BackgroundSwatches name="backgroundChoice" selected={swatch} onChoose={setSwatch} />
            <ImageField
              name="background"
              label="Or upload a background image"
              purpose="background"
              currentUrl={backgroundImageUrl}
              hint="Recommended 1200×600 px."
              errors={imageErrors.background ? [imageErrors.background] : undefined}
              onUploaded={() => setSwatch(null)}
            />
            <StatusButton pending={pending} pendingText="Saving..." className="self-end">
              Continue
            </StatusButton>
          </Form>
        ) : (
          <div className="flex flex-col items-center gap-6">
            <CardDisplay
              productName={productName}
              card={{
                ...draft,
                logoUrl,
                profilePictureUrl,
                background: {
                  kind: draft.backgroundKind,
                  value: draft.backgroundValue,
                  imageUrl: backgroundImageUrl,
                },
              }}
            />
            <dl className="grid w-full grid-cols-1 gap-2 text-sm sm:grid-cols-2">
              {(
                [
                  ['Name', `${draft.firstName} ${draft.lastName}`],
                  ['Work email', draft.workEmail],
                  ['Phone', draft.phoneNumber],
                  ['Company', draft.company],
                  ['Job title', draft.jobTitle],
                  ['Website', draft.website],
                ] as const
              ).map(([label, value]) => (
                <div key={label}>
                  <dt className="text-gray-500">{label}</dt>
                  <dd className="font-medium">{value || '—'}</dd>
                </div>
              ))}
            </dl>
            <div className="flex w-full flex-wrap justify-between gap-3">
              <div className="flex gap-2">
                <Button asChild variant="secondary">
                  <Link to={wizardUrl(mode, 2)}>Edit Contact</Link>
                </Button>
                <Button asChild variant="secondary">
                  <Link to={wizardUrl(mode, 4)}>Edit Images</Link>
                </Button>
              </div>
              <Form method="POST">
                <StatusButton
                  pending={pending}
                  pendingText={mode === 'card' ? 'Creating card...' : 'Creating profile...'}
                >
                  {mode === 'card' ? 'Create Card' : 'Create Profile'}
                </StatusButton>
              </Form>
            </div>
          </div>
        )}
        {form.errors?.length ? <FormMessage>{form.errors.join(' ')}</FormMessage> : null}
      </section>
    </main>
  )
}
