// Before anything that builds a zod schema (see the module).

import { isRequestFailure } from '#app/components/client-failure'
import { RouteLoadError, useLoadErrorMessage } from '#app/components/layout/route-error'
import { rolePaths } from '#app/validation/roles'
import '#app/validation/zod-jitless'
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import {
  isRouteErrorResponse,
  Link,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useLocation,
  useMatches,
  useRouteError,
  useRouteLoaderData,
} from '@remix-run/react'
import type { ReactNode } from 'react'
import { useEffect } from 'react'
import { isAuthRequiredData } from '#app/auth/auth-required'
import { showsConfirmationBanner } from '#app/auth/email-confirmation.server'
import { getOptionalUser } from '#app/auth/guards.server'
import { brandPrimary, iconPath, MANIFEST_PATH } from '#app/branding/app-icons.server'
import { AuthIssuePanel, NavigationGuard } from '#app/components/layout/auth-guard'
import {
  DATABASE_WARNING,
  isDatabaseErrorData,
  isDiskFullData,
} from '#app/components/layout/database-warning'
import { EmailConfirmationBanner } from '#app/components/layout/email-confirmation-banner'
import { PlainPage } from '#app/components/layout/plain-page'
import { SiteFooter } from '#app/components/layout/site-footer'
import { SiteHeader } from '#app/components/layout/site-header'
import { CONTENT_ID, SkipLink } from '#app/components/layout/skip-link'
import { Button } from '#app/components/ui/button'
import { toast as showToast, Toasts } from '#app/components/ui/toasts'
import { getMediaPath } from '#app/models/media.server'
import { readSidebarOpen } from '#app/navigation/sidebar-state'
import { readAppearance } from '#app/settings/settings.server'
import { isTenantErrorData } from '#app/tenancy/tenant-error'
import { builtStylesheetText } from '#app/utils/inline-stylesheet.server'
import { useNonce } from '#app/utils/nonce'
import { readToast } from '#app/utils/toast.server'
import { VISITOR_PAGE_PATH } from '#app/utils/visitor-page'
import { APPEARANCE_DEFAULTS } from '#app/validation/appearance'
import {
  brandTextOnDark,
  brandTextOnWhite,
  readableTextColor,
  safeHexColor,
} from '#app/validation/hex-color'
import { withTenant } from '#drizzle/db.server'
import stylesheet from './tailwind.css?url'

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { tenant, user } = await getOptionalUser(request, context)
  const { toast, setCookie } = await readToast(request)
  if (setCookie) context.responseCookies?.push(setCookie)
  // One transaction for what the signed-in person's pages need: their avatar and appearance.
  const personal = user
    ? await withTenant(tenant.id, async (tx) => ({
        avatarUrl: await getMediaPath(tx, tenant.id, user.profilePictureMediaId),
        appearance: await readAppearance(tx, tenant.id, user.id),
      }))
    : { avatarUrl: null, appearance: APPEARANCE_DEFAULTS }
  const avatarUrl = personal.avatarUrl
  return {
    user: user
      ? {
          firstName: user.firstName,
          lastName: user.lastName,
          email: user.email,
          role: user.role,
          avatarUrl,
        }
      : null,
    toast,
    appearance: personal.appearance,
    // The sidebar's remembered state, for the signed-in pages outside /dashboard (SignedInLayout).
    sidebarOpen: readSidebarOpen(request.headers.get('Cookie')),
    // Sign-in does not wait for the confirmation; a banner asks for it until dismissed.
    confirmationBanner: await showsConfirmationBanner(request, user),
    branding: {
      name: tenant.name,
      kind: tenant.kind,
      primaryColor: tenant.primaryColor,
      secondaryColor: tenant.secondaryColor,
      logoUrl: tenant.logoUrl,
      faviconUrl: tenant.faviconUrl,
      legal: tenant.legal,
      // The host's app identity (ADR 024): its manifest, home-screen icon and browser colour.
      manifestUrl: MANIFEST_PATH,
      appleTouchIconUrl: iconPath(tenant, 'apple-touch-180'),
      themeColor: brandPrimary(tenant),
    },
    year: new Date().getFullYear(),
    // A signed-out visitor's card page carries its stylesheet: on a phone's network the text it
    // paints first (the name) waited a whole round trip for the file (ADR 022).
    inlineStylesheet:
      !user && VISITOR_PAGE_PATH.test(new URL(request.url).pathname)
        ? builtStylesheetText(stylesheet)
        : null,
  }
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data?.branding.name ?? 'Not available' },
  { name: 'description', content: 'Create and share your digital business card.' },
]

export type RootLoaderData = ReturnType<typeof useRootData>
export function useRootData() {
  return useRouteLoaderData<typeof loader>('root')
}

/** Colours are re-validated here: only #rrggbb ever reaches the style sheet. */
function brandingCss(primaryColor: string, secondaryColor: string) {
  const primary = safeHexColor(primaryColor, '#3b82f6')
  const secondary = safeHexColor(secondaryColor, '#10b981')
  return `:root{--brand-primary:${primary};--brand-primary-foreground:${readableTextColor(primary)};--brand-text:${brandTextOnWhite(primary)};--brand-text-dark:${brandTextOnDark(primary)};--brand-secondary:${secondary};--brand-secondary-foreground:${readableTextColor(secondary)}}`
}

/** Theme 'system': follow the device's dark mode before the first paint, and when it changes. */
const SYSTEM_THEME_SCRIPT = `(function(){var m=matchMedia('(prefers-color-scheme: dark)');function a(){document.documentElement.classList.toggle('dark',m.matches)}a();m.addEventListener('change',a)})()`

/** What a route module may say to the root layout through its `handle` export. */
export type PageHandle = {
  /**
   * A script (a URL) that replaces React for signed-out visitors: the page is not hydrated, and
   * this script alone enhances its server HTML (the public card page, ADR 022).
   */
  visitorScript?: string
}

/** The leaf route's visitor script, when this page is shown without React. */
function useVisitorScript(signedIn: boolean) {
  const leaf = useMatches().at(-1)
  const handle = leaf?.handle as PageHandle | undefined
  // A route that failed renders its error boundary, which needs React (Retry).
  if (signedIn || !handle?.visitorScript || leaf?.data == null) return undefined
  return handle.visitorScript
}

export function Layout({ children }: { children: ReactNode }) {
  const data = useRootData()
  const nonce = useNonce()
  const branding = data?.branding
  const appearance = data?.appearance ?? APPEARANCE_DEFAULTS
  const visitorScript = useVisitorScript(Boolean(data?.user))
  return (
    // The signed-in person's Appearance settings (spec §2.6): Tailwind's dark variant keys on
    // .dark, the font size scales every rem, and data-motion="reduce" stills animations.
    <html
      lang="en"
      className={appearance.theme === 'dark' ? 'dark' : undefined}
      data-theme={appearance.theme}
      // A visitor's card page (no session, no settings) follows the device's light or dark.
      data-color-scheme={visitorScript ? 'system' : undefined}
      data-font-size={appearance.fontSize}
      data-motion={appearance.animations ? undefined : 'reduce'}
      suppressHydrationWarning
    >
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <link rel="icon" href={branding?.faviconUrl ?? '/favicon.svg'} />
        {branding ? (
          <>
            <link rel="manifest" href={branding.manifestUrl} />
            <link rel="apple-touch-icon" sizes="180x180" href={branding.appleTouchIconUrl} />
            <meta name="theme-color" content={branding.themeColor} />
          </>
        ) : null}
        {branding ? (
          <style
            nonce={nonce}
            // biome-ignore lint/security/noDangerouslySetInnerHtml: built from validated hex colours only
            dangerouslySetInnerHTML={{
              __html: brandingCss(branding.primaryColor, branding.secondaryColor),
            }}
          />
        ) : null}
        {visitorScript && data?.inlineStylesheet ? (
          <style
            // biome-ignore lint/security/noDangerouslySetInnerHtml: the app's own built stylesheet
            dangerouslySetInnerHTML={{ __html: data.inlineStylesheet }}
          />
        ) : (
          <link rel="stylesheet" href={stylesheet} />
        )}
        <Links />
        {appearance.theme === 'system' ? (
          <script
            nonce={nonce}
            // biome-ignore lint/security/noDangerouslySetInnerHtml: a fixed script, no data in it
            dangerouslySetInnerHTML={{ __html: SYSTEM_THEME_SCRIPT }}
          />
        ) : null}
      </head>
      <body className="min-h-screen">
        {branding && data ? (
          <div className="flex min-h-screen flex-col">
            <SkipLink />
            <SiteHeader branding={branding} user={data.user} />
            {data.confirmationBanner ? <EmailConfirmationBanner /> : null}
            <div id={CONTENT_ID} tabIndex={-1} className="flex-1 outline-none">
              {children}
            </div>
            <SiteFooter name={branding.name} year={data.year} legal={branding.legal} />
          </div>
        ) : (
          children
        )}
        {visitorScript ? (
          <>
            {data?.toast ? (
              <div
                hidden
                data-page-toast
                data-type={data.toast.type}
                data-title={data.toast.title}
                data-description={data.toast.description ?? undefined}
              />
            ) : null}
            {/* Imported by an inline module, as Remix loads its own: a page kept by the page cache
                lists its inline scripts' hashes in place of the nonce (ADR 021), and under
                'strict-dynamic' what they import runs too. */}
            <link rel="modulepreload" href={visitorScript} />
            <script
              type="module"
              nonce={nonce}
              // biome-ignore lint/security/noDangerouslySetInnerHtml: a fixed import of a build URL
              dangerouslySetInnerHTML={{ __html: `import ${JSON.stringify(visitorScript)}` }}
            />
          </>
        ) : (
          <>
            <Toasts position="top-center" richColors closeButton theme={appearance.theme} />
            <ScrollRestoration nonce={nonce} />
            <Scripts nonce={nonce} />
          </>
        )}
      </body>
    </html>
  )
}

export default function App() {
  const root = useRootData()
  const toast = root?.toast
  useEffect(() => {
    if (!toast) return
    // Deferred until after hydration (the Toaster is mounted with the first toast).
    const timer = setTimeout(() => {
      const show =
        toast.type === 'error'
          ? showToast.error
          : toast.type === 'info'
            ? showToast.info
            : showToast.success
      show(toast.title, { description: toast.description })
    }, 0)
    return () => clearTimeout(timer)
  }, [toast])
  return (
    <NavigationGuard signedIn={Boolean(root?.user)}>
      <Outlet />
    </NavigationGuard>
  )
}

export function NotFoundContent() {
  return (
    <main className="mx-auto flex max-w-xl flex-col items-center gap-4 px-4 py-24 text-center">
      <p className="text-6xl font-bold text-brand-text">404</p>
      <h1 className="text-2xl font-semibold">Oops! Page not found</h1>
      <p className="text-gray-600 dark:text-gray-400">
        The page you are looking for might have been removed, had its name changed, or is
        temporarily unavailable.
      </p>
      <Button asChild>
        <Link to="/">Return to Home</Link>
      </Button>
    </main>
  )
}

/** A page of another role's area (or one the account may only read): the tenant's page, no data. */
export function ForbiddenContent() {
  const user = useRootData()?.user
  const home = user ? rolePaths(user.role).dashboard : '/'
  return (
    <main className="mx-auto flex max-w-xl flex-col items-center gap-4 px-4 py-24 text-center">
      <p className="text-6xl font-bold text-brand-text">403</p>
      <h1 className="text-2xl font-semibold">Access denied</h1>
      <p className="text-gray-600 dark:text-gray-400">
        Your account does not have access to this page.
      </p>
      <Button asChild>
        <Link to={home}>{user ? 'Go to your dashboard' : 'Return to Home'}</Link>
      </Button>
    </main>
  )
}

export function ErrorBoundary() {
  const error = useRouteError()
  const loadError = useLoadErrorMessage()
  if (loadError && isRequestFailure(error))
    return <RouteLoadError message={loadError.message} toast={loadError.toast} />
  return <AppErrorContent error={error} />
}

/** What any route shows for an error it has no message of its own for. */
export function AppErrorContent({ error }: { error: unknown }) {
  const location = useLocation()
  // A client navigation whose session ended on the way (requireUser's 401 marker).
  if (isRouteErrorResponse(error) && error.status === 401 && isAuthRequiredData(error.data)) {
    return (
      <AuthIssuePanel path={`${location.pathname}${location.search}`} error={error.data.message} />
    )
  }
  if (isRouteErrorResponse(error) && isTenantErrorData(error.data)) {
    return error.data.tenantError === 'site-unavailable' ? (
      <PlainPage title="Site unavailable">This site is not available at the moment.</PlainPage>
    ) : (
      <PlainPage title="No such site">There is no site at this address.</PlainPage>
    )
  }
  if (isRouteErrorResponse(error) && isDatabaseErrorData(error.data)) {
    return <PlainPage title="Service unavailable">{DATABASE_WARNING}</PlainPage>
  }
  if (isRouteErrorResponse(error) && isDiskFullData(error.data)) {
    return <PlainPage title="Saving is paused">{error.data.error}</PlainPage>
  }
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundContent />
  if (isRouteErrorResponse(error) && error.status === 403) return <ForbiddenContent />
  const detail = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`.trim()
    : error instanceof Error
      ? error.message
      : 'Unknown error'
  return (
    <main className="mx-auto flex max-w-xl flex-col items-center gap-4 px-4 py-24 text-center">
      <h1 className="text-2xl font-semibold">Unexpected Application Error!</h1>
      <p className="text-gray-600 dark:text-gray-400">{detail}</p>
      <Button asChild variant="secondary">
        <Link to="/" reloadDocument>
          Return to Home
        </Link>
      </Button>
    </main>
  )
}
