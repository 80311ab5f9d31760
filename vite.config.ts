import { vitePlugin as remix } from '@remix-run/dev'
import tailwindcss from '@tailwindcss/vite'
import { defineConfig } from 'vite'
import remixConfig from './remix.config.js'
import { accessibilityCheckedOn } from './scripts/accessibility-checked-on'
import { clientChunks } from './scripts/client-chunks'
import { precompressAssets } from './scripts/precompress-assets'

// Single fetch's types (remix.config.js turns it on): useLoaderData and useActionData see what
// turbo-stream delivers (a Date stays a Date), not JSON.
declare module '@remix-run/node' {
  interface Future {
    v3_singleFetch: true
  }
}

export default defineConfig(({ isSsrBuild }) => ({
  plugins: [tailwindcss(), remix(remixConfig), precompressAssets()],
  // The accessibility statement's "last checked" (ADR 100): the built commit's date.
  define: { __ACCESSIBILITY_CHECKED_ON__: JSON.stringify(accessibilityCheckedOn()) },
  // Native and server-only packages stay out of the dev pre-bundle.
  optimizeDeps: { exclude: ['@node-rs/argon2', '@electric-sql/pglite', 'sharp', 'tesseract.js'] },
  ssr: {
    external: ['@electric-sql/pglite', 'sharp', '@node-rs/argon2', 'tesseract.js'],
    // Bundled into the server build: left to Node, each of their hundreds of files makes the
    // ESM loader parse the package's ~200 KB package.json again, some 600 MB of garbage at
    // start-up that left the heap three times its working size under load (issue 16's RSS).
    // The icon sets are bundled so only the icons we draw are kept: left to Node, all of
    // simple-icons' 3,000 marks and lucide's 1,600 icons (twice: the source the ESM loader read
    // for its export names, and the module) stayed alive, 20 MB of a 96 MB heap (issue 44).
    noExternal: ['date-fns', 'drizzle-orm', 'lucide-react', 'simple-icons'],
  },
  build: {
    target: 'es2022',
    rollupOptions: {
      output: {
        // Chunks under 20 KB merged where that changes no module's order (ADR 119).
        experimentalMinChunkSize: 20_000,
        // What every page runs first, in one chunk (ADR 125). The browser's build only: the
        // server reads its chunks from disk once, at start.
        ...(isSsrBuild ? {} : { manualChunks: clientChunks() }),
      },
      onwarn(warning, warn) {
        // zod's own comments sit where Rollup reads no annotation; nothing of ours to fix.
        if (warning.code === 'INVALID_ANNOTATION' && warning.id?.includes('/node_modules/')) return
        // Resource routes (a loader and no component) have no browser code, yet Remix gives
        // every route a client chunk: an empty one for them is expected.
        if (warning.code === 'EMPTY_BUNDLE') return
        warn(warning)
      },
    },
  },
}))
