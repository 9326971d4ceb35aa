// The shapes the API returns (see /docs); only what the UI reads.

export type Algorithm = 'sft' | 'dpo' | 'grpo' | 'gspo' | 'ppo'
export const ALGORITHMS: Algorithm[] = ['sft', 'dpo', 'grpo', 'gspo', 'ppo']
export type JobStatus = 'pending' | 'running' | 'paused' | 'completed' | 'failed' | 'cancelled'
export const JOB_STATUSES: JobStatus[] = ['pending', 'running', 'paused', 'completed', 'failed', 'cancelled']

export interface Progress {
  current_step: number
  total_steps: number | null
  epoch: number | null
  loss: number | null
  learning_rate: number | null
  elapsed_seconds: number | null
  eta_seconds: number | null
  last_checkpoint_step: number | null
  state: string
  message: string | null
}

export interface Job {
  id: string
  name: string
  algorithm: Algorithm | 'external'
  engine: string
  run_mode: string
  model_path: string
  dataset_paths: string[]
  eval_dataset_path: string | null
  params: Record<string, unknown>
  status: JobStatus
  requested_action: string | null
  allowed_actions: string[]
  output_dir: string
  error: string | null
  exit_code: number | null
  attempt: number
  created_at: string
  updated_at: string
  started_at: string | null
  finished_at: string | null
  progress: Progress | null
}

export interface JobEvent {
  id: number
  created_at: string
  kind: string
  from_status: JobStatus | null
  to_status: JobStatus | null
  message: string
}

export interface Checkpoint {
  name: string
  step: number | null
  path: string
  complete: boolean
  kind: string
  created_at: string
  size_bytes: number
}

export interface LogTail {
  stream: 'stdout' | 'stderr'
  lines: string[]
}

/** JSON Schema of one algorithm's parameters, as pydantic writes it. */
export interface JsonSchemaProperty {
  type?: string
  default?: unknown
  description?: string
  enum?: string[]
  minimum?: number
  maximum?: number
  exclusiveMinimum?: number
  exclusiveMaximum?: number
  anyOf?: JsonSchemaProperty[]
  $ref?: string
}

export interface ParamsSchema {
  properties: Record<string, JsonSchemaProperty>
  required?: string[]
  $defs?: Record<string, { properties: Record<string, JsonSchemaProperty> }>
}

/** The parts of the API's OpenAPI document that forms read: request bodies' JSON Schemas. */
export interface OpenApiDocument {
  components: { schemas: Record<string, ParamsSchema> }
}

export interface AlgorithmInfo {
  name: Algorithm
  engines: string[]
  params_schema: ParamsSchema
}

export interface RegisteredModel {
  id: string
  name: string
  path: string
  architecture: string
  num_parameters: number | null
  description: string
}

export interface SystemInfo {
  version: string
  home: string
  paths: Record<'jobs' | 'models' | 'datasets' | 'vectors', string>
  database: string
  run_modes: string[]
  engines: string[]
  packages: Record<string, string>
}

// ---- monitoring ----------------------------------------------------------------------------------------

/** NaN and ±Infinity travel as strings: JSON has no such numbers. */
export type WireNumber = number | 'NaN' | 'Infinity' | '-Infinity'

export interface Series {
  key: string
  steps: number[]
  values: WireNumber[]
  total_points: number
  downsampled: boolean
}

export interface MetricsResponse {
  job_id: string
  series: Series[]
}

export interface Anomaly {
  step: number
  kind: string
  message: string
}

export interface StatusMessage {
  type: 'status'
  data: {
    job_id: string
    status: JobStatus
    current_step: number
    total_steps: number | null
    anomaly_detected: boolean
    anomaly_reason: string | null
  }
}

export type GroupedRecord = { step: number; timestamp?: string } & Record<string, unknown>

export interface MetricMessage {
  type: 'metric'
  data: GroupedRecord
}

export type LiveMessage = MetricMessage | StatusMessage | { type: 'finished'; status: JobStatus }

export type PlaybackMessage =
  | { type: 'playback_info'; total_metrics: number; start_step: number | null; end_step: number | null; speed: number }
  | (MetricMessage & { progress: number; current_index: number; total: number })
  | { type: 'playback_complete'; total: number }

// ---- compute -------------------------------------------------------------------------------------------

export interface GpuInfo {
  name: string
  kind: string
  memory_bytes: number
  memory_gib: number
  note: string
}

export interface ModelPreset {
  name: string
  num_parameters: number
}

export type MemoryCategory = 'weights' | 'gradients' | 'optimizer' | 'activations' | 'rl_extra' | 'overhead'
export const MEMORY_CATEGORIES: MemoryCategory[] = ['weights', 'gradients', 'optimizer', 'activations', 'rl_extra', 'overhead']

export interface MemoryTerm {
  key: string
  category: MemoryCategory
  bytes: number
  formula: string
  explanation: string
}

export interface Estimate {
  model: ModelPreset
  gpu: GpuInfo
  per_gpu_bytes: Record<MemoryCategory | 'total', number>
  capacity_bytes: number
  fits: boolean
  peak_phase: string
  trainable_parameters: number
  cpu_offload_bytes: number
  terms: MemoryTerm[]
  explanations: Record<MemoryCategory, string>
  notes: string[]
  problems: string[]
}

export interface EstimateConfiguration {
  seq_len: number
  micro_batch: number
  num_gpus: number
  algorithm: Algorithm
  precision: string
  zero_stage: number
  offload_optimizer: boolean
  offload_params: boolean
  gradient_checkpointing: boolean
  attention: string
  lora_rank: number
  rollout_n: number
}

export interface Recommendation {
  fits: boolean
  algorithm: Algorithm
  global_batch: number
  reasons: string[]
  suggestions: string[]
  micro_batch?: number
  gradient_accumulation?: number
  step_seconds?: number
  configuration?: EstimateConfiguration
  estimate?: Estimate
  params?: Record<string, unknown>
  engine?: string
  verl_overrides?: string[]
  trl_arguments?: Record<string, unknown>
}
