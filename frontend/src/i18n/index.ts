import { createI18n } from 'vue-i18n'

import { setRequestLanguage } from '../api/client'
import en from './en'
import zhCN from './zh-CN'

export type Locale = 'en' | 'zh-CN'
export const LOCALES: Locale[] = ['en', 'zh-CN']
const STORAGE_KEY = 'tplat.locale'

/** The user's earlier choice, else the browser's first language that we have. */
function initialLocale(): Locale {
  const saved = localStorage.getItem(STORAGE_KEY)
  if (saved === 'en' || saved === 'zh-CN') return saved
  for (const language of navigator.languages) {
    if (language.toLowerCase().startsWith('zh')) return 'zh-CN'
    if (language.toLowerCase().startsWith('en')) return 'en'
  }
  return 'en'
}

export const i18n = createI18n({
  legacy: false,
  locale: initialLocale(),
  fallbackLocale: 'en',
  messages: { en, 'zh-CN': zhCN },
})

/** The text for `key`, or `fallback` where the interface has none: names that come from the API or the trainer. */
export function tOr(key: string, fallback: string): string {
  return i18n.global.te(key) ? i18n.global.t(key) : fallback
}

export function setLocale(locale: Locale): void {
  i18n.global.locale.value = locale
  localStorage.setItem(STORAGE_KEY, locale)
  document.documentElement.lang = locale
  setRequestLanguage(locale)
}

document.documentElement.lang = i18n.global.locale.value
setRequestLanguage(i18n.global.locale.value)
