import { useCallback } from 'react'
import { toast } from '#app/components/ui/toasts'

/**
 * Ends the session on the server, then loads the login page afresh so nothing of the signed-in
 * state stays in memory (spec §4). If the request fails the user stays signed in and is told so.
 */
export function useSignOut() {
  return useCallback(async () => {
    try {
      const response = await fetch('/auth/logout', { method: 'POST', redirect: 'manual' })
      // The answer is a redirect to the login page, opaque to fetch with redirect: 'manual'.
      if (response.type !== 'opaqueredirect' && !response.ok) {
        throw new Error(`sign-out answered ${response.status}`)
      }
    } catch {
      toast.error('Failed to sign out', { description: 'Failed to sign out. Please try again.' })
      return false
    }
    window.location.assign('/auth/login')
    return true
  }, [])
}
