import { ref, type Ref } from 'vue'

import { messageOf } from '../errors'

/** `data` loaded by `fetch`: `loading` while it runs, `problem` the error's message when it failed ('' after a
 *  success). Call `load` again to refresh. */
export function useLoad<T>(fetch: () => Promise<T>, initial: T) {
  const data = ref(initial) as Ref<T>
  const loading = ref(false)
  const problem = ref('')
  async function load(): Promise<void> {
    loading.value = true
    try {
      data.value = await fetch()
      problem.value = ''
    } catch (error) {
      problem.value = messageOf(error)
    } finally {
      loading.value = false
    }
  }
  return { data, loading, problem, load }
}
