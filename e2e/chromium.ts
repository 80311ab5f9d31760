// Debian's Chromium (apt-get install chromium) and the flags it runs with here, shared by the
// e2e config and the bench's LCP loads. Playwright's own download is unreachable on this machine;
// without the background-networking flags Chromium keeps trying addresses the network refuses.
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]
