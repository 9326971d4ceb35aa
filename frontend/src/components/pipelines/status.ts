// How pipeline and stage statuses look: one colour per status, the same in the tags and in the drawn graph.
import type { PipelineStatus, StageStatus } from '../../api/types'

export type AnyStatus = PipelineStatus | StageStatus
type TagType = 'primary' | 'success' | 'info' | 'warning' | 'danger'

export const STATUS_TAGS: Record<AnyStatus, TagType> = {
  draft: 'info',
  pending: 'info',
  dispatched: 'warning',
  running: 'primary',
  completed: 'success',
  failed: 'danger',
  cancelled: 'info',
  skipped: 'info',
}

/** Element Plus's palette (its CSS variables are not readable inside an SVG's attributes everywhere). */
export const STATUS_COLOURS: Record<AnyStatus, { stroke: string; fill: string }> = {
  draft: { stroke: '#909399', fill: '#f4f4f5' },
  pending: { stroke: '#909399', fill: '#f4f4f5' },
  dispatched: { stroke: '#e6a23c', fill: '#fdf6ec' },
  running: { stroke: '#409eff', fill: '#ecf5ff' },
  completed: { stroke: '#67c23a', fill: '#f0f9eb' },
  failed: { stroke: '#f56c6c', fill: '#fef0f0' },
  cancelled: { stroke: '#73767a', fill: '#e9e9eb' },
  skipped: { stroke: '#b1b3b8', fill: '#ffffff' },
}

/** What a pipeline in this status allows. */
export const canStart = (status: PipelineStatus) => status === 'draft'
export const canResume = (status: PipelineStatus) => status === 'failed' || status === 'cancelled' || status === 'completed'
export const canCancel = (status: PipelineStatus) => status === 'running'
/** Editing and deleting: anything not running (the API answers 409 while it runs). */
export const canChangeDefinition = (status: PipelineStatus) => status !== 'running'
