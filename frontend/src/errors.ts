// How API failures reach the user: as a message next to the field they concern, or as a short notice.
import { ElMessage } from 'element-plus'

import { ApiError, type FieldError } from './api/client'
import { i18n } from './i18n'

export function messageOf(error: unknown): string {
  const t = i18n.global.t
  if (error instanceof ApiError) {
    if (error.status === 0) return t('errors.network')
    if (error.status >= 500) return t('errors.server', { status: error.status })
    return error.message
  }
  // A bug in the page itself: say so plainly; the details belong in the browser console, not on screen.
  console.warn(error)
  return t('errors.unexpected')
}

/** A short notice; none for a 401, after which the login page opens (see useSession). A 403 shows the server's reason. */
export function notifyError(error: unknown): void {
  if (error instanceof ApiError && error.status === 401) return
  ElMessage({ type: 'error', message: messageOf(error), showClose: true, duration: 6000 })
}

export function describeFieldError(error: FieldError): string {
  return error.row === undefined ? error.message : i18n.global.t('errors.row', { row: error.row, message: error.message })
}

/**
 * Field errors keyed by the form item that shows them: the item whose field is the longest prefix of the error's
 * field (`params.rewards.0.answer_field` → `params.rewards.0.answer_field`, `params.lora.rank` → `params.lora.rank`),
 * or one named by `aliases` (errors about a whole object, like `params`). The rest is returned as unplaced.
 */
export function placeFieldErrors(
  errors: FieldError[],
  fields: string[],
  aliases: Record<string, string> = {},
): { placed: Record<string, string>; unplaced: string[] } {
  const placed: Record<string, string> = {}
  const unplaced: string[] = []
  for (const error of errors) {
    const target =
      aliases[error.field] ??
      fields
        .filter((field) => error.field === field || error.field.startsWith(`${field}.`))
        .sort((a, b) => b.length - a.length)[0]
    const text = describeFieldError(error)
    if (target) placed[target] = placed[target] ? `${placed[target]}; ${text}` : text
    else unplaced.push(`${error.field}: ${text}`)
  }
  return { placed, unplaced }
}
