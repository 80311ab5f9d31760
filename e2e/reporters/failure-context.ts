// Prints what the page showed when a test failed (the accessibility snapshot Playwright writes
// into the test's error-context.md) into the run's output. CI keeps only the output, not
// test-results/ nor traces, and a failure seen only there would otherwise be a timeout with no
// picture of the page.
import { readFileSync } from 'node:fs'
import type { Reporter, TestCase, TestResult } from '@playwright/test/reporter'

const LIMIT = 8_000

/** The ```yaml block of an error context: the page's accessibility tree. */
function pageSnapshot(markdown: string) {
  const start = markdown.indexOf('```yaml')
  if (start < 0) return undefined
  const end = markdown.indexOf('\n```', start + 7)
  return markdown.slice(start + 8, end < 0 ? undefined : end)
}

export default class FailureContextReporter implements Reporter {
  onTestEnd(test: TestCase, result: TestResult) {
    if (result.status === test.expectedStatus) return
    for (const attachment of result.attachments) {
      if (attachment.name !== 'error-context' || !attachment.path) continue
      let snapshot: string | undefined
      try {
        snapshot = pageSnapshot(readFileSync(attachment.path, 'utf8'))
      } catch {
        continue
      }
      if (!snapshot) continue
      const cut =
        snapshot.length > LIMIT
          ? `${snapshot.slice(0, LIMIT)}\n[... ${snapshot.length - LIMIT} more characters]`
          : snapshot
      const title = test.titlePath().slice(1).join(' › ')
      console.log(`\n--- the page when "${title}" failed ---\n${cut}\n---\n`)
    }
  }

  printsToStdio() {
    return false
  }
}
