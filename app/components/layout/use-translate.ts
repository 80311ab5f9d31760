// The page's messages in its language (ADR 105), which the root loader chose and the root
// layout provides; English where nothing provides one (a component rendered on its own).
import { createContext, useContext, useMemo } from 'react'
import { translator } from '#app/utils/i18n/translate'
import { type Language, SOURCE_LANGUAGE } from '#app/validation/languages'

export const PageLanguage = createContext<Language>(SOURCE_LANGUAGE)

export function useTranslate() {
  const language = useContext(PageLanguage)
  return useMemo(() => translator(language), [language])
}
