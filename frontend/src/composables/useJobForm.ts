// The new-job form's state: the chosen algorithm's parameters as its schema (GET /algorithms) describes them, filled
// with its defaults or with what the compute configurator recommended, and turned into the body of POST /jobs.
import { computed, onMounted, reactive, ref, watch } from 'vue'

import { api } from '../api'
import type { Dataset } from '../api/datasets'
import type { AlgorithmInfo, HealthSettings, JobCreateBody, ModelChoice, SystemInfo } from '../api/types'
import { messageOf } from '../errors'
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
  const choices = ref<ModelChoice[]>([])
  const datasets = ref<Dataset[]>([])
  /** Where jobs can run here (GET /system): local, ray, and ssh:<host> for each host an admin added. */
  const runModes = ref<string[]>([])
  const loading = ref(true)
  const failure = ref('')

  const basics = reactive<JobBasics>({
    name: '',
    algorithm: draft?.algorithm ?? 'sft',
    engine: draft?.engine ?? 'trl',
    model_path: draft?.model_path ?? '',
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
        } else if (name in values) {
          values[name] = toFormValue(value)
        }
      }
    }
    params.value = values
    const engines = info.value?.engines ?? []
    if (!engines.includes(basics.engine)) basics.engine = engines.includes('trl') ? 'trl' : (engines[0] ?? 'trl')
  }

  watch(() => basics.algorithm, resetParams)

  onMounted(async () => {
    try {
      let defaults: HealthSettings
      let system: SystemInfo
      ;[algorithms.value, choices.value, datasets.value, defaults, system] = await Promise.all([
        api.algorithms(),
        api.modelChoices(),
        api.datasets(),
        api.healthDefaults(),
        api.system(),
      ])
      health.value = healthForm(defaults)
      runModes.value = system.run_modes
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
    fields,
    loraFields,
    rewardFields,
    isRuleReward,
    body,
    formFields,
  }
}
