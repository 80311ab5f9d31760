// The onboarding wizard's loader and action (/onboarding, `?mode=card` for a new card): which
// step to show, and what each step's Continue saves. Steps 1 to 3 are the profile's fields, step
// 4 its images and background, step 5 creates the card. The draft itself is wizard.server.ts's.
import type { SubmissionResult } from '@conform-to/react'
import { type AppLoadContext, data, redirect } from '@remix-run/node'
import { parseSubmission } from '#app/actions/intent-action.server'
import { requireUser } from '#app/auth/guards.server'
import { WIZARD_STEPS, type WizardMode, wizardUrl } from '#app/cards/wizard'
import { finishWizard, loadDraft, saveDraftStep, type WizardDraft } from '#app/cards/wizard.server'
import { readForm, resolveImageField } from '#app/media/uploads.server'
import { recordCardAudit } from '#app/models/audit.server'
import { getMediaPath } from '#app/models/media.server'
import type { Tenant } from '#app/tenancy/tenant.server'
import { IMAGE_REFUSALS, isRefusal, Refusal } from '#app/utils/action-error'
import { redirectWithToast } from '#app/utils/toast.server'
import { parseSwatch, readableCardColor } from '#app/validation/backgrounds'
import { BackgroundSchema } from '#app/validation/card-background'
import { safeHexColor } from '#app/validation/hex-color'
import { BOTH_NAMES_REQUIRED } from '#app/validation/names'
import { WizardContactSchema, WizardNameSchema, WizardWorkSchema } from '#app/validation/profile'
import { rolePaths } from '#app/validation/roles'
import { plainText } from '#app/validation/text'
import { withTenant } from '#drizzle/db.server'

/** A new draft's card colour: the agency's primary colour (checked, readable), else white. */
function startColorOf(tenant: Tenant) {
  return readableCardColor(safeHexColor(tenant.primaryColor, '#ffffff'))
}

function readStep(url: URL) {
  const step = Number(url.searchParams.get('step') ?? '1')
  return Number.isInteger(step) && step >= 1 && step <= WIZARD_STEPS ? step : 1
}

export async function wizardLoader(request: Request, context: AppLoadContext) {
  const { tenant, user } = await requireUser(request, context)
  const url = new URL(request.url)
  const mode: WizardMode = url.searchParams.get('mode') === 'card' ? 'card' : 'profile'
  const title = url.searchParams.get('title')
  const step = readStep(url)
  const loaded = await withTenant(tenant.id, async (tx) => {
    // The title comes from the URL: anything that is not plain text is dropped.
    const cleanTitle = title === null ? null : (plainText(100).safeParse(title).data ?? '')
    const draft = await loadDraft(tx, user, mode, cleanTitle, startColorOf(tenant))
    const [logoUrl, profilePictureUrl, backgroundImageUrl] = await Promise.all([
      getMediaPath(tx, tenant.id, draft.logoMediaId),
      getMediaPath(tx, tenant.id, draft.profilePictureMediaId),
      getMediaPath(tx, tenant.id, draft.backgroundMediaId),
    ])
    return { draft, logoUrl, profilePictureUrl, backgroundImageUrl }
  })
  return { step, mode, ...loaded }
}

/**
 * What a refused step answers: conform's reply for steps 1 to 3, the image fields' messages
 * (by field) for step 4.
 */
export type WizardRefusal = {
  result: SubmissionResult<string[]> | null
  imageErrors: Record<string, string>
}

const StepSchemas = { 1: WizardNameSchema, 2: WizardContactSchema, 3: WizardWorkSchema } as const

export async function wizardAction(request: Request, context: AppLoadContext) {
  const { tenant, user } = await requireUser(request, context)
  const url = new URL(request.url)
  const mode: WizardMode = url.searchParams.get('mode') === 'card' ? 'card' : 'profile'
  const step = readStep(url)
  let formData: FormData
  try {
    formData = await readForm(request)
  } catch (error) {
    if (!isRefusal(error, ...IMAGE_REFUSALS)) throw error
    return data<WizardRefusal>(
      { result: null, imageErrors: { [error.field.replace(/File$/, '')]: error.message } },
      { status: 400 },
    )
  }

  if (step <= 3) {
    const schema = StepSchemas[step as 1 | 2 | 3]
    const submission = parseSubmission(formData, schema)
    if (!submission) {
      const error = { '': ['Please check the form'] }
      return data<WizardRefusal>(
        { result: { status: 'error', error }, imageErrors: {} },
        { status: 400 },
      )
    }
    if (submission.status !== 'success') {
      // A link moved without JavaScript (a list intent, no status) is the step shown again.
      const status = submission.status === 'error' ? 400 : 200
      return data<WizardRefusal>({ result: submission.reply(), imageErrors: {} }, { status })
    }
    await withTenant(tenant.id, async (tx) => {
      const draft = await loadDraft(tx, user, mode, null, startColorOf(tenant))
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
          throw new Refusal('image_refused', 'Please choose a background', { field: 'background' })
        }
        const draft = await loadDraft(tx, user, mode, null, startColorOf(tenant))
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
      if (!isRefusal(error, ...IMAGE_REFUSALS)) throw error
      return data<WizardRefusal>(
        { result: null, imageErrors: { [error.field]: error.message } },
        { status: 400 },
      )
    }
    return redirect(wizardUrl(mode, 5))
  }

  // Step 5: create the card (and, in profile mode, complete the profile).
  const card = await withTenant(tenant.id, async (tx) => {
    const draft = await loadDraft(tx, user, mode, null, startColorOf(tenant))
    const parsedNames = WizardNameSchema.safeParse(draft)
    if (!parsedNames.success) return null
    const created = await finishWizard(tx, user, draft)
    await recordCardAudit(
      tx,
      tenant.id,
      user.id,
      created.id,
      mode === 'card' ? 'card.created' : 'profile.created',
    )
    return created
  })
  if (!card) {
    return redirectWithToast(wizardUrl(mode, 1), {
      type: 'error',
      title: mode === 'card' ? 'Failed to create digital card' : BOTH_NAMES_REQUIRED,
    })
  }
  if (mode === 'card') {
    return redirectWithToast(rolePaths(user.role).digitalCards, {
      title: 'Digital card created successfully!',
    })
  }
  return redirectWithToast('/qrcode', { title: 'Profile created successfully!' })
}
