// A job's training health on its page: the findings, asked for once the job is known to exist, again while it runs
// and whenever its health state changes, and a fresh diagnosis of the whole job on request.
import { ref, watch, type Ref } from 'vue'

import { api } from '../api'
import { ApiError } from '../api/client'
import type { HealthReport, Job } from '../api/types'
import { notifyError } from '../errors'
import { usePolling } from './usePolling'

const POLL_MS = 5000

export function useHealth(jobId: string, job: Ref<Job | null>, live: Ref<boolean>) {
  const report = ref<HealthReport | null>(null)
  const diagnosing = ref(false)

  async function load(): Promise<void> {
    try {
      report.value = await api.health(jobId)
    } catch (error) {
      // A job not there (yet, or any more) is the page's to say.
      if (!(error instanceof ApiError && error.status === 404)) notifyError(error)
    }
  }

  // Loaded when the job is first known, and again when its health state is not the one the report had (a finished
  // job's findings change only when diagnosed again, which this page asks for itself).
  watch(
    () => job.value?.health,
    (state) => {
      if (state !== undefined && state !== report.value?.health) void load()
    },
    { immediate: true },
  )
  // While it runs, findings move (a range grows) without the state changing.
  usePolling(async () => {
    if (report.value && live.value) await load()
  }, POLL_MS)

  async function diagnose(): Promise<HealthReport | null> {
    diagnosing.value = true
    try {
      report.value = await api.diagnose(jobId)
      return report.value
    } catch (error) {
      notifyError(error)
      return null
    } finally {
      diagnosing.value = false
    }
  }

  return { report, diagnosing, diagnose }
}
