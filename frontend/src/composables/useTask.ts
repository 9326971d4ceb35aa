// A background task (a dataset's audit, index or dedup; a job's checkpoint export) followed until it ends.
import { onBeforeUnmount, ref, type Ref } from 'vue'

import { api } from '../api'
import type { AuditTask } from '../api/datasets'
import { notifyError } from '../errors'

interface Followed {
  status: 'queued' | 'running' | 'completed' | 'failed'
}

export function useTaskFollower<T extends Followed>(load: (taskId: string) => Promise<T>, onDone?: (task: T) => void) {
  const task = ref<T | null>(null) as Ref<T | null>
  let timer: ReturnType<typeof setTimeout> | undefined
  let stopped = false

  async function poll(taskId: string): Promise<void> {
    let loaded: T
    try {
      loaded = await load(taskId)
    } catch (error) {
      notifyError(error)
      return
    }
    task.value = loaded
    if (loaded.status === 'completed' || loaded.status === 'failed') onDone?.(loaded)
    else if (!stopped) timer = setTimeout(() => void poll(taskId), 700)
  }

  function follow(taskId: string): void {
    clearTimeout(timer)
    void poll(taskId)
  }

  onBeforeUnmount(() => {
    stopped = true
    clearTimeout(timer)
  })
  return { task, follow }
}

export const useTask = (datasetId: string, onDone?: (task: AuditTask) => void) =>
  useTaskFollower((taskId) => api.task(datasetId, taskId), onDone)
