// Prints a failed test's error context (the error and an accessibility snapshot of the page it
// left) into the run's output. CI keeps only the output, not test-results/, and a flaky failure
// seen only there is otherwise a timeout with no picture of the page.
import { readFileSync } from 'node:fs'
import type { Reporter, TestCase, TestResult } from '@playwright/test/reporter'

const LIMIT = 8_000

export default class FailureContextReporter implements Reporter {
  onTestEnd(test: TestCase, result: TestResult) {
    if (result.status === test.expectedStatus) return
    for (const attachment of result.attachments) {
      if (attachment.name !== 'error-context' || !attachment.path) continue
      let text: string
      try {
        text = readFileSync(attachment.path, 'utf8')
      } catch {
        continue
      }
      const cut =
        text.length > LIMIT
          ? `${text.slice(0, LIMIT)}\n[... ${text.length - LIMIT} more characters]`
          : text
      console.log(
        `\n--- error context of "${test.titlePath().slice(1).join(' › ')}" ---\n${cut}\n---\n`,
      )
    }
  }

  printsToStdio() {
    return false
  }
}
