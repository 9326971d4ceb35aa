// One way to talk to /api/v1: JSON in and out, and every failure as an ApiError carrying the API's field errors.
// The session is an HttpOnly cookie the browser sends itself (same origin); a 401 from any call but the login's
// own hands the page to the session (composables/useSession.ts), which sends the user to the login page.

export const API_PREFIX = '/api/v1'

export interface FieldError {
  field: string
  /** In the language of the request (the interface's locale, sent as Accept-Language). */
  message: string
  code?: string
  row?: number
}

export class ApiError extends Error {
  readonly status: number
  readonly errors: FieldError[]
  /** Seconds to wait before trying again (a 429's Retry-After), when the server said. */
  readonly retryAfter: number | null

  constructor(status: number, message: string, errors: FieldError[] = [], retryAfter: number | null = null) {
    super(message)
    this.name = 'ApiError'
    this.status = status
    this.errors = errors
    this.retryAfter = retryAfter
  }
}

// The interface's language, sent with every request: the server writes its messages (field errors, job events) in
// it (set by i18n/index.ts, so that this module needs no i18n of its own).
let language = 'en'

export function setRequestLanguage(locale: string): void {
  language = locale
}

// Who hears of a 401: the session, which forgets the user and opens the login page (set in useSession.ts, so that
// this module needs neither the router nor the session's state).
let unauthorized: (() => void) | null = null
export function onUnauthorized(handler: () => void): void {
  unauthorized = handler
}

/** Calls whose 401 is an answer, not a lost session: a wrong password, "nobody is logged in", "logged out already". */
const AUTH_ANSWERS = [`${API_PREFIX}/auth/login`, `${API_PREFIX}/auth/me`, `${API_PREFIX}/auth/logout`]

function failed(url: string, error: ApiError): ApiError {
  if (error.status === 401 && unauthorized && !AUTH_ANSWERS.some((path) => url.split('?')[0] === path)) unauthorized()
  return error
}

/** Retry-After in seconds (the header may also be an HTTP date). */
export function parseRetryAfter(value: string | null): number | null {
  if (!value) return null
  const seconds = Number(value)
  if (Number.isFinite(seconds)) return Math.max(0, Math.ceil(seconds))
  const date = Date.parse(value)
  return Number.isNaN(date) ? null : Math.max(0, Math.ceil((date - Date.now()) / 1000))
}

export type Query = Record<string, string | number | boolean | null | undefined | (string | number)[]>

export function apiUrl(path: string, query: Query = {}): string {
  const params = new URLSearchParams()
  for (const [key, value] of Object.entries(query)) {
    if (value === null || value === undefined || value === '') continue
    for (const item of Array.isArray(value) ? value : [value]) params.append(key, String(item))
  }
  const search = params.toString()
  return `${API_PREFIX}${path}${search ? `?${search}` : ''}`
}

export function wsUrl(path: string, query: Query = {}): string {
  const scheme = window.location.protocol === 'https:' ? 'wss' : 'ws'
  return `${scheme}://${window.location.host}${apiUrl(path, query)}`
}

/** The API's error body, `{"detail", "errors": [{"field", "message", "code"?, "row"?}]}`, or a plain status line. */
export function errorFromBody(status: number, statusText: string, body: string, retryAfter: number | null = null): ApiError {
  try {
    const parsed = JSON.parse(body) as { detail?: unknown; errors?: FieldError[] }
    if (typeof parsed.detail === 'string') return new ApiError(status, parsed.detail, parsed.errors ?? [], retryAfter)
  } catch {
    // not JSON: a proxy or the server itself failing; the status line is all there is
  }
  return new ApiError(status, `${status} ${statusText}`.trim(), [], retryAfter)
}

/** The API's and the server's other JSON documents (the OpenAPI document is served at /openapi.json). */
export async function request<T>(method: string, url: string, body?: unknown): Promise<T> {
  let response: Response
  try {
    response = await fetch(url, {
      method,
      credentials: 'same-origin',
      headers: { 'accept-language': language, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
  } catch {
    throw new ApiError(0, 'network')
  }
  if (!response.ok) {
    const retryAfter = parseRetryAfter(response.headers.get('retry-after'))
    throw failed(url, errorFromBody(response.status, response.statusText, await response.text(), retryAfter))
  }
  if (response.status === 204) return undefined as T
  return (await response.json()) as T
}

export const get = <T>(path: string, query?: Query) => request<T>('GET', apiUrl(path, query))
export const post = <T>(path: string, body?: unknown, query?: Query) => request<T>('POST', apiUrl(path, query), body)
export const patch = <T>(path: string, body: unknown) => request<T>('PATCH', apiUrl(path), body)
export const del = (path: string) => request<void>('DELETE', apiUrl(path))

/** fetch() cannot report upload progress; XMLHttpRequest can. */
export function upload<T>(path: string, query: Query, file: File, onProgress: (fraction: number) => void): Promise<T> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest()
    const url = apiUrl(path, query)
    xhr.open('POST', url)
    xhr.setRequestHeader('content-type', 'application/octet-stream')
    xhr.setRequestHeader('accept-language', language)
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total)
    }
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) resolve(JSON.parse(xhr.responseText) as T)
      else reject(failed(url, errorFromBody(xhr.status, xhr.statusText, xhr.responseText)))
    }
    xhr.onerror = () => reject(new ApiError(0, 'network'))
    xhr.send(file)
  })
}
