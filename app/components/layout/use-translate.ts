// The page's messages in its language (ADR 105), chosen by the root loader.
import { useMemo } from 'react'
import { translator } from '#app/utils/i18n/translate'
import { SOURCE_LANGUAGE } from '#app/validation/languages'
import { useRootData } from './root-data'

export function useTranslate() {
  const language = useRootData()?.language ?? SOURCE_LANGUAGE
  return useMemo(() => translator(language), [language])
}
