import { expect, test } from 'vitest'
import { z } from 'zod'
import { turnOffZodJit } from '#app/validation/zod-jitless'

test("turning the JIT off without importing zod sets zod's own configuration", () => {
  const before = z.config().jitless
  try {
    turnOffZodJit()
    expect(z.config().jitless).toBe(true)
  } finally {
    z.config({ jitless: before })
  }
})
