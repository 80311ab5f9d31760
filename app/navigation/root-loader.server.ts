// The root route's loader: what every page's frame shows (the signed-in person, their toast and
// appearance, the tenant's branding). Out of root.tsx so components type `useRootData` without
// importing the root route (issue 40 point 1); root.tsx exports it as its loader.
import type { LoaderFunctionArgs } from '@remix-run/node'
import { showsConfirmationBanner } from '#app/auth/email-confirmation.server'
import { getOptionalUser } from '#app/auth/guards.server'
import { brandPrimary, iconPath, MANIFEST_PATH } from '#app/branding/app-icons.server'
import { offlineOwnerKey } from '#app/leads/offline-owner.server'
import { readSidebarOpen } from '#app/navigation/sidebar-state'
import { appearanceOf } from '#app/settings/user-preferences.server'
import { pageLanguage } from '#app/utils/i18n/translated-pages'
import { builtStylesheetText } from '#app/utils/inline-stylesheet.server'
import { readToast } from '#app/utils/toast.server'
import { VISITOR_PAGE_PATH } from '#app/utils/visitor-page'
import { APPEARANCE_DEFAULTS } from '#app/validation/appearance'
import { DEFAULT_GET_YOUR_OWN_CARD_PATH } from '#app/validation/legal'
import { rolePaths } from '#app/validation/roles'
import stylesheet from '../tailwind.css?url'

export async function rootLoader({ request, context }: LoaderFunctionArgs) {
  const { tenant, user, session } = await getOptionalUser(request, context)
  const { toast, setCookie } = await readToast(request)
  if (setCookie) context.responseCookies?.push(setCookie)
  // What the signed-in person's pages show of them came with the session (one statement).
  const personal = session
    ? {
        avatarUrl: session.frame.avatarUrl,
        appearance: appearanceOf(session.frame.preferences),
        // A scheduled "Delete my account": the banner with the date (ADR 081).
        deletion: session.frame.deletionScheduledFor,
      }
    : { avatarUrl: null, appearance: APPEARANCE_DEFAULTS, deletion: null }
  const avatarUrl = personal.avatarUrl
  return {
    user: user
      ? {
          firstName: user.firstName,
          lastName: user.lastName,
          email: user.email,
          role: user.role,
          avatarUrl,
          // Whose cards and queued leads the offline worker keeps on this device (ADR 104).
          offlineKey: offlineOwnerKey(tenant.id, user.id),
        }
      : null,
    toast,
    appearance: personal.appearance,
    // The sidebar's remembered state, for the signed-in pages outside /dashboard (SignedInLayout).
    sidebarOpen: readSidebarOpen(request.headers.get('Cookie')),
    // Sign-in does not wait for the confirmation; a banner asks for it until dismissed.
    confirmationBanner: await showsConfirmationBanner(request, user),
    deletionBanner:
      user && personal.deletion
        ? {
            scheduledFor: personal.deletion.toISOString(),
            securityPath: `${rolePaths(user.role).profile}?tab=security`,
          }
        : null,
    branding: {
      name: tenant.name,
      kind: tenant.kind,
      primaryColor: tenant.primaryColor,
      secondaryColor: tenant.secondaryColor,
      logoUrl: tenant.logoUrl,
      faviconUrl: tenant.faviconUrl,
      legal: tenant.legal,
      // The card page footer's "Get your own card" (ADR 083): the agency's page, else sign-up.
      getYourOwnCardUrl: tenant.getYourOwnCardUrl || DEFAULT_GET_YOUR_OWN_CARD_PATH,
      // The host's app identity (ADR 024): its manifest, home-screen icon and browser colour.
      manifestUrl: MANIFEST_PATH,
      appleTouchIconUrl: iconPath(tenant, 'apple-touch-180'),
      themeColor: brandPrimary(tenant),
    },
    year: new Date().getFullYear(),
    // The page's language (ADR 105): the visitor's on the card and sign-in pages, else English.
    language: pageLanguage(request, tenant.languages),
    // The host's languages, for the card page's switcher.
    languages: tenant.languages.languages,
    // A signed-out visitor's card page carries its stylesheet: on a phone's network the text it
    // paints first (the name) waited a whole round trip for the file (ADR 022).
    inlineStylesheet:
      !user && VISITOR_PAGE_PATH.test(new URL(request.url).pathname)
        ? builtStylesheetText(stylesheet)
        : null,
  }
}
