import { onBeforeUnmount, onMounted } from 'vue'

/** Runs `task` now and then every `intervalMs` while the page is open, never two at once, paused while the tab is hidden. */
export function usePolling(task: () => Promise<void>, intervalMs: number): { refresh: () => Promise<void> } {
  let timer: ReturnType<typeof setTimeout> | undefined
  let running: Promise<void> | null = null
  let stopped = false

  async function refresh(): Promise<void> {
    if (running) return running
    clearTimeout(timer)
    running = task().finally(() => {
      running = null
      if (!stopped) timer = setTimeout(tick, intervalMs)
    })
    return running
  }

  function tick(): void {
    if (document.hidden) timer = setTimeout(tick, intervalMs)
    else void refresh()
  }

  onMounted(() => void refresh())
  onBeforeUnmount(() => {
    stopped = true
    clearTimeout(timer)
  })
  return { refresh }
}
