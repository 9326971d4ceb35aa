// The shapes the API returns (see /docs), named for the UI: its OpenAPI document's schemas, from which `make web`
// generates schema.d.ts, and the few it does not describe (WebSocket messages, the parameter schemas' JSON Schema).
import type { components } from './schema'

type Schemas = components['schemas']

/** A union's members in the order the UI lists them; the compiler checks that none is missing or extra. */
export function membersOf<T extends string>(order: Record<T, true>): T[] {
  return Object.keys(order) as T[]
}

export type Algorithm = Schemas['Algorithm']
export const ALGORITHMS = membersOf<Algorithm>({ sft: true, dpo: true, grpo: true, gspo: true, ppo: true })
export type JobStatus = Schemas['JobStatus']
export const JOB_STATUSES = membersOf<JobStatus>({ pending: true, queued: true, running: true, paused: true, completed: true, failed: true, cancelled: true })

export type Job = Schemas['JobRead']
export type JobEvent = Schemas['JobEventRead']
export type Checkpoint = Schemas['CheckpointRead']
export type JobTask = Schemas['JobTaskRead']
export type LogTail = Schemas['LogTail']
export type RegisteredModel = Schemas['ModelRead']
export type SystemInfo = Schemas['SystemInfo']
export type Role = Schemas['Role']
/** The logged-in user: GET /auth/me (which also says how they authenticated), POST /auth/login's `user`. */
export type SessionUser = Schemas['SessionUser']
export type LoginAnswer = Schemas['LoginResult']
/** The body of POST /jobs as the form sends it, run mode included (one of GET /system's `run_modes`). */
export type JobCreateBody = Schemas['JobCreate']
/** A job's job file (GET /jobs/{job}/spec): the YAML that creates an identical job through POST /jobs/spec. */
export type JobFile = Schemas['JobFile']
/** What a job would run, before it exists (POST /jobs/preview): its engine's configuration and its command. */
export type JobPreview = Schemas['JobPreview']
/** A GRPO/GSPO job's rewards scored on right answers of a few dataset rows (POST /rewards/preview). */
export type RewardPreviewRequest = Schemas['RewardPreviewRequest']
export type RewardPreview = Schemas['RewardPreviewRead']
/** A GRPO/GSPO job's sample completions with their rewards, a step at a time (GET /jobs/{job}/samples). */
export type CompletionSamplesPage = Schemas['CompletionSamplesPage']
/** What an engine runs, and what of it this machine cannot run with the reason (GET /engines). */
export type EngineInfo = Schemas['EngineRead']

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

/** The API passes each algorithm's parameter schema on as it is, a JSON Schema that OpenAPI types as any object. */
export type AlgorithmInfo = Omit<Schemas['AlgorithmOut'], 'params_schema'> & { params_schema: ParamsSchema }

// ---- monitoring ----------------------------------------------------------------------------------------

/** NaN and ±Infinity travel as strings: JSON has no such numbers. */
export type WireNumber = number | 'NaN' | 'Infinity' | '-Infinity'

export type Series = Schemas['SeriesOut']
export type MetricsResponse = Schemas['MetricsOut']
export type Anomaly = Schemas['AnomalyOut']

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

export type GpuInfo = Schemas['GpuRead']
export type ModelPreset = Schemas['ModelPresetRead']
export type Estimate = Schemas['EstimateRead']
/** The API declares the configurator's algorithm as any string; it is the algorithm it was asked about. */
export type Recommendation = Omit<Schemas['RecommendationRead'], 'algorithm'> & { algorithm: Algorithm }

/** The parts of a GPU's memory, in the order the memory bar stacks them (an estimate's terms each name one). */
export type MemoryCategory = 'weights' | 'gradients' | 'optimizer' | 'activations' | 'rl_extra' | 'overhead'
export const MEMORY_CATEGORIES = membersOf<MemoryCategory>({
  weights: true,
  gradients: true,
  optimizer: true,
  activations: true,
  rl_extra: true,
  overhead: true,
})

// ---- training health and alerts ------------------------------------------------------------------------

export type HealthState = Job['health']
export type Severity = Schemas['FindingRead']['severity']
export type JobFinding = Schemas['FindingRead']
export type FindingText = Schemas['FindingText']
export type HealthReport = Schemas['HealthRead']
export type HealthSettings = Schemas['HealthSettings']
export type AlertFormat = Schemas['AlertTargetRead']['format']
export const ALERT_FORMATS = membersOf<AlertFormat>({ generic: true, slack: true, feishu: true })
export const SEVERITIES = membersOf<Severity>({ info: true, warning: true, critical: true })
export type AlertTarget = Schemas['AlertTargetRead']
export type AlertTargetCreate = Schemas['AlertTargetCreate']
export type AlertAttempt = Schemas['AttemptRead']
export type AlertDelivery = Schemas['DeliveryRead']

// ---- model surgery -------------------------------------------------------------------------------------

/** A model that can be chosen (GET /models/choices): registered, a job's final model, or one of its checkpoints. */
export type ModelChoice = Schemas['ModelChoice']
export type MergeMethod = Schemas['MergeMethodRead']
/** A request body with the fields the API has defaults for left out where the page keeps them. */
type Defaulted<T, K extends keyof T> = Omit<T, K> & Partial<Pick<T, K>>
/** The surgery requests as the page sends them: on the CPU (num_gpus 0), here (run mode local) and started at once,
 * the API's defaults. */
export type MergeRequest = Defaulted<Schemas['MergeRequest'], 'num_gpus' | 'start' | 'run_mode' | 'random_seed' | 'parameters'>
export type AverageRequest = Defaulted<Schemas['AverageRequest'], 'num_gpus' | 'start' | 'run_mode'>
export type LoraFoldRequest = Defaulted<Schemas['LoraFoldRequest'], 'num_gpus' | 'start' | 'run_mode'>
export type SelectRequest = Schemas['SelectRequest']
export type Selection = Schemas['SelectionRead']
export type SelectedCheckpoint = Schemas['SelectedCheckpoint']

/** A surgery result's lineage (its surgery.json), which the API passes on as an untyped object. */
export interface Lineage {
  operation: string
  inputs: { path: string; job_name?: string | null; step?: number | null; sha256: string }[]
  parameters: Record<string, unknown>
}

// ---- evaluation ----------------------------------------------------------------------------------------

export type EvalMetric = Schemas['MetricRead']
/** A target as the pages send it: the batch size and the endpoint's limits are the API's defaults. */
export type EvalTarget =
  | Defaulted<Schemas['ModelTargetRequest'], 'batch_size'>
  | Defaulted<Schemas['ApiTarget'], 'concurrency' | 'max_retries' | 'timeout_seconds'>
export type EvalRequest = Omit<
  Defaulted<Schemas['EvalRequest'], 'num_gpus' | 'start' | 'run_mode' | 'bootstrap_resamples' | 'confidence'>,
  'target'
> & { target: EvalTarget }
export type SweepRequest = Defaulted<
  Schemas['SweepRequest'],
  'num_gpus' | 'start' | 'run_mode' | 'bootstrap_resamples' | 'confidence' | 'batch_size' | 'include_final'
>
export type EvalMetricRequest = Schemas['MetricRequest']
export type GenerationSettings = Schemas['GenerationSettings']
export type EvalRun = Schemas['EvalRunRead']
export type EvalEstimate = Schemas['Estimate']
export type EvalSample = Schemas['SampleRecord']
export type SamplesPage = Schemas['SamplesPage']
export type CompareRequest = Defaulted<Schemas['CompareRequest'], 'offset' | 'limit'>
export type Comparison = Schemas['ComparisonRead']
export type SampleComparison = Schemas['SampleComparison']
export type Direction = SampleComparison['directions'][string]
export const DIRECTIONS = membersOf<Direction>({ improved: true, regressed: true, unchanged: true })
export type EvalCurve = Schemas['CurveRead']
export type Secret = Schemas['SecretRead']
export type ChatMessage = Schemas['ChatMessage']
/** POST /playground/chat's body as the page sends it. */
export type ChatRequest = Omit<Schemas['ChatRequest'], 'target' | 'generation'> & {
  target: EvalTarget
  generation: Schemas['ChatGeneration']
}

// ---- remote hosts --------------------------------------------------------------------------------------

export type Host = Schemas['HostRead']
/** POST /hosts's body: one credential (a password or a private key, with its passphrase if it has one). */
export type HostCreate = Schemas['HostCreate']
export type HostAuth = Host['auth']
export const HOST_AUTHS = membersOf<HostAuth>({ key: true, password: true })
export type HostReport = Schemas['HostReport']
export type HostTest = Schemas['HostTest']
/** A registered dataset's copy on a host. */
export type DatasetSync = Schemas['DatasetSync']
export type SyncState = DatasetSync['state']
export const SYNC_STATES = membersOf<SyncState>({ synced: true, syncing: true, not_synced: true, failed: true })

// ---- pipelines -----------------------------------------------------------------------------------------

export type PipelineStatus = Schemas['PipelineStatus']
export const PIPELINE_STATUSES = membersOf<PipelineStatus>({ draft: true, running: true, completed: true, failed: true, cancelled: true })
export type StageStatus = Schemas['StageStatus']
export const STAGE_STATUSES = membersOf<StageStatus>({
  pending: true,
  dispatched: true,
  running: true,
  completed: true,
  failed: true,
  cancelled: true,
  skipped: true,
})
export type StageType = Schemas['StageType']
export type PipelineSummary = Schemas['PipelineSummary']
export type Pipeline = Schemas['PipelineRead']
export type Stage = Schemas['StageRead']
export type StageWork = Schemas['WorkRead']
export type PipelineCheck = Schemas['PipelineCheck']
export type PipelineTemplate = Schemas['TemplateRead']
/** A stage type's parameters schema is a JSON Schema that OpenAPI types as any object. */
export type StageTypeInfo = Omit<Schemas['StageTypeRead'], 'params_schema'> & { params_schema: ParamsSchema }
