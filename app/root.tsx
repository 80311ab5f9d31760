// Before anything that builds a zod schema (see the module).

import { isRequestFailure } from '#app/components/client-failure'
import { RouteLoadError, useLoadErrorMessage } from '#app/components/layout/route-error'
import '#app/validation/zod-jitless'
import type { MetaFunction } from '@remix-run/node'
import {
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useMatches,
  useRouteError,
} from '@remix-run/react'
import type { ReactNode } from 'react'
import { useEffect } from 'react'
import { AccountDeletionBanner } from '#app/components/layout/account-deletion-banner'
import { AppErrorContent } from '#app/components/layout/app-error'
import { NavigationGuard } from '#app/components/layout/auth-guard'
import { EmailConfirmationBanner } from '#app/components/layout/email-confirmation-banner'
import { useRootData } from '#app/components/layout/root-data'
import { SiteFooter } from '#app/components/layout/site-footer'
import { SiteHeader } from '#app/components/layout/site-header'
import { CONTENT_ID, SkipLink } from '#app/components/layout/skip-link'
import { PageLanguage } from '#app/components/layout/use-translate'
import { toast as showToast, Toasts } from '#app/components/ui/toasts'
import { announceOwner } from '#app/leads/offline-browser'
import { rootLoader } from '#app/navigation/root-loader.server'
import { useNonce } from '#app/utils/nonce'
import { keepDataAcrossTabs } from '#app/utils/tab-navigation'
import { APPEARANCE_DEFAULTS } from '#app/validation/appearance'
import {
  brandTextOnDark,
  brandTextOnWhite,
  looksLikeDanger,
  readableTextColor,
  safeHexColor,
} from '#app/validation/hex-color'
import stylesheet from './tailwind.css?url'

export const loader = rootLoader

// Choosing a tab changes only the page's panel: the branding, user and banners stay as loaded.
export const shouldRevalidate = keepDataAcrossTabs

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data?.branding.name ?? 'Not available' },
  { name: 'description', content: 'Create and share your digital business card.' },
]

/** Colours are re-validated here: only #rrggbb ever reaches the style sheet. */
function brandingCss(primaryColor: string, secondaryColor: string) {
  const primary = safeHexColor(primaryColor, '#3b82f6')
  const secondary = safeHexColor(secondaryColor, '#10b981')
  const brand = `:root{--brand-primary:${primary};--brand-primary-foreground:${readableTextColor(primary)};--brand-text:${brandTextOnWhite(primary)};--brand-text-dark:${brandTextOnDark(primary)};--brand-secondary:${secondary};--brand-secondary-foreground:${readableTextColor(secondary)}}`
  // A red brand: destructive buttons become red outlines, never the brand's own fill.
  return looksLikeDanger(primary) ? `${brand}${DANGER_OUTLINE_CSS}` : brand
}

/** The danger colours as an outline (app/tailwind.css has the filled default), light and dark. */
const DANGER_OUTLINE_CSS =
  ':root{--danger-fill:transparent;--danger-fill-foreground:#b91c1c;--danger-hover:#fef2f2}' +
  '.dark{--danger-fill-foreground:#fca5a5;--danger-hover:#450a0a}' +
  '@media (prefers-color-scheme:dark){[data-color-scheme="system"]{--danger-fill-foreground:#fca5a5;--danger-hover:#450a0a}}'

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
      lang={data?.language ?? 'en'}
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
        <PageLanguage.Provider value={data?.language ?? 'en'}>
          {branding && data ? (
            <div className="group/app flex min-h-screen flex-col">
              <SkipLink />
              {/* A recipient's card page (a signed-out visitor, ADR 080): no Sign In / Sign Up bar;
                the footer offers a card of their own instead. */}
              <SiteHeader branding={branding} user={data.user} accountLinks={!visitorScript} />
              {data.deletionBanner ? <AccountDeletionBanner {...data.deletionBanner} /> : null}
              {data.confirmationBanner ? <EmailConfirmationBanner /> : null}
              <div id={CONTENT_ID} tabIndex={-1} className="flex-1 outline-none">
                {children}
              </div>
              <SiteFooter
                name={branding.name}
                year={data.year}
                legal={branding.legal}
                getYourOwnCardUrl={visitorScript ? branding.getYourOwnCardUrl : null}
              />
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
        </PageLanguage.Provider>
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
  // The offline worker keeps one person's cards (ADR 104): whoever is signed in now (or no one)
  // is told on every page, and it forgets what it kept for anyone else.
  const owner = root?.user?.offlineKey ?? null
  useEffect(() => announceOwner(owner), [owner])
  return (
    <NavigationGuard signedIn={Boolean(root?.user)}>
      <Outlet />
    </NavigationGuard>
  )
}

export function ErrorBoundary() {
  const error = useRouteError()
  const loadError = useLoadErrorMessage()
  if (loadError && isRequestFailure(error))
    return <RouteLoadError message={loadError.message} toast={loadError.toast} />
  return <AppErrorContent error={error} />
}
