// The new-job form's model: per-algorithm fields laid out in sections, initial values from the API's parameter
// schema (GET /algorithms), and the conversion of what was typed into the body of POST /jobs.
import type { Algorithm, JsonSchemaProperty, ParamsSchema } from './api/types'

export type FieldKind = 'number' | 'integer' | 'boolean' | 'enum' | 'text'

export interface FieldInfo {
  kind: FieldKind
  nullable: boolean
  options: string[]
  default: unknown
  description: string
}

/** Parameters in the order the form shows them; a field is shown only when the algorithm's schema has it. */
export const TRAINING_FIELDS = [
  'learning_rate',
  'batch_size',
  'micro_batch_size',
  'num_gpus',
  'zero_stage',
  'max_length',
  'max_prompt_length',
  'max_response_length',
  'lr_scheduler',
  'warmup_ratio',
  'weight_decay',
  'max_grad_norm',
  'precision',
  'cpu_offload',
  'seed',
  'gradient_checkpointing',
]
export const ALGORITHM_FIELDS = [
  'train_on',
  'packing',
  'beta',
  'rollout_n',
  'kl_coef',
  'clip_ratio',
  'clip_ratio_high',
  'ppo_epochs',
  'temperature',
  'top_p',
  'reward_model_path',
  'critic_learning_rate',
  'gamma',
  'lam',
]
export const CHECKPOINT_FIELDS = ['save_interval', 'save_total_limit', 'eval_interval']

export function describeField(property: JsonSchemaProperty): FieldInfo {
  const variants = property.anyOf ?? [property]
  const concrete = variants.find((variant) => variant.type !== 'null') ?? property
  const kind: FieldKind = concrete.enum
    ? 'enum'
    : concrete.type === 'integer'
      ? 'integer'
      : concrete.type === 'number'
        ? 'number'
        : concrete.type === 'boolean'
          ? 'boolean'
          : 'text'
  return {
    kind,
    nullable: variants.some((variant) => variant.type === 'null'),
    options: concrete.enum ?? [],
    default: property.default,
    description: property.description ?? '',
  }
}

export function fieldsOf(schema: ParamsSchema): Record<string, FieldInfo> {
  return Object.fromEntries(Object.entries(schema.properties).map(([name, property]) => [name, describeField(property)]))
}

/** The fields of a parameter that is an object of its own (`LoraParams`, `RewardSpec`), from the schema's `$defs`. */
export function definitionFields(schema: ParamsSchema | undefined, name: string): Record<string, FieldInfo> {
  return fieldsOf(schema?.$defs?.[name] ?? { properties: {} })
}

/** `names` in their order, less those the algorithm does not have. */
export function shownFields(names: string[], fields: Record<string, FieldInfo>): string[] {
  return names.filter((name) => name in fields)
}

/** What an input shows for a value: numbers and text as strings, so 1e-6 stays 1e-6 while typed. */
export type FormValue = string | boolean

export function toFormValue(value: unknown): FormValue {
  if (typeof value === 'boolean') return value
  if (value === null || value === undefined) return ''
  // Learning rates read as 2e-5, the way people write them, not 0.00002.
  if (typeof value === 'number' && value !== 0 && Math.abs(value) < 1e-3) return value.toExponential()
  return String(value)
}

export function defaultValues(fields: Record<string, FieldInfo>): Record<string, FormValue> {
  return Object.fromEntries(Object.entries(fields).map(([name, field]) => [name, toFormValue(field.default)]))
}

/** Typed text back to JSON. Text that is not a number is sent as it is: the API's message then says what is wrong. */
export function fromFormValue(value: FormValue, info: FieldInfo | undefined): unknown {
  if (typeof value === 'boolean') return value
  const text = value.trim()
  if (text === '') return null
  if (info && (info.kind === 'number' || info.kind === 'integer')) {
    const number = Number(text)
    return Number.isNaN(number) ? text : number
  }
  return text
}

/** One reward function's settings, each named as in the schema's `RewardSpec`. */
export type RewardForm = Record<string, FormValue>

/** Which reward settings apply to a reward of this type (the API refuses the others). */
export function rewardSettings(reward: RewardForm): string[] {
  if (reward.type === 'custom') return ['function', 'answer_field', 'weight']
  if (reward.type === 'format_check') return ['extraction', 'json_key', 'pattern', 'weight']
  const fields = ['extraction', 'comparison', 'answer_field', 'weight']
  if (reward.extraction === 'json') fields.push('json_key')
  if (reward.comparison === 'numeric') fields.push('tolerance')
  if (reward.comparison === 'fuzzy') fields.push('fuzzy_threshold')
  return fields
}

export function rewardBody(reward: RewardForm, fields: Record<string, FieldInfo>): Record<string, unknown> {
  const body: Record<string, unknown> = { type: reward.type }
  for (const name of rewardSettings(reward)) {
    const value = fromFormValue(reward[name], fields[name])
    if (value !== null) body[name] = value
  }
  return body
}

export interface LoraForm {
  enabled: boolean
  /** Each setting of the schema's `LoraParams`. */
  values: Record<string, FormValue>
}

/** LoRA's settings as POST /jobs takes them; target modules are typed as a comma-separated list. */
export function loraBody(lora: LoraForm, fields: Record<string, FieldInfo>): Record<string, unknown> | null {
  if (!lora.enabled) return null
  const body: Record<string, unknown> = {}
  for (const [name, value] of Object.entries(lora.values)) body[name] = fromFormValue(value, fields[name])
  const modules = String(lora.values.target_modules).trim()
  body.target_modules =
    modules === '' || modules === 'all-linear'
      ? 'all-linear'
      : modules
          .split(',')
          .map((name) => name.trim())
          .filter(Boolean)
  return body
}

/** The job's own settings in the form: all but its parameters. */
export interface JobBasics {
  name: string
  algorithm: Algorithm
  engine: string
  model_path: string
  dataset_paths: string[]
  eval_dataset_path: string
  /** Where the job runs: one of GET /system's run modes (local, ray, ssh:<host>). */
  run_mode: string
  lengthMode: 'epochs' | 'steps'
  num_epochs: string
  max_steps: string
  start: boolean
}

/** What the compute configurator hands to a new job ("apply to new job"). */
export interface JobDraft {
  algorithm: Algorithm
  engine?: string
  model_path?: string
  params: Record<string, unknown>
  /** What it chose that the params do not hold, as the engine's own settings (RecommendationRead.engine_settings). */
  engine_settings?: Record<string, unknown>
  /** The configurator's expected duration, as it showed it (total for its steps, else per step). */
  duration?: string
}

/** The engine settings as typed: one `key: value` a line, blank lines and `#` comments skipped. */
export interface EngineSettingsForm {
  settings: Record<string, unknown>
  /** Lines (1-based) that are not `key: value`: nothing is sent while there are any. */
  badLines: number[]
}

/** A value as JSON when it reads as JSON (numbers, true/false, null, [lists], "quoted text"), else as the text. */
function settingValue(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

export function parseEngineSettings(text: string): EngineSettingsForm {
  const settings: Record<string, unknown> = {}
  const badLines: number[] = []
  text.split('\n').forEach((line, index) => {
    const trimmed = line.trim()
    if (trimmed === '' || trimmed.startsWith('#')) return
    const colon = trimmed.indexOf(':')
    const key = colon > 0 ? trimmed.slice(0, colon).trim() : ''
    if (!key) badLines.push(index + 1)
    else settings[key] = settingValue(trimmed.slice(colon + 1).trim())
  })
  return { settings, badLines }
}

/** Settings as the card's text: text that would not read back as itself (`"0.95"`, `"true"`, `""`) stays quoted. */
export function engineSettingsText(settings: Record<string, unknown>): string {
  return Object.entries(settings)
    .map(([key, value]) => {
      const plain =
        typeof value === 'string' && value !== '' && value === value.trim() && !value.includes('\n') && settingValue(value) === value
      return `${key}: ${plain ? value : JSON.stringify(value)}`
    })
    .join('\n')
}
