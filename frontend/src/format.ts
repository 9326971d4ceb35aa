// Numbers, sizes, durations and times as people read them.
import { i18n } from './i18n'

export function formatDuration(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) return '—'
  const total = Math.max(0, Math.round(seconds))
  const h = Math.floor(total / 3600)
  const m = Math.floor((total % 3600) / 60)
  const s = total % 60
  if (h) return `${h}h ${String(m).padStart(2, '0')}m`
  if (m) return `${m}m ${String(s).padStart(2, '0')}s`
  return `${s}s`
}

export function formatBytes(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined) return '—'
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB']
  let value = bytes
  let unit = 0
  while (Math.abs(value) >= 1024 && unit < units.length - 1) {
    value /= 1024
    unit += 1
  }
  return `${value.toFixed(unit === 0 ? 0 : value < 10 ? 2 : 1)} ${units[unit]}`
}

export function gib(bytes: number): number {
  return bytes / 2 ** 30
}

/** Metric values span 1e-7 (learning rates) to 1e5 (tokens/s): keep about four significant digits. */
export function formatNumber(value: number | null | undefined): string {
  if (value === null || value === undefined) return '—'
  if (Number.isNaN(value)) return 'NaN'
  if (!Number.isFinite(value)) return value > 0 ? '∞' : '-∞'
  const magnitude = Math.abs(value)
  if (magnitude !== 0 && (magnitude < 1e-3 || magnitude >= 1e6)) return value.toExponential(2)
  return Number(value.toPrecision(4)).toString()
}

export function formatParameters(count: number): string {
  if (count >= 1e9) return `${(count / 1e9).toFixed(1)}B`
  if (count >= 1e6) return `${(count / 1e6).toFixed(1)}M`
  return count.toLocaleString()
}

export function formatTime(iso: string | null | undefined): string {
  if (!iso) return '—'
  // The API writes UTC; naive timestamps from SQLite come without a zone.
  const date = new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(iso) ? iso : `${iso}Z`)
  // In the interface's language (not the browser's): 2026/11/27 18:53:30 in Chinese, 11/27/2026, 6:53:30 PM in English.
  return date.toLocaleString(i18n.global.locale.value)
}

/** A value from the user's data or a job's parameters as text: lists and objects as "key: value", not JSON. */
export function describeValue(value: unknown): string {
  if (value === null || value === undefined) return '—'
  if (Array.isArray(value)) return value.map(describeValue).join(' · ')
  if (typeof value === 'object') {
    return Object.entries(value as Record<string, unknown>)
      .filter(([, inner]) => inner !== null && inner !== undefined)
      .map(([key, inner]) => `${key}: ${describeValue(inner)}`)
      .join(', ')
  }
  return String(value)
}
