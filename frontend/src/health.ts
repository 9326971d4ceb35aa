// Training health in the browser: findings worst first, their text in the interface's language, and the metric keys
// of the health panels (per-layer gradient norms, system samples), as training_platform/diagnostics and
// training_platform/metrics/system.py name them.
import type { FindingText, HealthState, JobFinding, Severity } from './api/types'

export const SEVERITY_RANK: Record<Severity, number> = { info: 0, warning: 1, critical: 2 }
export const SEVERITY_TAGS = { info: 'info', warning: 'warning', critical: 'danger' } as const
// Unknown: the job logged no step yet, so no finding could have been made.
export const HEALTH_TAGS: Record<HealthState, 'success' | 'warning' | 'danger' | 'info'> = {
  healthy: 'success',
  warning: 'warning',
  critical: 'danger',
  unknown: 'info',
}
export const SEVERITY_COLORS: Record<Severity, string> = { info: '#909399', warning: '#e6a23c', critical: '#f56c6c' }

/** The kinds a finding can be (the detectors' and the log scan's), in the order the alert form lists them. */
export const FINDING_KINDS = [
  'non_finite',
  'kl_explosion',
  'reward_collapse',
  'grad_explosion',
  'grad_vanishing',
  'loss_plateau',
  'overfitting',
  'initial_loss',
  'slow_step',
  'throughput_drop',
  'oom',
  'nccl_timeout',
  'fatal_error',
]

/** Worst first, then earliest. */
export function sortFindings(findings: JobFinding[]): JobFinding[] {
  return [...findings].sort(
    (a, b) => SEVERITY_RANK[b.severity] - SEVERITY_RANK[a.severity] || a.first_step - b.first_step || a.id - b.id,
  )
}

/** The finding's message and suggestions in `locale`, else in English (every finding has those). */
export function findingText(finding: JobFinding, locale: string): FindingText {
  return finding.text[locale] ?? finding.text.en ?? { message: finding.kind, suggestions: [] }
}

/** The steps the charts show for a finding: some context either side of the steps it held. */
export const FOCUS_MARGIN = 20
export function focusRange(finding: JobFinding): [number, number] {
  return [Math.max(0, finding.first_step - FOCUS_MARGIN), finding.last_step + FOCUS_MARGIN]
}

// ---- per-layer gradient norms: grad_norm/layer/<name>, logged every N steps -----------------------------------

export const LAYER_PREFIX = 'grad_norm/layer/'

/**
 * Bottom to top as the model stacks them: the embeddings, the blocks in order (000, 001, …), the final norm, the
 * head, then any other name (the trainers' `other`: parameters of no layer; contract/metrics.layer_group).
 */
export function sortLayerKeys(keys: string[]): string[] {
  const GROUPS: Record<string, number> = { embed: 0, norm: 2, head: 3 }
  const rank = (name: string): [number, number, string] => {
    if (/^\d+$/.test(name)) return [1, Number(name), name]
    return [GROUPS[name] ?? 4, 0, name]
  }
  return [...keys].sort((a, b) => {
    const [ga, na, sa] = rank(a.slice(LAYER_PREFIX.length))
    const [gb, nb, sb] = rank(b.slice(LAYER_PREFIX.length))
    return ga - gb || na - nb || sa.localeCompare(sb)
  })
}

// ---- system samples: system/cpu_percent, system/rss_gib, system/gpu<i>/<name> ---------------------------------

export const SYSTEM_PREFIX = 'system/'
export const CPU_PERCENT = 'system/cpu_percent'
export const RSS_GIB = 'system/rss_gib'
export const GPU_SERIES = ['utilization', 'memory_gib', 'temperature_c'] as const
export type GpuSeries = (typeof GPU_SERIES)[number]

/** `system/gpu3/memory_gib` → { index: 3, name: 'memory_gib' }; null for any other key. */
export function parseGpuKey(key: string): { index: number; name: GpuSeries } | null {
  const match = /^system\/gpu(\d+)\/(\w+)$/.exec(key)
  if (!match || !(GPU_SERIES as readonly string[]).includes(match[2]!)) return null
  return { index: Number(match[1]), name: match[2] as GpuSeries }
}
