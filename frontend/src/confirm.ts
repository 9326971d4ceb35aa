import { ElMessageBox } from 'element-plus'

/** Whether the user confirmed a destructive action in a warning dialog titled and buttoned `action`. */
export async function confirmed(message: string, action: string, cancel: string): Promise<boolean> {
  try {
    await ElMessageBox.confirm(message, action, {
      type: 'warning',
      confirmButtonText: action,
      cancelButtonText: cancel,
    })
    return true
  } catch {
    return false
  }
}
