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
  'max_length',
  'max_prompt_length',
  'max_response_length',
  'lr_scheduler',
  'warmup_ratio',
  'weight_decay',
  'max_grad_norm',
  'precision',
  'seed',
  'gradient_checkpointing',
]
export const ALGORITHM_FIELDS = [
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
export const REWARD_TYPES = ['math_verify', 'format_check', 'custom'] as const
export const EXTRACTIONS = ['boxed', 'last_number', 'json'] as const
export const COMPARISONS = ['exact', 'numeric', 'fuzzy'] as const

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

/** What an input shows for a value: numbers and text as strings, so 1e-6 stays 1e-6 while typed. */
export type FormValue = string | boolean

export function toFormValue(value: unknown): FormValue {
  if (typeof value === 'boolean') return value
  if (value === null || value === undefined) return ''
  // Learning rates read as 2e-5, the way people write them, not 0.00002.
  if (typeof value === 'number' && value !== 0 && Math.abs(value) < 1e-3) return value.toExponential()
  return String(value)
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

export interface RewardForm {
  type: (typeof REWARD_TYPES)[number]
  extraction: (typeof EXTRACTIONS)[number]
  comparison: (typeof COMPARISONS)[number]
  answer_field: string
  json_key: string
  weight: string
  tolerance: string
  fuzzy_threshold: string
  pattern: string
  function: string
}

export function rewardDefaults(schema: ParamsSchema): RewardForm {
  const properties = schema.$defs?.RewardSpec?.properties ?? {}
  const value = (name: string, fallback: string) => toFormValue(properties[name]?.default ?? fallback) as string
  return {
    type: value('type', 'math_verify') as RewardForm['type'],
    extraction: value('extraction', 'boxed') as RewardForm['extraction'],
    comparison: value('comparison', 'numeric') as RewardForm['comparison'],
    answer_field: value('answer_field', 'solution'),
    json_key: value('json_key', 'answer'),
    weight: value('weight', '1'),
    tolerance: value('tolerance', '1e-6'),
    fuzzy_threshold: value('fuzzy_threshold', '0.8'),
    pattern: '',
    function: '',
  }
}

/** Which reward settings apply to a reward of this type (the API refuses the others). */
export function rewardFields(reward: RewardForm): (keyof RewardForm)[] {
  if (reward.type === 'custom') return ['function', 'answer_field', 'weight']
  if (reward.type === 'format_check') return ['extraction', 'json_key', 'pattern', 'weight']
  const fields: (keyof RewardForm)[] = ['extraction', 'comparison', 'answer_field', 'weight']
  if (reward.extraction === 'json') fields.push('json_key')
  if (reward.comparison === 'numeric') fields.push('tolerance')
  if (reward.comparison === 'fuzzy') fields.push('fuzzy_threshold')
  return fields
}

const NUMERIC_REWARD_FIELDS = new Set(['weight', 'tolerance', 'fuzzy_threshold'])

export function rewardBody(reward: RewardForm): Record<string, unknown> {
  const body: Record<string, unknown> = { type: reward.type }
  for (const field of rewardFields(reward)) {
    const text = reward[field].trim()
    if (text === '') continue
    body[field] = NUMERIC_REWARD_FIELDS.has(field) && !Number.isNaN(Number(text)) ? Number(text) : text
  }
  return body
}

export interface LoraForm {
  enabled: boolean
  rank: string
  alpha: string
  dropout: string
  target_modules: string
}

export function loraDefaults(schema: ParamsSchema): LoraForm {
  const properties = schema.$defs?.LoraParams?.properties ?? {}
  return {
    enabled: false,
    rank: toFormValue(properties.rank?.default ?? 16) as string,
    alpha: '',
    dropout: toFormValue(properties.dropout?.default ?? 0.05) as string,
    target_modules: 'all-linear',
  }
}

export function loraBody(lora: LoraForm): Record<string, unknown> | null {
  if (!lora.enabled) return null
  const number = (text: string) => (text.trim() === '' ? null : Number.isNaN(Number(text)) ? text : Number(text))
  const modules = lora.target_modules.trim()
  return {
    rank: number(lora.rank),
    alpha: number(lora.alpha),
    dropout: number(lora.dropout),
    target_modules:
      modules === '' || modules === 'all-linear'
        ? 'all-linear'
        : modules
            .split(',')
            .map((name) => name.trim())
            .filter(Boolean),
  }
}

/** What the compute configurator hands to a new job ("apply to new job"). */
export interface JobDraft {
  algorithm: Algorithm
  engine?: string
  model_path?: string
  params: Record<string, unknown>
}
