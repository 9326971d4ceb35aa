// The metric record on the wire back to the platform's flat canonical keys (training_platform/contract/metrics.py is
// the other half of this mapping), and the charts the job pages draw of them.
import { reactive, watch } from 'vue'

import { api } from './api'
import type { AlgorithmInfo, GroupedRecord, WireNumber } from './api/types'
import { tOr } from './i18n'

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

// A chart the API declares for an algorithm (GET /algorithms); a `*` in a key stands for one part of a
// `/`-separated key (rewards/*/mean: one line per reward function).
export type ChartDeclaration = AlgorithmInfo['charts'][number]

/** A chart as a page draws it: the keys the job has. */
export interface ChartSpec {
  id: string
  /** In the interface's language; a chart the user added is titled with its key. */
  title: string
  keys: string[]
  /** Draw `<key>` ± `<spread>` as dashed bounds (reward mean ± std). */
  band?: { key: string; spread: string } | null
}

let declarations: Promise<Map<string, ChartDeclaration[]>> | null = null

/** Each algorithm's default charts, asked of the API once per page load. */
export function chartDeclarations(): Promise<Map<string, ChartDeclaration[]>> {
  declarations ??= api.algorithms().then((infos) => new Map(infos.map((info) => [info.name, info.charts])))
  declarations.catch(() => (declarations = null)) // asked again next time
  return declarations
}

/**
 * The algorithm's charts; for a run of no known algorithm (metrics imported from elsewhere), every algorithm's, one
 * chart per id: the first (the loss), then those only some algorithms have (DPO's margins, PPO's returns), then those
 * all of them have.
 */
export function chartsOf(algorithm: string, all: Map<string, ChartDeclaration[]>): ChartDeclaration[] {
  const own = all.get(algorithm)
  if (own) return own
  const lists = [...all.values()]
  const byId = new Map<string, ChartDeclaration>()
  for (const chart of lists.flat()) {
    const known = byId.get(chart.id)
    byId.set(chart.id, known ? { ...known, keys: [...new Set([...known.keys, ...chart.keys])] } : chart)
  }
  const [first, ...rest] = byId.values()
  const everywhere = (chart: ChartDeclaration) => lists.every((list) => list.some((item) => item.id === chart.id))
  return first ? [first, ...rest.filter((chart) => !everywhere(chart)), ...rest.filter(everywhere)] : []
}

function keyPattern(pattern: string): RegExp {
  const parts = pattern.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
  return new RegExp(`^${parts.join('[^/]+')}$`)
}

/** The declared charts that `keys` has data for, titled, with their patterns resolved to those keys. */
export function resolveCharts(declared: ChartDeclaration[], keys: string[]): ChartSpec[] {
  const specs: ChartSpec[] = []
  for (const chart of declared) {
    const matched = chart.keys.flatMap((pattern) =>
      pattern.includes('*') ? keys.filter((key) => keyPattern(pattern).test(key)) : keys.includes(pattern) ? [pattern] : [],
    )
    if (matched.length) specs.push({ id: chart.id, title: tOr(`charts.${chart.id}`, chart.id), keys: matched, band: chart.band })
  }
  return specs
}

const PREFERENCES_KEY = 'tplat.chartOptions'

/** How every metric chart draws its lines, the same on every page and remembered in this browser. */
export const chartOptions = reactive<{ smoothing: number; logScale: boolean }>({
  smoothing: 0,
  logScale: false,
  ...(JSON.parse(localStorage.getItem(PREFERENCES_KEY) ?? '{}') as object),
})
watch(chartOptions, (value) => localStorage.setItem(PREFERENCES_KEY, JSON.stringify(value)))

/** Runs one comparison overlays at most. */
export const MAX_COMPARED = 5

/** Keys no chart needs to offer: the step's timestamp and epoch. */
export const UNCHARTED_KEYS = new Set(['epoch', 'timestamp'])

/**
 * TensorBoard's smoothing: an exponential moving average, debiased so the first points are not pulled towards 0.
 * Gaps (NaN) stay gaps and do not move the average.
 */
export function smooth(values: number[], weight: number): number[] {
  if (weight <= 0) return values
  let average = 0
  let count = 0
  return values.map((value) => {
    if (!Number.isFinite(value)) return value
    average = average * weight + (1 - weight) * value
    count += 1
    return average / (1 - weight ** count)
  })
}

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
