// The metric record on the wire back to the platform's flat canonical keys, and the
// charts the job page shows (training_platform/contract/metrics.py is the other half of this mapping).
import type { GroupedRecord, WireNumber } from './api/types'

const GROUPED_TO_CANONICAL: Record<string, Record<string, string>> = {
  loss: { total_loss: 'loss', actor_loss: 'policy_loss', critic_loss: 'value_loss' },
  gradient: { actor_norm: 'grad_norm', critic_norm: 'critic_grad_norm' },
  reward: { mean: 'reward_mean', std: 'reward_std', min: 'reward_min', max: 'reward_max' },
  kl: { mean: 'kl', max: 'kl_max' },
  performance: { tokens_per_second: 'tokens_per_second', step_time: 'step_time', gpu_memory_allocated: 'gpu_memory_gib' },
  eval: { loss: 'eval_loss', accuracy: 'eval_accuracy' },
}
const NOT_CHARTED = new Set(['step', 'timestamp'])

export function parseWireNumber(value: WireNumber | unknown): number | null {
  if (typeof value === 'number') return value
  if (value === 'NaN') return Number.NaN
  if (value === 'Infinity') return Number.POSITIVE_INFINITY
  if (value === '-Infinity') return Number.NEGATIVE_INFINITY
  return null
}

/** `{"step": 3, "loss": {"total_loss": 2.1}, "custom": {"foo": 1}}` → `{loss: 2.1, foo: 1}`. */
export function flattenRecord(record: GroupedRecord): Record<string, number> {
  const values: Record<string, number> = {}
  for (const [key, value] of Object.entries(record)) {
    if (NOT_CHARTED.has(key)) continue
    if (value !== null && typeof value === 'object') {
      const names = GROUPED_TO_CANONICAL[key] ?? {}
      for (const [inner, innerValue] of Object.entries(value as Record<string, unknown>)) {
        const number = parseWireNumber(innerValue)
        if (number !== null) values[key === 'custom' ? inner : (names[inner] ?? inner)] = number
      }
    } else {
      const number = parseWireNumber(value)
      if (number !== null) values[key] = number
    }
  }
  return values
}

export interface ChartSpec {
  id: string
  /** i18n key of the title, or the metric key itself for charts the user added. */
  title: string
  keys: string[]
  /** Draw `<key>` ± `<band>` as dashed bounds (reward mean ± std). */
  band?: { key: string; spread: string }
  logScale?: boolean
}

/** The standard charts; each appears once the job has logged one of its keys. */
export const STANDARD_CHARTS: ChartSpec[] = [
  { id: 'loss', title: 'charts.loss', keys: ['loss', 'policy_loss', 'value_loss', 'eval_loss'] },
  { id: 'reward', title: 'charts.reward', keys: ['reward_mean', 'reward_min', 'reward_max'], band: { key: 'reward_mean', spread: 'reward_std' } },
  { id: 'kl', title: 'charts.kl', keys: ['kl', 'kl_max'] },
  { id: 'entropy', title: 'charts.entropy', keys: ['entropy'] },
  { id: 'learning_rate', title: 'charts.learningRate', keys: ['learning_rate'] },
  { id: 'grad_norm', title: 'charts.gradNorm', keys: ['grad_norm', 'critic_grad_norm'] },
  { id: 'throughput', title: 'charts.throughput', keys: ['tokens_per_second'] },
  { id: 'step_time', title: 'charts.stepTime', keys: ['step_time'] },
  { id: 'memory', title: 'charts.memory', keys: ['gpu_memory_gib'] },
  { id: 'eval_accuracy', title: 'charts.evalAccuracy', keys: ['eval_accuracy'] },
]

/** Keys the standard charts show (reward_std through its band); the others can be added as charts of their own. */
export const STANDARD_KEYS = new Set([...STANDARD_CHARTS.flatMap((chart) => chart.keys), 'reward_std', 'epoch', 'timestamp'])

/**
 * Points of one series, steps ascending. NaN and ±Infinity are kept out of `values` (a chart cannot scale to
 * Infinity): they are stored as NaN, which draws as a gap, and remembered in `flags` so the chart can mark them.
 */
export class SeriesData {
  steps: number[] = []
  values: number[] = []
  flags = new Map<number, string>()

  get last(): number | undefined {
    return this.steps[this.steps.length - 1]
  }

  private clean(step: number, value: number): number {
    if (Number.isFinite(value)) {
      this.flags.delete(step)
      return value
    }
    this.flags.set(step, Number.isNaN(value) ? 'NaN' : value > 0 ? '+Inf' : '-Inf')
    return Number.NaN
  }

  /** Live points arrive in order; a step already present (a resumed run logging again) replaces the old value. */
  push(step: number, value: number): void {
    const clean = this.clean(step, value)
    const last = this.last
    if (last === undefined || step > last) {
      this.steps.push(step)
      this.values.push(clean)
      return
    }
    const index = lowerBound(this.steps, step)
    if (this.steps[index] === step) this.values[index] = clean
    else {
      this.steps.splice(index, 0, step)
      this.values.splice(index, 0, clean)
    }
  }

  /** These points replace whatever this series had between their first and last step (a zoomed-in detail query). */
  splice(steps: number[], values: number[]): void {
    if (!steps.length) return
    const first = steps[0]!
    const lastStep = steps[steps.length - 1]!
    for (const step of [...this.flags.keys()]) if (step >= first && step <= lastStep) this.flags.delete(step)
    const cleaned = values.map((value, index) => this.clean(steps[index]!, value))
    const from = lowerBound(this.steps, first)
    const to = lowerBound(this.steps, lastStep + 1)
    this.steps = this.steps.slice(0, from).concat(steps, this.steps.slice(to))
    this.values = this.values.slice(0, from).concat(cleaned, this.values.slice(to))
  }
}

export function lowerBound(sorted: number[], value: number): number {
  let low = 0
  let high = sorted.length
  while (low < high) {
    const middle = (low + high) >> 1
    if (sorted[middle]! < value) low = middle + 1
    else high = middle
  }
  return low
}
