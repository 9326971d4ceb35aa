// Every endpoint the UI uses, typed.
import { apiUrl, del, get, patch, post, request, upload, type Query } from './client'
import type {
  AlertAttempt,
  AlertDelivery,
  AlertTarget,
  AlertTargetCreate,
  AlgorithmInfo,
  Anomaly,
  AverageRequest,
  Checkpoint,
  DatasetSync,
  EngineInfo,
  CompareRequest,
  Comparison,
  EvalCurve,
  EvalMetric,
  EvalRequest,
  EvalRun,
  Estimate,
  GpuInfo,
  HealthReport,
  HealthSettings,
  Host,
  HostCreate,
  HostTest,
  Job,
  JobCreateBody,
  JobEvent,
  JobFile,
  JobPreview,
  RewardPreview,
  RewardPreviewRequest,
  CompletionSamplesPage,
  JobTask,
  LoginAnswer,
  LogTail,
  LoraFoldRequest,
  MergeMethod,
  MergeRequest,
  MetricsResponse,
  ModelChoice,
  ModelPreset,
  OpenApiDocument,
  Pipeline,
  PipelineCheck,
  PipelineSummary,
  PipelineTemplate,
  Recommendation,
  RegisteredModel,
  SamplesPage,
  Secret,
  SelectRequest,
  Selection,
  SessionUser,
  StageTypeInfo,
  SweepRequest,
  SystemInfo,
} from './types'
import type {
  AuditOptions,
  AuditTask,
  Dataset,
  DatasetKindInfo,
  DatasetStats,
  DatasetTask,
  DatasetUpdate,
  DetectRequest,
  DetectResult,
  FileTypes,
  LossPreview,
  LossTurns,
  RowsPage,
  SearchHit,
} from './datasets'

const job = (id: string) => `/jobs/${encodeURIComponent(id)}`
const monitoring = (id: string) => `/monitoring/${encodeURIComponent(id)}`
const dataset = (id: string) => `/datasets/${encodeURIComponent(id)}`
const evaluation = (run: string) => `/evaluations/${encodeURIComponent(run)}`
const alertTarget = (id: string) => `/alerts/targets/${encodeURIComponent(id)}`
const host = (name: string) => `/hosts/${encodeURIComponent(name)}`
const pipeline = (name: string) => `/pipelines/${encodeURIComponent(name)}`

export const api = {
  login: (username: string, password: string) => post<LoginAnswer>('/auth/login', { username, password }),
  logout: () => post<void>('/auth/logout'),
  me: () => get<SessionUser>('/auth/me'),

  system: () => get<SystemInfo>('/system'),
  openapi: () => request<OpenApiDocument>('GET', '/openapi.json'),
  algorithms: () => get<AlgorithmInfo[]>('/algorithms'),
  datasetKinds: () => get<DatasetKindInfo[]>('/datasets/kinds'),
  fileTypes: () => get<FileTypes>('/datasets/file-types'),
  models: () => get<RegisteredModel[]>('/models'),
  model: (name: string) => get<RegisteredModel>(`/models/${encodeURIComponent(name)}`),
  modelChoices: () => get<ModelChoice[]>('/models/choices'),

  mergeMethods: () => get<MergeMethod[]>('/surgery/methods'),
  merge: (body: MergeRequest) => post<Job>('/surgery/merge', body),
  average: (body: AverageRequest) => post<Job>('/surgery/average', body),
  loraFold: (body: LoraFoldRequest) => post<Job>('/surgery/lora-fold', body),
  selectCheckpoint: (body: SelectRequest) => post<Selection>('/surgery/select', body),

  evalMetrics: () => get<EvalMetric[]>('/evaluations/metrics'),
  evalRuns: () => get<EvalRun[]>('/evaluations'),
  evalRun: (run: string) => get<EvalRun>(evaluation(run)),
  createEvalRun: (body: EvalRequest) => post<Job>('/evaluations', body),
  sweep: (body: SweepRequest) => post<Job[]>('/evaluations/sweep', body),
  evalSamples: (run: string, query: { offset: number; limit: number; category?: string | null; search?: string | null }) =>
    get<SamplesPage>(`${evaluation(run)}/samples`, query),
  compare: (body: CompareRequest) => post<Comparison>('/evaluations/compare', body),
  evalCurve: (jobName: string) => get<EvalCurve>(`/evaluations/curve/${encodeURIComponent(jobName)}`),
  secrets: () => get<Secret[]>('/secrets'),
  putSecret: (name: string, value: string) => post<Secret>('/secrets', { name, value }),

  engines: () => get<EngineInfo[]>('/engines'),
  jobs: (status: string[] = []) => get<Job[]>('/jobs', { status, limit: 1000 }),
  job: (id: string) => get<Job>(job(id)),
  createJob: (body: JobCreateBody) => post<Job>('/jobs', body),
  /** What the job would run, checked as createJob checks it (the same 422); nothing is created. */
  previewJob: (body: JobCreateBody) => post<JobPreview>('/jobs/preview', body),
  /** The rewards scored on a few rows with right answers as the completions; warns when all would score 0. */
  previewRewards: (body: RewardPreviewRequest) => post<RewardPreview>('/rewards/preview', body),
  /** One sampled step's completions with their rewards (the latest unless `step` is given). */
  jobSamples: (id: string, query: { step?: number; offset?: number; limit?: number }) =>
    get<CompletionSamplesPage>(`${job(id)}/samples`, query),
  /** The YAML that creates this job again; 409 for a run that is not a training job (a surgery run, an evaluation). */
  jobFile: (id: string) => get<JobFile>(`${job(id)}/spec`),
  /** A job from a job file, under `name` instead of the file's when given; a 422's errors carry their YAML line. */
  createJobFromFile: (text: string, name: string | null, start: boolean) => post<Job>('/jobs/spec', { text, name, start }),
  jobAction: (id: string, action: string) => post<Job>(`${job(id)}/${action}`),
  deleteJob: (id: string) => del(job(id)),
  events: (id: string) => get<JobEvent[]>(`${job(id)}/events`),
  checkpoints: (id: string) => get<Checkpoint[]>(`${job(id)}/checkpoints`),
  /** Writes the checkpoint as a Hugging Face model directory: a task whose result names the directory. */
  exportCheckpoint: (id: string, checkpoint: string) =>
    post<JobTask>(`${job(id)}/checkpoints/${encodeURIComponent(checkpoint)}/export`),
  jobTask: (id: string, task: string) => get<JobTask>(`${job(id)}/tasks/${task}`),
  logs: (id: string, stream: string, lines: number, contains: string) =>
    get<LogTail>(`${job(id)}/logs`, { stream, lines, contains }),
  logDownloadUrl: (id: string, stream: string) => `/api/v1${job(id)}/logs/download?stream=${stream}`,

  metrics: (id: string, query: { keys?: string[]; start_step?: number; end_step?: number; max_points?: number }) =>
    get<MetricsResponse>(`${monitoring(id)}/metrics`, { ...query, keys: query.keys?.join(',') } as Query),
  anomalies: (id: string) => get<Anomaly[]>(`${monitoring(id)}/metrics/anomalies`),
  metricsExportUrl: (id: string, format: 'csv' | 'parquet') => `/api/v1${monitoring(id)}/metrics/export?format=${format}`,

  healthDefaults: () => get<HealthSettings>('/health/defaults'),
  health: (id: string) => get<HealthReport>(`${job(id)}/health`),
  diagnose: (id: string) => post<HealthReport>(`${job(id)}/diagnose`),

  alertTargets: () => get<AlertTarget[]>('/alerts/targets'),
  createAlertTarget: (body: AlertTargetCreate) => post<AlertTarget>('/alerts/targets', body),
  deleteAlertTarget: (id: string) => del(alertTarget(id)),
  testAlertTarget: (id: string) => post<AlertAttempt>(`${alertTarget(id)}/test`),
  alertDeliveries: (id: string, limit = 50) => get<AlertDelivery[]>(`${alertTarget(id)}/deliveries`, { limit }),

  hosts: () => get<Host[]>('/hosts'),
  createHost: (body: HostCreate) => post<Host>('/hosts', body),
  deleteHost: (name: string) => del(host(name)),
  testHost: (name: string) => post<HostTest>(`${host(name)}/test`),
  trustHost: (name: string) => post<HostTest>(`${host(name)}/trust`),
  hostDatasets: (name: string) => get<DatasetSync[]>(`${host(name)}/datasets`),
  /** Starts copying one dataset (its name or id), or every dataset, to the host; the states come back at once. */
  syncDatasets: (name: string, dataset: string | null = null) =>
    post<DatasetSync[]>(`${host(name)}/datasets/sync`, dataset === null ? {} : { dataset }),

  stageTypes: () => get<StageTypeInfo[]>('/pipelines/stage-types'),
  pipelineTemplates: () => get<PipelineTemplate[]>('/pipelines/templates'),
  /** Every problem of a YAML definition at once (a 422 whose errors carry their YAML line and stage), or its layers. */
  validatePipeline: (text: string) => post<PipelineCheck>('/pipelines/validate', { text }),
  createPipeline: (text: string, start: boolean) => post<Pipeline>('/pipelines', { text, start }),
  pipelines: () => get<PipelineSummary[]>('/pipelines'),
  pipeline: (name: string) => get<Pipeline>(pipeline(name)),
  /** A new definition for a pipeline that is not running; finished stages whose parameters changed become `edited`. */
  updatePipeline: (name: string, text: string) => request<Pipeline>('PUT', apiUrl(pipeline(name)), { text }),
  startPipeline: (name: string) => post<Pipeline>(`${pipeline(name)}/start`),
  /** Runs the failed, cancelled and pending stages again, and the finished ones named in `rerun` (with what follows them). */
  resumePipeline: (name: string, rerun: string[]) => post<Pipeline>(`${pipeline(name)}/resume`, { rerun }),
  cancelPipeline: (name: string) => post<Pipeline>(`${pipeline(name)}/cancel`),
  deletePipeline: (name: string) => del(pipeline(name)),

  gpus: () => get<GpuInfo[]>('/compute/gpus'),
  modelPresets: () => get<ModelPreset[]>('/compute/models'),
  recommend: (body: Record<string, unknown>) => post<Recommendation>('/compute/recommend', body),
  estimate: (body: Record<string, unknown>) => post<Estimate>('/compute/estimate', body),

  datasets: (kind: string | null = null) => get<Dataset[]>('/datasets', { kind }),
  dataset: (id: string) => get<Dataset>(dataset(id)),
  uploadDataset: (query: Query, file: File, onProgress: (fraction: number) => void) =>
    upload<Dataset>('/datasets/upload', query, file, onProgress),
  updateDataset: (id: string, body: DatasetUpdate) => patch<Dataset>(dataset(id), body),
  deleteDataset: (id: string) => del(dataset(id)),
  versions: (id: string) => get<Dataset[]>(`${dataset(id)}/versions`),
  detectFormat: (body: DetectRequest) => post<DetectResult>('/datasets/detect', body),
  /** `normalised`: the rows in the platform's shape, through the dataset's format preset (as the engines get them). */
  rows: (id: string, offset: number, limit: number, normalised = false) =>
    get<RowsPage>(`${dataset(id)}/rows`, { offset, limit, normalised: normalised || null }),
  preview: (id: string, row: number, tokenizer: string, trainOn: LossTurns | null = null) =>
    get<LossPreview>(`${dataset(id)}/rows/${row}/preview`, { tokenizer, train_on: trainOn }),
  stats: (id: string, tokenizer: string | null, bins: number) =>
    get<DatasetStats>(`${dataset(id)}/stats`, { tokenizer, bins }),
  startAudit: (id: string, options: AuditOptions) => post<DatasetTask>(`${dataset(id)}/audit`, options),
  startIndex: (id: string) => post<DatasetTask>(`${dataset(id)}/index`),
  indexState: (id: string) => get<{ ready: boolean }>(`${dataset(id)}/index`),
  search: (id: string, query: string, topK: number) =>
    post<SearchHit[]>(`${dataset(id)}/search`, { query, top_k: topK }),
  startDedup: (id: string, body: { method: string; threshold: number | null; name: string | null }) =>
    post<DatasetTask>(`${dataset(id)}/dedup`, body),
  tasks: (id: string) => get<DatasetTask[]>(`${dataset(id)}/tasks`),
  task: (id: string, task: string) => get<AuditTask>(`${dataset(id)}/tasks/${encodeURIComponent(task)}`),
  reportUrl: (report: string) => `/api/v1/datasets/reports/${encodeURIComponent(report)}`,
}
