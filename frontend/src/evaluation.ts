// The evaluation pages' values: the fields the API's OpenAPI document declares for generation settings and metric
// options (read from there, never retyped), estimates as people read them, a word-level diff of two answers, and
// the playground's streamed answer read from its server-sent events.
import { API_PREFIX, ApiError, errorFromBody } from './api/client'
import type { ChatRequest, EvalEstimate, EvalTarget, GenerationSettings, OpenApiDocument } from './api/types'
import { formatNumber } from './format'
import { i18n } from './i18n'
import { describeField, fromFormValue, toFormValue, type FieldInfo, type FormValue } from './jobForm'
import { parseNumbers } from './surgery'

/** The settings forms need: each generation setting and each metric option, as the API describes them. */
export interface EvalFields {
  generation: Record<string, FieldInfo>
  metricOptions: Record<string, FieldInfo>
  /** The playground's generation settings (one answer per prompt, streamed). */
  chat: Record<string, FieldInfo>
}

export function evalFields(document: OpenApiDocument): EvalFields {
  const schemas = document.components.schemas
  const describe = (schema: string) =>
    Object.fromEntries(Object.entries(schemas[schema]!.properties).map(([name, property]) => [name, describeField(property)]))
  return { generation: describe('GenerationSettings'), metricOptions: describe('MetricRequest'), chat: describe('ChatGeneration') }
}

/** Options typed as lists of numbers (pass@k's k) and as lists of texts (stop sequences): comma separated. */
const NUMBER_LISTS = new Set(['k'])
const TEXT_LISTS = new Set(['stop'])

export function formValues(fields: Record<string, FieldInfo>): Record<string, FormValue> {
  return Object.fromEntries(
    Object.entries(fields).map(([name, info]) => [name, Array.isArray(info.default) ? info.default.join(', ') : toFormValue(info.default)]),
  )
}

/** A form's values as the API takes them: lists split at commas, numbers as numbers, '' left out. */
export function bodyOf(values: Record<string, FormValue>, fields: Record<string, FieldInfo>): Record<string, unknown> {
  const body: Record<string, unknown> = {}
  for (const [name, value] of Object.entries(values)) {
    if (NUMBER_LISTS.has(name)) {
      const numbers = parseNumbers(String(value))
      if (numbers !== undefined) body[name] = Array.isArray(numbers) ? numbers : [numbers]
    } else if (TEXT_LISTS.has(name)) {
      body[name] = String(value)
        .split(',')
        .map((part) => part.trim())
        .filter(Boolean)
    } else if (value !== '') {
      body[name] = fromFormValue(value, fields[name])
    }
  }
  return body
}

export function generationBody(values: Record<string, FormValue>, fields: Record<string, FieldInfo>): GenerationSettings {
  return bodyOf(values, fields) as unknown as GenerationSettings
}

/** A run's target as the form holds it: a model reference, or an endpoint. */
export interface TargetForm {
  kind: 'model' | 'api'
  model: string
  baseUrl: string
  apiModel: string
  secret: string
}

export const emptyTarget = (): TargetForm => ({ kind: 'model', model: '', baseUrl: '', apiModel: '', secret: '' })

export function targetBody(form: TargetForm): EvalTarget {
  if (form.kind === 'model') return { kind: 'model', model: form.model.trim() }
  return { kind: 'api', base_url: form.baseUrl.trim(), model: form.apiModel.trim(), api_key_secret: form.secret || null }
}

export function describeTarget(form: TargetForm): string {
  return form.kind === 'model' ? form.model : `${form.apiModel} @ ${form.baseUrl}`
}

/** A value with its interval: `0.62 [0.48, 0.75]`. */
export function formatEstimate(estimate: EvalEstimate | { value: number | null; low?: number | null; high?: number | null } | undefined): string {
  if (!estimate || estimate.value === null) return '—'
  const interval = estimate.low != null && estimate.high != null ? ` [${formatNumber(estimate.low)}, ${formatNumber(estimate.high)}]` : ''
  return `${formatNumber(estimate.value)}${interval}`
}

/** A difference signed: `+0.12 [0.02, 0.21]`. */
export function formatDifference(difference: { value: number | null; low?: number | null; high?: number | null } | undefined): string {
  if (!difference || difference.value === null) return '—'
  const sign = difference.value > 0 ? '+' : ''
  return `${sign}${formatEstimate(difference)}`
}

/** Whether an interval of a difference lies wholly above (1) or below (-1) zero, or holds it (0). */
export function significance(difference: { low?: number | null; high?: number | null } | undefined): 1 | -1 | 0 {
  if (difference?.low == null || difference.high == null) return 0
  return difference.low > 0 ? 1 : difference.high < 0 ? -1 : 0
}

/** A prompt as text: a chat's turns one per line, each with its role. */
export function promptText(prompt: string | Record<string, unknown>[]): string {
  return typeof prompt === 'string' ? prompt : prompt.map((message) => `${message.role}: ${String(message.content ?? '')}`).join('\n')
}

export interface DiffPart {
  text: string
  change: 'same' | 'added' | 'removed'
}

/** The words of `after` against those of `before` (a longest common subsequence over words and the spaces between
 *  them); answers are short, so the quadratic table stays small — past MAX_DIFF_WORDS words it is not built. */
const MAX_DIFF_WORDS = 2000
export function wordDiff(before: string, after: string): DiffPart[] {
  const a = before.split(/(\s+)/).filter(Boolean)
  const b = after.split(/(\s+)/).filter(Boolean)
  if (a.length * b.length > MAX_DIFF_WORDS * MAX_DIFF_WORDS) return [{ text: after, change: 'same' }]
  const lengths = Array.from({ length: a.length + 1 }, () => new Uint32Array(b.length + 1))
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--)
      lengths[i]![j] = a[i] === b[j] ? lengths[i + 1]![j + 1]! + 1 : Math.max(lengths[i + 1]![j]!, lengths[i]![j + 1]!)
  const parts: DiffPart[] = []
  const push = (text: string, change: DiffPart['change']) => {
    const last = parts[parts.length - 1]
    if (last?.change === change) last.text += text
    else parts.push({ text, change })
  }
  let i = 0
  let j = 0
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      push(a[i++]!, 'same')
      j++
    } else if (j < b.length && (i === a.length || lengths[i]![j + 1]! >= lengths[i + 1]![j]!)) push(b[j++]!, 'added')
    else push(a[i++]!, 'removed')
  }
  return parts
}

/** What the playground's stream ends with. */
export interface StreamEnd {
  seconds: number
  characters: number
}

/**
 * POST /playground/chat and read its server-sent events (`data: {"text"}` pieces, then `data: {"done"}` or
 * `data: {"error"}`) as they arrive. The session cookie and the interface's language go with it, as with every API
 * call (api/client.ts).
 */
export async function streamChat(
  body: ChatRequest,
  onText: (text: string) => void,
  signal: AbortSignal,
): Promise<StreamEnd> {
  let response: Response
  try {
    response = await fetch(`${API_PREFIX}/playground/chat`, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json', 'accept-language': i18n.global.locale.value, accept: 'text/event-stream' },
      body: JSON.stringify(body),
      signal,
    })
  } catch (error) {
    if (signal.aborted) throw error
    throw new ApiError(0, 'network')
  }
  if (!response.ok || !response.body) throw errorFromBody(response.status, response.statusText, await response.text())
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader()
  let buffered = ''
  for (;;) {
    const { value, done } = await reader.read()
    if (done) throw new ApiError(0, 'network')
    buffered += value
    const events = buffered.split(/\r?\n\r?\n/)
    buffered = events.pop() ?? ''
    for (const event of events) {
      const data = event
        .split(/\r?\n/)
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).trimStart())
        .join('\n')
      if (!data) continue
      const message = JSON.parse(data) as { text?: string; done?: boolean; seconds?: number; characters?: number; error?: string }
      if (message.error !== undefined) throw new ApiError(422, message.error)
      if (message.done) return { seconds: message.seconds ?? 0, characters: message.characters ?? 0 }
      if (message.text) onText(message.text)
    }
  }
}
