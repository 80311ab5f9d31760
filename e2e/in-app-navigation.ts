// Opening a page the way the app's own links do: Remix's router loads its data and React renders
// it into the document already there. A new document for each page costs the browser its parse,
// compile and hydration of the app's scripts again, and a crawl's axe its injection again. The
// accessibility crawl opens its pages this way once it has one loaded (ADR 121).
import type { BrowserContext, Page } from '@playwright/test'
import { IN_PAGE_WAIT } from './page-helpers'

declare global {
  interface Window {
    /** The location key of the last tree React committed (the hook below). */
    __e2eCommittedLocation?: string
  }
}

/**
 * React's DevTools hook, cut down to one thing: after each commit, the key of the location that
 * react-router's `<Router>` was rendered with (its props: `location` and `navigator`). Remix's
 * router settles before React renders its state (in a transition, maybe frames later): only the
 * commit says the page on screen is the new one. React DOM calls the hook in production builds
 * too (DevTools work on live sites); it must exist before React loads, hence an init script.
 */
const COMMIT_HOOK = `window.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
  supportsFiber: true,
  isDisabled: false,
  renderers: new Map(),
  inject() { return 1 },
  onCommitFiberRoot(_renderer, root) {
    const stack = [root.current]
    for (let seen = 0; stack.length && seen < 500; seen++) {
      const fiber = stack.pop()
      const props = fiber.memoizedProps
      if (props && props.navigator && props.location && typeof props.location.key === 'string') {
        window.__e2eCommittedLocation = props.location.key
        return
      }
      if (fiber.sibling) stack.push(fiber.sibling)
      if (fiber.child) stack.push(fiber.child)
    }
  },
  onPostCommitFiberRoot() {},
  onCommitFiberUnmount() {},
  checkDCE() {},
}`

/** Makes every page of the context report its commits, for `navigateInApp`. */
export function reportCommits(context: BrowserContext) {
  return context.addInitScript(COMMIT_HOOK)
}

type RemixWindow = Window & {
  __remixRouter?: {
    navigate: (to: string) => Promise<void>
    state: { navigation: { state: string }; location: { key: string } }
  }
}

/**
 * Opens `url` (same origin, a page the app renders) by the app's router in the document already
 * loaded, and resolves once React has committed the page the router settled on (after any
 * redirect). The context must report its commits (`reportCommits`).
 */
export async function navigateInApp(page: Page, url: string) {
  const target = new URL(url)
  const hooked = await page.evaluate(
    () =>
      typeof (window as { __REACT_DEVTOOLS_GLOBAL_HOOK__?: { onCommitFiberRoot?: unknown } })
        .__REACT_DEVTOOLS_GLOBAL_HOOK__?.onCommitFiberRoot === 'function',
  )
  if (!hooked) {
    throw new Error('the context does not report its commits: call reportCommits(context) first')
  }
  // Hydrated: React has committed the document's first tree.
  await page.waitForFunction(
    () => window.__e2eCommittedLocation !== undefined,
    undefined,
    IN_PAGE_WAIT,
  )
  await page.evaluate(async (to) => {
    const router = (window as RemixWindow).__remixRouter
    if (!router)
      throw new Error(`no Remix router on ${location.href}: load a page of the app first`)
    await router.navigate(to)
  }, `${target.pathname}${target.search}`)
  await page.waitForFunction(
    () => {
      const router = (window as RemixWindow).__remixRouter
      return (
        router?.state.navigation.state === 'idle' &&
        window.__e2eCommittedLocation === router.state.location.key
      )
    },
    undefined,
    IN_PAGE_WAIT,
  )
}
