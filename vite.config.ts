import { vitePlugin as remix } from '@remix-run/dev'
import tailwindcss from '@tailwindcss/vite'
import { defineConfig } from 'vite'
import remixConfig from './remix.config.js'

export default defineConfig({
  plugins: [tailwindcss(), remix(remixConfig)],
  // Native and server-only packages stay out of the dev pre-bundle.
  optimizeDeps: { exclude: ['@node-rs/argon2', '@electric-sql/pglite', 'sharp'] },
  ssr: { external: ['@electric-sql/pglite', 'sharp', '@node-rs/argon2'] },
  build: { target: 'es2022' },
})
