import type { ActionFunctionArgs } from '@remix-run/node'
import { z } from 'zod'
import { requireUser } from '#app/auth/guards.server'
import { readForm, saveImage } from '#app/media/uploads.server'
import { IMAGE_PURPOSES, INVALID_IMAGE_MESSAGE } from '#app/services/images.server'
import { IMAGE_REFUSALS, isRefusal } from '#app/utils/action-error'

const PurposeSchema = z.enum(Object.keys(IMAGE_PURPOSES) as [keyof typeof IMAGE_PURPOSES])

// Immediate uploads from image fields (with progress); the form then sends the media id.
export async function action({ request, context }: ActionFunctionArgs) {
  const { tenant, user } = await requireUser(request, context)
  try {
    const form = await readForm(request)
    const purpose = PurposeSchema.safeParse(form.get('purpose'))
    const file = form.get('file')
    if (!purpose.success || !(file instanceof Blob) || file.size === 0) {
      return Response.json({ error: INVALID_IMAGE_MESSAGE }, { status: 400 })
    }
    const stored = await saveImage({ tenant, user }, file, purpose.data, 'file')
    return Response.json({ mediaId: stored.id, url: `/media/${stored.hash}.${stored.ext}` })
  } catch (error) {
    if (isRefusal(error, ...IMAGE_REFUSALS)) {
      return Response.json({ error: error.message }, { status: error.status })
    }
    throw error
  }
}

export async function loader() {
  throw new Response('Method Not Allowed', { status: 405 })
}
