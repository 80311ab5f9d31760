// The browser entry. zod's JIT must be off before any module builds a schema (a strict CSP
// reports zod's eval probe as a violation): this runs before the route modules, whatever
// order the bundler gives their shared chunks (app/validation/zod-jitless.ts).
import '#app/validation/zod-jitless'
import { RemixBrowser } from '@remix-run/react'
import { StrictMode, startTransition } from 'react'
import { hydrateRoot } from 'react-dom/client'

startTransition(() => {
  hydrateRoot(
    document,
    <StrictMode>
      <RemixBrowser />
    </StrictMode>,
  )
})
