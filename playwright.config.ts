import { defineConfig, devices } from '@playwright/test'
import { E2E_PORT, TENANTS } from './e2e/fixtures'

// Debian's Chromium (apt-get install chromium); Playwright's own download is unreachable here.
const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

export default defineConfig({
  testDir: 'e2e',
  timeout: 30_000,
  fullyParallel: true,
  workers: process.env.CI ? 2 : undefined,
  forbidOnly: Boolean(process.env.CI),
  reporter: process.env.CI ? 'list' : [['list'], ['html', { open: 'never' }]],
  use: {
    baseURL: `http://localhost:${E2E_PORT}`,
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        // Custom domains reach the local server; *.localhost resolves to loopback by itself.
        `--host-resolver-rules=MAP ${TENANTS.beta.customDomain} 127.0.0.1`,
      ],
    },
  },
  projects: [{ name: 'desktop', use: { ...devices['Desktop Chrome'], channel: undefined } }],
  webServer: {
    command: 'tsx e2e/start-server.ts',
    url: `http://localhost:${E2E_PORT}/api/health-check`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'pipe',
  },
})
