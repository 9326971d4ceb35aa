// The kinds of dataset as the server defines them (GET /datasets/kinds): fetched once per page load and shared, so
// that the UI never keeps a copy of which fields and presets a kind has.
import { computed, ref } from 'vue'

import { api } from '../api'
import type { DatasetKind, DatasetKindInfo } from '../api/datasets'

const kinds = ref<DatasetKindInfo[]>([])
let loading: Promise<void> | null = null

export function useDatasetKinds() {
  if (loading === null) {
    loading = api.datasetKinds().then(
      (answer) => {
        kinds.value = answer
      },
      () => {
        loading = null // asked again by the next page that needs them
      },
    )
  }
  const byKind = computed(() => Object.fromEntries(kinds.value.map((info) => [info.kind, info])) as Partial<Record<DatasetKind, DatasetKindInfo>>)
  return {
    kinds,
    fieldsOf: (kind: DatasetKind) => byKind.value[kind]?.fields ?? [],
    presetsOf: (kind: DatasetKind) => byKind.value[kind]?.presets ?? [],
  }
}
