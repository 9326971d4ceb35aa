// A form's submission and what the API said against it: each field error under its input, the rest above the form;
// the first of them scrolled into view, and each field's error gone once that field is changed.
import { nextTick, ref, watch } from 'vue'

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
  /** The values as the request sends them, keyed as the API names fields: a field's error is cleared when its
   * value changes from the one it was about. */
  values?: () => unknown
}

/** Where the form's messages are, in the page's order: the first one is scrolled into view. */
const MESSAGES = '.el-form-item.is-error, .form-errors'

/** The value at a field's dotted name (`params.lora.rank`, `dataset_paths.0`) in a request's values. */
function valueAt(values: unknown, field: string): string {
  let value = values
  for (const part of field.split('.')) value = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[part] : undefined
  return JSON.stringify(value) ?? ''
}

export function useFormErrors(options: FormErrorOptions) {
  const fieldErrors = ref<Record<string, string>>({})
  const otherErrors = ref<string[]>([])
  const rowErrors = ref<string[]>([])
  const submitting = ref(false)
  /** The values the shown field errors are about: each field's, as it was when the errors came. */
  let answered: Record<string, string> = {}

  function remember(): void {
    const values = options.values?.()
    answered = Object.fromEntries(Object.keys(fieldErrors.value).map((field) => [field, valueAt(values, field)]))
  }

  if (options.values) {
    watch(
      options.values,
      (values) => {
        const changed = Object.keys(fieldErrors.value).filter((field) => valueAt(values, field) !== answered[field])
        if (!changed.length) return
        fieldErrors.value = Object.fromEntries(Object.entries(fieldErrors.value).filter(([field]) => !changed.includes(field)))
      },
      { deep: true },
    )
  }

  async function scrollToFirst(): Promise<void> {
    await nextTick()
    document.querySelector(MESSAGES)?.scrollIntoView({ block: 'center' })
  }

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
    remember()
    void scrollToFirst()
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
