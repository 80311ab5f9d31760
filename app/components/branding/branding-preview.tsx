// The Preview tab (spec §2.12): a mock sign-in page in the chosen colours, logo and name, drawn
// from the form as it is now (unsaved changes included). Nothing in it can be used.

import { BRANDING_DEFAULTS } from '#app/validation/branding'
import { readableTextColor, safeHexColor } from '#app/validation/color'

export function BrandingPreview({
  companyName,
  primaryColor,
  secondaryColor,
  logoUrl,
}: {
  companyName: string
  primaryColor: string
  secondaryColor: string
  logoUrl: string | null
}) {
  const primary = safeHexColor(primaryColor, BRANDING_DEFAULTS.primaryColor)
  const secondary = safeHexColor(secondaryColor, BRANDING_DEFAULTS.secondaryColor)
  const name = companyName.trim() || 'Your company'
  return (
    <figure className="flex flex-col gap-2">
      <div
        data-testid="branding-preview"
        className="flex justify-center rounded-xl p-6 sm:p-10"
        style={{ background: `linear-gradient(135deg, ${primary}22, ${secondary}33)` }}
      >
        <div className="flex w-full max-w-sm flex-col gap-4 rounded-xl bg-white p-6 text-gray-900 shadow-lg">
          <div className="flex flex-col items-center gap-2">
            {logoUrl ? (
              <img
                src={logoUrl}
                alt={`${name} logo`}
                className="h-12 max-w-[200px] object-contain"
              />
            ) : (
              <div
                aria-hidden
                className="flex h-12 w-12 items-center justify-center rounded-lg text-lg font-semibold"
                style={{ backgroundColor: primary, color: readableTextColor(primary) }}
              >
                {name.charAt(0).toUpperCase()}
              </div>
            )}
            <p className="text-lg font-semibold">Welcome to {name}</p>
            <p className="text-sm text-gray-600">Sign in to your account</p>
          </div>
          <div aria-hidden className="flex flex-col gap-3">
            <div className="h-10 rounded-md border border-gray-300 px-3 py-2 text-sm text-gray-600">
              Email
            </div>
            <div className="h-10 rounded-md border border-gray-300 px-3 py-2 text-sm text-gray-600">
              Password
            </div>
            <div
              className="flex h-10 items-center justify-center rounded-md text-sm font-medium"
              style={{ backgroundColor: primary, color: readableTextColor(primary) }}
            >
              Sign In
            </div>
            <div
              className="mx-auto h-1.5 w-24 rounded-full"
              style={{ backgroundColor: secondary }}
            />
          </div>
        </div>
      </div>
      <figcaption className="text-sm text-gray-600 dark:text-gray-400">
        A preview of your sign-in page with the changes above. Save to apply them.
      </figcaption>
    </figure>
  )
}
