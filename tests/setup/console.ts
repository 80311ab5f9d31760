import { afterEach, beforeEach, vi } from 'vitest'

// An unexpected console.error fails the test; a test that expects one mocks it itself.
let spy: ReturnType<typeof vi.spyOn> | undefined
beforeEach(() => {
  spy = vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    throw new Error(`console.error was called: ${args.map(String).join(' ')}`)
  })
})
afterEach(() => {
  spy?.mockRestore()
})
