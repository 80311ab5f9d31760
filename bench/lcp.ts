// Largest Contentful Paint of the public card page in Chromium throttled to a mid-range phone on
// 4G (issue 16 point 2), through the Chrome DevTools Protocol: Lighthouse's mobile preset as it
// applies it in DevTools mode (Lighthouse core/config/constants.js, throttling.mobileSlow4G:
// 150 ms RTT and 1.6 Mbps down, 750 Kbps up, scaled by its request-level factors 3.75 and 0.9;
// CPU slowed 4×), a Moto G Power-sized viewport, a cold cache for every load.

import { existsSync } from 'node:fs'
import { chromium } from '@playwright/test'
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../e2e/chromium'
import { PHONE_HEADERS } from './scenarios'

const LOADS = 3
const THROTTLING = {
  latency: 150 * 3.75,
  downloadThroughput: (1.6 * 1024 * 1024 * 0.9) / 8,
  uploadThroughput: (750 * 1024 * 0.9) / 8,
  cpuSlowdown: 4,
}

/** The median LCP of LOADS cold loads in ms, or why it was not measured. */
export async function measureLcp(url: string): Promise<{ ms: number } | { skipped: string }> {
  if (!existsSync(CHROMIUM_PATH)) return { skipped: `no Chromium at ${CHROMIUM_PATH}` }
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS })
  try {
    const times: number[] = []
    for (let i = 0; i < LOADS; i++) {
      const context = await browser.newContext({
        userAgent: PHONE_HEADERS['user-agent'],
        viewport: { width: 412, height: 823 },
        deviceScaleFactor: 1.75,
        isMobile: true,
        hasTouch: true,
      })
      try {
        const page = await context.newPage()
        const cdp = await context.newCDPSession(page)
        await cdp.send('Network.enable')
        await cdp.send('Network.setCacheDisabled', { cacheDisabled: true })
        await cdp.send('Network.emulateNetworkConditions', {
          offline: false,
          latency: THROTTLING.latency,
          downloadThroughput: THROTTLING.downloadThroughput,
          uploadThroughput: THROTTLING.uploadThroughput,
        })
        await cdp.send('Emulation.setCPUThrottlingRate', { rate: THROTTLING.cpuSlowdown })
        await page.goto(url, { waitUntil: 'load', timeout: 60_000 })
        // The last candidate so far; a second more lets late images and hydration settle.
        await page.waitForTimeout(1000)
        const lcp = await page.evaluate(
          () =>
            new Promise<number>((resolve) => {
              new PerformanceObserver((list) => {
                const entries = list.getEntries()
                resolve(entries[entries.length - 1]?.startTime ?? Number.NaN)
              }).observe({ type: 'largest-contentful-paint', buffered: true })
              setTimeout(() => resolve(Number.NaN), 2000)
            }),
        )
        if (!Number.isFinite(lcp)) return { skipped: 'Chromium reported no LCP entry' }
        times.push(lcp)
      } finally {
        await context.close()
      }
    }
    times.sort((a, b) => a - b)
    return { ms: Math.round(times[Math.floor(times.length / 2)] as number) }
  } finally {
    await browser.close()
  }
}
