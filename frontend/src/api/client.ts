// One way to talk to /api/v1: JSON in and out, and every failure as an ApiError carrying the API's field errors.

export const API_PREFIX = '/api/v1'

export interface FieldError {
  field: string
  message: string
  row?: number
}

export class ApiError extends Error {
  readonly status: number
  readonly errors: FieldError[]

  constructor(status: number, message: string, errors: FieldError[] = []) {
    super(message)
    this.name = 'ApiError'
    this.status = status
    this.errors = errors
  }
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

/** The API's error body, `{"detail", "errors": [{"field", "message", "row"?}]}`, or a plain status line. */
export function errorFromBody(status: number, statusText: string, body: string): ApiError {
  try {
    const parsed = JSON.parse(body) as { detail?: unknown; errors?: FieldError[] }
    if (typeof parsed.detail === 'string') return new ApiError(status, parsed.detail, parsed.errors ?? [])
  } catch {
    // not JSON: a proxy or the server itself failing; the status line is all there is
  }
  return new ApiError(status, `${status} ${statusText}`.trim())
}

/** The API's and the server's other JSON documents (the OpenAPI document is served at /openapi.json). */
export async function request<T>(method: string, url: string, body?: unknown): Promise<T> {
  let response: Response
  try {
    response = await fetch(url, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
  } catch {
    throw new ApiError(0, 'network')
  }
  if (!response.ok) throw errorFromBody(response.status, response.statusText, await response.text())
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
    xhr.open('POST', apiUrl(path, query))
    xhr.setRequestHeader('content-type', 'application/octet-stream')
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total)
    }
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) resolve(JSON.parse(xhr.responseText) as T)
      else reject(errorFromBody(xhr.status, xhr.statusText, xhr.responseText))
    }
    xhr.onerror = () => reject(new ApiError(0, 'network'))
    xhr.send(file)
  })
}
