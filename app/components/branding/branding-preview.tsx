// The Preview tab (spec §2.12): the real sign-in page (its header, card, fields and words) in the
// chosen colours, logo and name, drawn from the form as it is now, unsaved changes included
// (issue 41 point 17: the earlier look-alike said things the real page does not). The colours are
// the root layout's brand variables, set on this box only; the box is inert, so nothing in it can
// be used or focused, and hidden from assistive technology, which the caption tells instead.
import type { CSSProperties } from 'react'
import {
  SIGN_IN_DESCRIPTION,
  SIGN_IN_TITLE,
  SIGN_UP_PROMPT,
} from '#app/components/auth/sign-in-texts'
import { Field } from '#app/components/forms'
import { AuthCard } from '#app/components/layout/auth-card'
import { SiteHeader } from '#app/components/layout/site-header'
import { Button } from '#app/components/ui/button'
import { BRANDING_DEFAULTS } from '#app/validation/branding'
import {
  brandTextOnDark,
  brandTextOnWhite,
  readableTextColor,
  safeHexColor,
} from '#app/validation/hex-color'

/** The root layout's brand variables (app/root.tsx) for the colours being chosen. */
function previewColors(primary: string, secondary: string) {
  return {
    '--brand-primary': primary,
    '--brand-primary-foreground': readableTextColor(primary),
    '--brand-text-light': brandTextOnWhite(primary),
    '--brand-text-dark': brandTextOnDark(primary),
    '--brand-secondary': secondary,
    '--brand-secondary-foreground': readableTextColor(secondary),
  } as CSSProperties
}

// React 18 does not know `inert`; an empty string sets the attribute.
const INERT = { inert: '' } as Record<string, string>

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
        data-brand-preview
        aria-hidden
        {...INERT}
        style={previewColors(primary, secondary)}
        className="pointer-events-none overflow-hidden rounded-xl border border-gray-200 bg-white text-gray-900 select-none dark:border-gray-800 dark:bg-gray-950 dark:text-gray-100"
      >
        <SiteHeader branding={{ name, logoUrl }} user={null} />
        <AuthCard
          as="div"
          titleAs="p"
          title={SIGN_IN_TITLE}
          description={SIGN_IN_DESCRIPTION}
          footer={
            <>
              {SIGN_UP_PROMPT} <span className="font-medium text-brand-text">Sign up</span>
            </>
          }
        >
          <div className="flex flex-col gap-4">
            <Field label="Email" inputProps={{ type: 'email', tabIndex: -1 }} />
            <Field label="Password" inputProps={{ type: 'password', tabIndex: -1 }} />
            <div className="flex justify-end">
              <span className="text-sm text-brand-text">Forgot password</span>
            </div>
            <Button type="button" tabIndex={-1} data-testid="branding-preview-submit">
              Sign In
            </Button>
          </div>
        </AuthCard>
      </div>
      <figcaption className="text-sm text-gray-600 dark:text-gray-400">
        A preview of your sign-in page with the changes above. Save to apply them.
      </figcaption>
    </figure>
  )
}
