// The model surgery page's values: what the API takes from a form (parameters typed as text) and the enumerations
// its OpenAPI document declares (dtypes, averaging modes, selection rules), read from there rather than retyped.
import type { OpenApiDocument } from './api/types'
import { describeField, type FieldInfo } from './jobForm'

/** A merge parameter as typed: '' is unset, `0.2, 0.5, 0.8` a list (slerp's t as a gradient over the layers). */
export function parseNumbers(text: string): number | number[] | undefined {
  const parts = text
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '')
  if (!parts.length) return undefined
  // A part that is not a number goes to the API as NaN's JSON (null), which it refuses, naming the parameter.
  const numbers = parts.map(Number)
  return numbers.length === 1 && !text.includes(',') ? numbers[0] : numbers
}

/** The fields of the surgery requests whose options the API declares. */
export interface SurgeryFields {
  dtype: FieldInfo
  averageMode: FieldInfo
  decay: FieldInfo
  rule: FieldInfo
  selectMode: FieldInfo
}

export function surgeryFields(document: OpenApiDocument): SurgeryFields {
  const schemas = document.components.schemas
  const field = (schema: string, name: string) => describeField(schemas[schema]!.properties[name]!)
  return {
    dtype: field('MergeRequest', 'dtype'),
    averageMode: field('AverageRequest', 'mode'),
    decay: field('AverageRequest', 'decay'),
    rule: field('SelectRequest', 'rule'),
    selectMode: field('SelectRequest', 'mode'),
  }
}

/** A sha256 as people compare them by eye. */
export const shortHash = (sha256: string) => sha256.slice(0, 12)
