// The Appearance settings of a visitor or of someone who never changed them, written out so the
// root layout reads them without zod (the public card page's JavaScript budget). They must equal
// StoredAppearanceSchema.parse({}) in ./settings.ts; tests/unit/appearance-defaults.test.ts checks.
import type { AppearanceSettings } from './settings'

export const APPEARANCE_DEFAULTS: AppearanceSettings = {
  theme: 'system',
  fontSize: 'medium',
  animations: true,
}
