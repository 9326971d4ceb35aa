// A form's submission and what the API said against it: each field error under its input, the rest above the form.
import { ref } from 'vue'

import { ApiError } from '../api/client'
import { describeFieldError, messageOf, placeFieldErrors } from '../errors'

export interface FormErrorOptions {
  /** The form items' fields, named as the API names them in its errors. */
  fields: () => string[]
  /** Errors about a whole object, each shown at the input that usually causes it. */
  aliases?: () => Record<string, string>
  /** The field a conflict (409) without field errors is about, if any: a name already taken. */
  conflict?: (error: ApiError) => string | undefined
  /** The field whose errors are rows of an uploaded file: listed one per line, not joined under the input. */
  rowsField?: string
}

export function useFormErrors(options: FormErrorOptions) {
  const fieldErrors = ref<Record<string, string>>({})
  const otherErrors = ref<string[]>([])
  const rowErrors = ref<string[]>([])
  const submitting = ref(false)

  function clear(): void {
    fieldErrors.value = {}
    otherErrors.value = []
    rowErrors.value = []
  }

  function show(error: unknown): void {
    if (!(error instanceof ApiError)) {
      otherErrors.value = [messageOf(error)]
    } else if (error.errors.length) {
      rowErrors.value = error.errors.filter((item) => item.field === options.rowsField).map(describeFieldError)
      const { placed, unplaced } = placeFieldErrors(
        error.errors.filter((item) => item.field !== options.rowsField),
        options.fields(),
        options.aliases?.(),
      )
      fieldErrors.value = placed
      otherErrors.value = unplaced
    } else {
      const field = error.status === 409 ? options.conflict?.(error) : undefined
      if (field) fieldErrors.value = { [field]: error.message }
      else otherErrors.value = [messageOf(error)]
    }
  }

  /** Runs `action` with the earlier errors cleared; false when it failed (its errors are then shown). */
  async function submit(action: () => Promise<unknown>): Promise<boolean> {
    clear()
    submitting.value = true
    try {
      await action()
      return true
    } catch (error) {
      show(error)
      return false
    } finally {
      submitting.value = false
    }
  }

  return { fieldErrors, otherErrors, rowErrors, submitting, clear, submit }
}
