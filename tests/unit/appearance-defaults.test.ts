import { expect, test } from 'vitest'
import { APPEARANCE_DEFAULTS } from '#app/validation/appearance'
import { StoredAppearanceSchema } from '#app/validation/settings'

test('the written-out appearance defaults are what the schema gives for nothing stored', () => {
  expect(APPEARANCE_DEFAULTS).toEqual(StoredAppearanceSchema.parse({}))
})
