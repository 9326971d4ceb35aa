// The new-job form's state: the chosen algorithm's parameters as its schema (GET /algorithms) describes them, filled
// with its defaults or with what the compute configurator recommended, and turned into the body of POST /jobs.
import { computed, onMounted, reactive, ref, watch } from 'vue'

import { api } from '../api'
import type { Dataset } from '../api/datasets'
import { ALGORITHMS, type Algorithm, type AlgorithmInfo, type EngineInfo, type HealthSettings, type JobCreateBody, type ModelChoice, type SystemInfo } from '../api/types'
import { messageOf } from '../errors'
import { i18n } from '../i18n'
import { useLinkedModel } from './useLinkedModel'
import { healthBody, healthFields, healthForm } from '../healthForm'
import {
  defaultValues,
  definitionFields,
  engineSettingsText,
  fieldsOf,
  fromFormValue,
  loraBody,
  parseEngineSettings,
  rewardBody,
  toFormValue,
  type FieldInfo,
  type FormValue,
  type JobBasics,
  type JobDraft,
  type LoraForm,
  type RewardForm,
} from '../jobForm'

/** Parameters with inputs of their own kind: the length (epochs or steps), LoRA's card, the rewards' editor. */
const NOT_PLAIN = ['algorithm', 'lora', 'rewards', 'num_epochs', 'max_steps']

export function useJobForm(draft: JobDraft | null) {
  const algorithms = ref<AlgorithmInfo[]>([])
  /** What each engine runs, and what of it this machine cannot run, with why (GET /engines). */
  const engines = ref<EngineInfo[]>([])
  const choices = ref<ModelChoice[]>([])
  const datasets = ref<Dataset[]>([])
  /** Where jobs can run here (GET /system): local, ray, and ssh:<host> for each host an admin added. */
  const runModes = ref<string[]>([])
  /** The GPUs local jobs are given here (GET /system); none: they train on the CPU. */
  const gpus = ref<number[]>([])
  const loading = ref(true)
  const failure = ref('')

  const basics = reactive<JobBasics>({
    name: '',
    algorithm: draft?.algorithm ?? 'sft',
    engine: draft?.engine ?? 'trl',
    model_path: draft?.model_path ?? useLinkedModel(),
    dataset_paths: [] as string[],
    eval_dataset_path: '',
    run_mode: 'local',
    lengthMode: 'epochs',
    num_epochs: '1',
    max_steps: '',
    start: true,
  })
  const params = ref<Record<string, FormValue>>({})
  const lora = ref<LoraForm>({ enabled: false, values: {} })
  const rewards = ref<RewardForm[]>([])
  const health = ref(healthForm(null))
  /** The engine settings card's `key: value` lines, pre-filled with what the configurator chose. */
  const engineSettings = ref(engineSettingsText(draft?.engine_settings ?? {}))
  const parsedEngineSettings = computed(() => parseEngineSettings(engineSettings.value))

  const info = computed(() => algorithms.value.find((a) => a.name === basics.algorithm))
  const schema = computed(() => info.value?.params_schema)
  const fields = computed<Record<string, FieldInfo>>(() => (schema.value ? fieldsOf(schema.value) : {}))
  const loraFields = computed(() => definitionFields(schema.value, 'LoraParams'))
  const rewardFields = computed(() => definitionFields(schema.value, 'RewardSpec'))
  const isRuleReward = computed(() => 'rewards' in fields.value)

  /** Why this machine cannot run an algorithm, for each one that no engine here can run: its engines' reasons. */
  const unavailableAlgorithms = computed(() => {
    const reasons: Partial<Record<Algorithm, string>> = {}
    for (const algorithm of ALGORITHMS) {
      const capable = engines.value.filter((engine) => engine.algorithms.includes(algorithm))
      if (!capable.length || capable.some((engine) => engine.runnable_here.includes(algorithm))) continue
      reasons[algorithm] = capable
        .flatMap((engine) => engine.unavailable_here.filter((item) => item.algorithm === algorithm).map((item) => item.message))
        .join(' ')
    }
    return reasons
  })
  /** Why this machine cannot run the chosen algorithm with an engine that runs it elsewhere, by engine. */
  const unavailableEngines = computed<Record<string, string>>(() =>
    Object.fromEntries(
      engines.value.flatMap((engine) =>
        engine.unavailable_here.filter((item) => item.algorithm === basics.algorithm).map((item) => [engine.name, item.message]),
      ),
    ),
  )

  /** Fresh values for the chosen algorithm: its schema's defaults, then what the configurator recommended. */
  function resetParams(): void {
    if (!schema.value) return
    const values = defaultValues(fields.value)
    for (const name of NOT_PLAIN) delete values[name]
    lora.value = { enabled: false, values: defaultValues(loraFields.value) }
    rewards.value = [defaultValues(rewardFields.value)]
    if (draft && draft.algorithm === basics.algorithm) {
      for (const [name, value] of Object.entries(draft.params)) {
        if (name === 'lora' && value && typeof value === 'object') {
          lora.value.enabled = true
          for (const [setting, given] of Object.entries(value)) {
            if (setting in lora.value.values) lora.value.values[setting] = toFormValue(given)
          }
        } else if (name === 'max_steps' && typeof value === 'number') {
          // The duration the configurator sized (its samples, in steps): the length field in steps.
          basics.lengthMode = 'steps'
          basics.max_steps = String(value)
        } else if (name in values) {
          values[name] = toFormValue(value)
        }
      }
    }
    params.value = values
    // An engine that runs the algorithm here; the configurator's choice stays (its engine settings are that
    // engine's), with why this server cannot run it where it cannot.
    const drafted = draft?.algorithm === basics.algorithm && draft.engine === basics.engine
    const runnable = (info.value?.engines ?? []).filter((engine) => !(engine in unavailableEngines.value))
    if (!drafted && !runnable.includes(basics.engine)) basics.engine = runnable.includes('trl') ? 'trl' : (runnable[0] ?? 'trl')
  }

  watch(() => basics.algorithm, resetParams)
  // The server writes why it cannot run something in the interface's language: asked again when that changes.
  watch(
    () => i18n.global.locale.value,
    async () => {
      try {
        engines.value = await api.engines()
      } catch (error) {
        failure.value = messageOf(error)
      }
    },
  )

  onMounted(async () => {
    try {
      let defaults: HealthSettings
      let system: SystemInfo
      ;[algorithms.value, engines.value, choices.value, datasets.value, defaults, system] = await Promise.all([
        api.algorithms(),
        api.engines(),
        api.modelChoices(),
        api.datasets(),
        api.healthDefaults(),
        api.system(),
      ])
      health.value = healthForm(defaults)
      runModes.value = system.run_modes
      gpus.value = system.gpus
      if (!runModes.value.includes(basics.run_mode)) basics.run_mode = runModes.value[0] ?? 'local'
      resetParams()
    } catch (error) {
      failure.value = messageOf(error)
    } finally {
      loading.value = false
    }
  })

  function body(): JobCreateBody {
    const values: Record<string, unknown> = {}
    for (const [name, value] of Object.entries(params.value)) {
      const converted = fromFormValue(value, fields.value[name])
      if (converted !== null) values[name] = converted
    }
    if (basics.lengthMode === 'epochs') values.num_epochs = fromFormValue(basics.num_epochs, fields.value.num_epochs)
    else values.max_steps = fromFormValue(basics.max_steps, fields.value.max_steps)
    const loraValue = loraBody(lora.value, loraFields.value)
    if (loraValue) values.lora = loraValue
    if (isRuleReward.value) values.rewards = rewards.value.map((reward) => rewardBody(reward, rewardFields.value))
    const healthValue = healthBody(health.value)
    return {
      name: basics.name.trim(),
      algorithm: basics.algorithm,
      engine: basics.engine,
      model_path: basics.model_path.trim(),
      dataset_paths: basics.dataset_paths,
      eval_dataset_path: basics.eval_dataset_path.trim() || null,
      params: values,
      run_mode: basics.run_mode,
      ...(healthValue ? { health: healthValue } : {}),
      engine_settings: parsedEngineSettings.value.settings as JobCreateBody['engine_settings'],
      start: basics.start,
    }
  }

  /** Every form item's field, as the API names fields in its errors. */
  const formFields = computed(() => [
    'name',
    'algorithm',
    'engine',
    'model_path',
    'dataset_paths',
    'eval_dataset_path',
    'run_mode',
    'params.num_epochs',
    'params.max_steps',
    ...Object.keys(loraFields.value).map((name) => `params.lora.${name}`),
    'params.rewards',
    ...rewards.value.flatMap((_, index) => [
      `params.rewards.${index}`,
      ...Object.keys(rewardFields.value).map((name) => `params.rewards.${index}.${name}`),
    ]),
    ...Object.keys(params.value).map((name) => `params.${name}`),
    ...healthFields(),
    'engine_settings',
    ...Object.keys(parsedEngineSettings.value.settings).map((key) => `engine_settings.${key}`),
  ])

  return {
    choices,
    datasets,
    runModes,
    gpus,
    loading,
    failure,
    basics,
    params,
    lora,
    rewards,
    health,
    engineSettings,
    parsedEngineSettings,
    info,
    unavailableAlgorithms,
    unavailableEngines,
    fields,
    loraFields,
    rewardFields,
    isRuleReward,
    body,
    formFields,
  }
}
