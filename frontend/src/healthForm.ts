// The new-job form's health section: the automatic actions and the detectors' main settings, filled from the
// server's defaults (GET /health/defaults) and sent back whole as the job's `health` (training_platform/contract/health.py).
import type { HealthSettings } from './api/types'
import { fromFormValue, toFormValue, type FormValue } from './jobForm'

export type DetectorName = keyof HealthSettings['detectors']
export type ActionName = keyof HealthSettings['actions']

/** Each detector's settings the form offers besides `enabled`, the ones a run is most often tuned by. */
export const DETECTOR_THRESHOLDS: Record<DetectorName, string[]> = {
  non_finite: [],
  kl_explosion: ['ceiling', 'max_ceiling', 'jump_factor'],
  reward_collapse: ['std_floor', 'std_steps', 'drop_fraction'],
  grad_explosion: ['ceiling', 'steps'],
  grad_vanishing: ['floor', 'steps'],
  loss_plateau: ['window', 'min_improvement'],
  overfitting: ['rises', 'min_rise'],
  initial_loss: ['within_steps'],
  slow_step: ['factor', 'min_excess_seconds'],
  throughput_drop: ['fraction', 'steps'],
  log_lines: [],
}
export const DETECTORS = Object.keys(DETECTOR_THRESHOLDS) as DetectorName[]
export const ACTION_SWITCHES: ActionName[] = ['pause_on_non_finite', 'lower_lr_on_grad_explosion', 'save_on_best', 'stop_on_overfitting']

export interface HealthForm {
  /** The server's defaults, which what the form leaves alone keeps. */
  defaults: HealthSettings | null
  actions: Record<string, FormValue>
  detectors: Record<string, Record<string, FormValue>>
  layer_grad_norms_every: FormValue
}

export function healthForm(defaults: HealthSettings | null): HealthForm {
  const detectors: Record<string, Record<string, FormValue>> = {}
  for (const name of DETECTORS) {
    const settings = (defaults?.detectors[name] ?? {}) as Record<string, unknown>
    detectors[name] = Object.fromEntries(['enabled', ...DETECTOR_THRESHOLDS[name]].map((field) => [field, toFormValue(settings[field])]))
  }
  const actions = Object.fromEntries(Object.entries(defaults?.actions ?? {}).map(([name, value]) => [name, toFormValue(value)]))
  return { defaults, actions, detectors, layer_grad_norms_every: toFormValue(defaults?.layer_grad_norms_every ?? '') }
}

/** Numbers as numbers; text that is not one goes as it is, and the API's message says what is wrong with it. */
function value(typed: FormValue): unknown {
  return fromFormValue(typed, { kind: 'number', nullable: true, options: [], default: null, description: '' })
}

/** The job's `health`: the defaults with what the form changed; null when the defaults could not be read. */
export function healthBody(form: HealthForm): HealthSettings | null {
  if (!form.defaults) return null
  const detectors = Object.fromEntries(
    DETECTORS.map((name) => {
      const typed = Object.fromEntries(Object.entries(form.detectors[name]!).map(([field, given]) => [field, value(given)]))
      return [name, { ...form.defaults!.detectors[name], ...typed }]
    }),
  )
  const actions = Object.fromEntries(Object.entries(form.actions).map(([name, given]) => [name, value(given)]))
  return {
    detectors: detectors as HealthSettings['detectors'],
    actions: { ...form.defaults.actions, ...actions } as HealthSettings['actions'],
    layer_grad_norms_every: value(form.layer_grad_norms_every) as number,
  }
}

/** The form items' fields as the API names them in its errors. */
export function healthFields(): string[] {
  return [
    'health.layer_grad_norms_every',
    ...ACTION_SWITCHES.map((name) => `health.actions.${name}`),
    'health.actions.lr_factor',
    ...DETECTORS.flatMap((name) => [`health.detectors.${name}`, ...DETECTOR_THRESHOLDS[name].map((field) => `health.detectors.${name}.${field}`)]),
  ]
}
