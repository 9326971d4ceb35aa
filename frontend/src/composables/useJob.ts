// One job's page: the job polled until it has finished, with its checkpoints and events, and its metrics followed
// from the moment it is known to exist (an unknown one would be asked for again and again).
import { computed, ref, watch } from 'vue'
import { useI18n } from 'vue-i18n'

import { api } from '../api'
import { ApiError } from '../api/client'
import type { Checkpoint, Job, JobEvent, JobStatus } from '../api/types'
import { notifyError } from '../errors'
import { useJobMetrics } from './useJobMetrics'
import { usePolling } from './usePolling'

const FINISHED: JobStatus[] = ['completed', 'failed', 'cancelled']
// Metrics imported from a run the platform did not launch (engine "external") come without checkpoints.
const EXTERNAL = 'external'

export function useJob(id: string) {
  const { t } = useI18n()
  const job = ref<Job | null>(null)
  const problem = ref('')
  const checkpoints = ref<Checkpoint[]>([])
  const events = ref<JobEvent[]>([])
  const live = computed(() => !!job.value && !FINISHED.includes(job.value.status))

  async function refreshJob(): Promise<void> {
    try {
      job.value = await api.job(id)
      problem.value = ''
      if (!metricsStarted) {
        metricsStarted = true
        void metrics.start()
      }
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) problem.value = t('jobDetail.notFound', { id })
      else notifyError(error)
    }
  }

  async function refreshLists(): Promise<void> {
    if (!job.value) return
    try {
      ;[checkpoints.value, events.value] = await Promise.all([
        job.value.engine === EXTERNAL ? Promise.resolve([]) : api.checkpoints(id),
        api.events(id),
      ])
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 404)) notifyError(error)
    }
  }

  // A finished job changes no more: the page then stops asking.
  usePolling(async () => {
    if (job.value && !live.value) return
    await refreshJob()
    await refreshLists()
  }, 2000)

  // The trainer reports every step over the WebSocket; the step counter follows it between two polls.
  const metrics = useJobMetrics(id, (status, step) => {
    const progress = job.value?.progress
    if (progress && step !== undefined && step > progress.current_step) progress.current_step = step
    if (job.value && job.value.status !== status) void refreshJob().then(refreshLists)
  })
  let metricsStarted = false
  watch(live, (isLive) => {
    if (isLive) metrics.follow()
  })

  return { job, problem, checkpoints, events, live, metrics }
}
