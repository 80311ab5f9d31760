export const WIZARD_STEPS = 5
export type WizardMode = 'profile' | 'card'

/** Card-creation mode travels in the URL (`?mode=card`), never in browser storage. */
export function wizardUrl(mode: WizardMode, step: number) {
  const params = new URLSearchParams({ step: String(step) })
  if (mode === 'card') params.set('mode', 'card')
  return `/onboarding?${params}`
}
