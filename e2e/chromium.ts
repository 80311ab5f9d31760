// Debian's Chromium and the flags it runs with here, shared by the e2e config and the bench's LCP
// loads. Playwright's own download is unreachable on this machine; without the
// background-networking flags Chromium keeps trying addresses the network refuses.
import { existsSync } from 'node:fs'

// The headless shell (Debian's chromium-headless-shell) is what Playwright itself runs headless
// tests in: the same Blink and V8 without the full browser around them. The whole e2e suite took
// 334 s and 569 s of CPU in it against 466 s in the full browser (ADR 067). Without the package,
// the full browser (apt-get install chromium) runs the same tests.
const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell'

export const CHROMIUM_PATH =
  process.env.CHROMIUM_PATH ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : '/usr/bin/chromium')

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]
