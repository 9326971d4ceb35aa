// The datasets API's shapes (training_platform/datasets/schemas.py, stats.py, preview.py, audit.py).

export type DatasetKind = 'sft' | 'dpo' | 'grpo' | 'gspo' | 'ppo' | 'eval'
export const DATASET_KINDS: DatasetKind[] = ['sft', 'dpo', 'grpo', 'gspo', 'ppo', 'eval']

/** The platform's fields per kind, which `field_mapping` may point at other columns. */
export const KIND_FIELDS: Record<DatasetKind, string[]> = {
  sft: ['prompt', 'response', 'messages'],
  dpo: ['prompt', 'chosen', 'rejected'],
  grpo: ['prompt', 'data_source', 'solution'],
  gspo: ['prompt', 'data_source', 'solution'],
  ppo: ['prompt', 'data_source'],
  eval: ['prompt', 'reference', 'category'],
}

export interface Dataset {
  id: string
  name: string
  path: string
  kind: DatasetKind
  file_format: string
  num_rows: number
  num_invalid: number
  size_bytes: number
  description: string
  source: string
  original_filename: string | null
  columns: string[]
  field_mapping: Record<string, string>
  label_fields: string[]
  parent_id: string | null
  version: number
  derivation: string
  created_at: string
}

export type TaskKind = 'audit' | 'index' | 'dedup'
export type TaskStatus = 'queued' | 'running' | 'completed' | 'failed'

export interface DatasetTask {
  id: string
  dataset_id: string
  kind: TaskKind
  status: TaskStatus
  progress: number
  message: string
  params: Record<string, unknown>
  result: Record<string, unknown> | null
  error: string | null
  created_at: string
  finished_at: string | null
}

export type FindingKind =
  | 'format_error'
  | 'empty_field'
  | 'exact_duplicate'
  | 'near_duplicate'
  | 'semantic_duplicate'
  | 'length_outlier'

export interface Finding {
  kind: FindingKind
  message: string
  rows: number[]
  field: string | null
}

export interface AuditTask extends DatasetTask {
  findings: Finding[] | null
  findings_total: number | null
}

export interface AuditOptions {
  near_duplicates: boolean
  near_threshold: number
  semantic: boolean
  semantic_threshold: number
  tokenizer: string | null
}

export interface DatasetRow {
  row: number
  data: Record<string, unknown> | null
  problem: string | null
}

export interface RowsPage {
  total: number
  offset: number
  rows: DatasetRow[]
}

export interface LossSpan {
  text: string
  loss: boolean
}

export interface LossSequence {
  name: string
  text: string
  spans: LossSpan[]
  num_tokens: number
  loss_tokens: number
  truncated: boolean
  dropped: boolean
}

export interface LossPreview {
  row: number
  kind: string
  tokenizer: string
  chat_template: boolean
  max_length: number
  sequences: LossSequence[]
}

export interface LengthStats {
  field: string
  count: number
  min: number
  max: number
  mean: number
  p50: number
  p90: number
  p99: number
  histogram: { edges: number[]; counts: number[] }
}

export interface DatasetStats {
  num_rows: number
  readable_rows: number
  tokenizer: string
  columns: { name: string; dtype: string; nulls: number; null_rate: number; blanks: number }[]
  labels: { field: string; distinct: number; values: { value: string | null; count: number; share: number }[]; other_count: number }[]
  lengths: LengthStats[]
}

export interface SearchHit {
  row: number
  score: number
  text: string
}
