// A job's metrics in the browser: downsampled history from the REST API, then every new step over the live
// WebSocket (since the last stored step, so nothing is missed or doubled); zooming re-queries the visible range at
// full detail; playback replays the recording through its own WebSocket into a separate set of series.
import { markRaw, onBeforeUnmount, ref, shallowRef } from 'vue'

import { api } from '../api'
import { ApiError, wsUrl } from '../api/client'
import type { Anomaly, JobStatus, LiveMessage, PlaybackMessage, Series } from '../api/types'
import { notifyError } from '../errors'
import { SeriesData, flattenRecord, parseWireNumber } from '../metrics'

const OVERVIEW_POINTS = 2000
const DETAIL_POINTS = 1500
const RECONNECT_MS = 2000
const NOT_CHARTED = new Set(['timestamp'])

export type Store = Map<string, SeriesData>
export type LiveState = 'connecting' | 'live' | 'finished' | 'reconnecting'

export interface PlaybackState {
  active: boolean
  running: boolean
  progress: number
  speed: number
  startStep: number | null
  endStep: number | null
  total: number
}

function fill(store: Store, series: Series[]): void {
  for (const item of series) {
    if (NOT_CHARTED.has(item.key)) continue
    let data = store.get(item.key)
    if (!data) store.set(item.key, (data = markRaw(new SeriesData())))
    data.splice(
      item.steps,
      item.values.map((value) => parseWireNumber(value) ?? Number.NaN),
    )
  }
}

function closeSocket(socket: WebSocket | null): void {
  if (!socket) return
  socket.onclose = socket.onmessage = socket.onerror = null
  // Closing a socket that is still connecting makes the browser log an error; let it open first.
  if (socket.readyState === WebSocket.CONNECTING) socket.onopen = () => socket.close()
  else socket.close()
}

export function useJobMetrics(jobId: string, onStatus: (status: JobStatus, step?: number) => void) {
  const live: Store = markRaw(new Map())
  const replay: Store = markRaw(new Map())
  const store = shallowRef<Store>(live)
  const version = ref(0)
  const keys = ref<string[]>([])
  const anomalies = ref<Anomaly[]>([])
  const state = ref<LiveState>('connecting')
  const zoomed = ref<[number, number] | null>(null)
  const playback = ref<PlaybackState>({ active: false, running: false, progress: 0, speed: 1, startStep: null, endStep: null, total: 0 })

  let socket: WebSocket | null = null
  let playbackSocket: WebSocket | null = null
  let reconnectTimer: ReturnType<typeof setTimeout> | undefined
  let disposed = false
  let lastStep = 0
  let lastPlayedStep: number | null = null

  function touch(target: Store): void {
    const names = [...target.keys()].sort()
    if (names.join() !== keys.value.join()) keys.value = names
    version.value += 1
  }

  function applyRecord(target: Store, record: { step: number } & Record<string, unknown>): void {
    for (const [key, value] of Object.entries(flattenRecord(record))) {
      let data = target.get(key)
      if (!data) target.set(key, (data = markRaw(new SeriesData())))
      data.push(record.step, value)
    }
  }

  async function loadOverview(): Promise<void> {
    const response = await api.metrics(jobId, { max_points: OVERVIEW_POINTS })
    fill(live, response.series)
    for (const item of response.series) lastStep = Math.max(lastStep, item.steps[item.steps.length - 1] ?? 0)
    if (store.value === live) touch(live)
  }

  async function loadAnomalies(): Promise<void> {
    anomalies.value = await api.anomalies(jobId)
  }

  function connect(): void {
    if (disposed) return
    const opened = new WebSocket(wsUrl(`/monitoring/${encodeURIComponent(jobId)}/live`, { since_step: lastStep }))
    socket = opened
    opened.onopen = () => {
      state.value = 'live'
    }
    opened.onmessage = (event) => {
      const message = JSON.parse(event.data as string) as LiveMessage
      if (message.type === 'metric') {
        lastStep = Math.max(lastStep, message.data.step)
        applyRecord(live, message.data)
        if (store.value === live) touch(live)
      } else if (message.type === 'status') {
        onStatus(message.data.status, message.data.current_step)
        if (message.data.anomaly_detected) void loadAnomalies().catch(() => undefined)
      } else if (message.type === 'finished') {
        state.value = 'finished'
        onStatus(message.status)
        void loadAnomalies().catch(() => undefined)
      }
    }
    opened.onclose = () => {
      if (socket !== opened || disposed || state.value === 'finished') return
      // The server restarted or the network dropped: pick up after the last step seen.
      state.value = 'reconnecting'
      reconnectTimer = setTimeout(connect, RECONNECT_MS)
    }
  }

  async function start(): Promise<void> {
    try {
      await Promise.all([loadOverview(), loadAnomalies()])
    } catch (error) {
      notifyError(error)
    }
    connect()
  }

  /** The job runs again (a failed job resumed) after its stream ended: follow it from the last step seen. */
  function follow(): void {
    if (state.value !== 'finished') return
    state.value = 'connecting'
    connect()
  }

  /** The user zoomed the charts to `range` (null: all of it); fetch that range in detail for every charted key. */
  async function zoom(range: [number, number] | null, charted: string[]): Promise<void> {
    zoomed.value = range
    if (store.value !== live || !charted.length) return
    try {
      const response = range
        ? await api.metrics(jobId, { keys: charted, start_step: range[0], end_step: range[1], max_points: DETAIL_POINTS })
        : await api.metrics(jobId, { keys: charted, max_points: OVERVIEW_POINTS })
      fill(live, response.series)
      touch(live)
    } catch (error) {
      notifyError(error)
    }
  }

  function openPlayback(fromStep: number | null): void {
    closeSocket(playbackSocket)
    const { speed, endStep } = playback.value
    const query = { speed, start_step: fromStep, end_step: endStep }
    const opened = new WebSocket(wsUrl(`/monitoring/${encodeURIComponent(jobId)}/playback`, query))
    playbackSocket = opened
    playback.value = { ...playback.value, running: true }
    opened.onmessage = (event) => {
      const message = JSON.parse(event.data as string) as PlaybackMessage
      if (message.type === 'metric') {
        applyRecord(replay, message.data)
        lastPlayedStep = message.data.step
        playback.value.progress = message.progress
        touch(replay)
      } else if (message.type === 'playback_info' && fromStep === playback.value.startStep) {
        playback.value.total = message.total_metrics
      } else if (message.type === 'playback_complete') {
        playback.value.running = false
        playback.value.progress = 1
      }
    }
    opened.onclose = (event) => {
      if (playbackSocket !== opened) return
      playback.value.running = false
      if (event.code === 4422 || event.code === 4404) notifyError(new ApiError(422, event.reason))
    }
  }

  function startPlayback(speed: number, startStep: number | null, endStep: number | null): void {
    replay.clear()
    lastPlayedStep = null
    playback.value = { active: true, running: true, progress: 0, speed, startStep, endStep, total: 0 }
    store.value = replay
    touch(replay)
    openPlayback(startStep)
  }

  /** The server replays at one speed per connection: a new speed continues from the next step on a new one. */
  function setPlaybackSpeed(speed: number): void {
    playback.value.speed = speed
    if (playback.value.running) openPlayback(lastPlayedStep === null ? playback.value.startStep : lastPlayedStep + 1)
  }

  function pausePlayback(): void {
    closeSocket(playbackSocket)
    playbackSocket = null
    playback.value.running = false
  }

  function resumePlayback(): void {
    openPlayback(lastPlayedStep === null ? playback.value.startStep : lastPlayedStep + 1)
  }

  function stopPlayback(): void {
    pausePlayback()
    playback.value.active = false
    store.value = live
    touch(live)
  }

  onBeforeUnmount(() => {
    disposed = true
    clearTimeout(reconnectTimer)
    closeSocket(socket)
    closeSocket(playbackSocket)
  })

  return {
    store,
    version,
    keys,
    anomalies,
    state,
    zoomed,
    playback,
    start,
    follow,
    zoom,
    startPlayback,
    setPlaybackSpeed,
    pausePlayback,
    resumePlayback,
    stopPlayback,
  }
}

export type JobMetrics = ReturnType<typeof useJobMetrics>
