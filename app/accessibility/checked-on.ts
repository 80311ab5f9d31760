// The date of the last accessibility check (ADR 100), fixed by the build: vite.config.ts defines
// it from scripts/accessibility-checked-on.ts (the built commit's date). Null when the build knew
// none.
declare const __ACCESSIBILITY_CHECKED_ON__: string | null | undefined

export const ACCESSIBILITY_CHECKED_ON: string | null =
  typeof __ACCESSIBILITY_CHECKED_ON__ === 'string' ? __ACCESSIBILITY_CHECKED_ON__ : null
