// A dataset task (audit, index, dedup) followed until it ends.
import { onBeforeUnmount, ref } from 'vue'

import { api } from '../api'
import type { AuditTask } from '../api/datasets'
import { notifyError } from '../errors'

export function useTask(datasetId: string, onDone?: (task: AuditTask) => void) {
  const task = ref<AuditTask | null>(null)
  let timer: ReturnType<typeof setTimeout> | undefined
  let stopped = false

  async function poll(taskId: string): Promise<void> {
    try {
      task.value = await api.task(datasetId, taskId)
    } catch (error) {
      notifyError(error)
      return
    }
    if (task.value.status === 'completed' || task.value.status === 'failed') onDone?.(task.value)
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
