import { useActionData } from '@remix-run/react'
import type { ProfileActionData, ProfileIntent } from '#app/profile/profile-route.server'

/** The last server reply of one of the page's two forms (the other form ignores it). */
export function useProfileResult(intent: ProfileIntent) {
  const data = useActionData<ProfileActionData>()
  return data?.intent === intent ? data.result : undefined
}
