// The model a link chose for a form: `?model=job:<job>@<checkpoint>` from a job's checkpoints tab.
import { useRoute } from 'vue-router'

export function useLinkedModel(): string {
  const value = useRoute().query.model
  return typeof value === 'string' ? value : ''
}
