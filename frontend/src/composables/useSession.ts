// Who is logged in, shared by every page: the user and their role as the server said (GET /auth/me), what that role
// may do, logging in and out. The credential itself is an HttpOnly cookie this code never sees; the server decides
// every request, so hiding a button here is a courtesy and a 403 is still shown when it comes.
import { computed, ref } from 'vue'

import { ApiError, onUnauthorized } from '../api/client'
import { api } from '../api'
import type { Role, SessionUser } from '../api/types'
import { router } from '../router'

// Set after a login, cleared by a logout or a 401: whether a session cookie is worth asking about. Without it the
// app goes straight to the login page instead of asking GET /auth/me for a 401 the browser would log as an error.
const HINT_KEY = 'tplat.session'

const user = ref<SessionUser | null>(null)
let known: Promise<void> | null = null

function hinted(): boolean {
  try {
    return localStorage.getItem(HINT_KEY) === '1'
  } catch {
    return true // storage refused (a privacy mode): ask the server instead
  }
}

function remember(signedIn: boolean): void {
  try {
    if (signedIn) localStorage.setItem(HINT_KEY, '1')
    else localStorage.removeItem(HINT_KEY)
  } catch {
    // the hint only saves a request
  }
}

async function ask(): Promise<void> {
  if (!hinted()) return
  try {
    user.value = await api.me()
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) remember(false)
    else throw error
  }
}

/** Resolves once it is known whether someone is logged in (asked once per page load). */
export function loadSession(): Promise<void> {
  known ??= ask().catch((error: unknown) => {
    known = null // a network failure: the next navigation asks again
    throw error
  })
  return known
}

/** The address to return to after a login: a page of this app, never another site or the login page itself. */
export function safeNext(next: unknown): string {
  const path = Array.isArray(next) ? next[0] : next
  if (typeof path !== 'string' || !path.startsWith('/') || path.startsWith('//') || path.startsWith('/\\')) return '/jobs'
  if (path === '/login' || path.startsWith('/login?')) return '/jobs'
  return path
}

export async function login(username: string, password: string): Promise<void> {
  const answer = await api.login(username, password)
  user.value = answer.user
  known = Promise.resolve()
  remember(true)
}

/** Forgets the user here and sends them to the login page, back to `next` afterwards. */
function signedOut(next: string | null): void {
  user.value = null
  known = Promise.resolve()
  remember(false)
  const current = router.currentRoute.value
  if (current.name === 'login') return
  void router.push({ name: 'login', query: next ? { next } : {} })
}

export async function logout(): Promise<void> {
  try {
    await api.logout()
  } catch {
    // an expired session is logged out already; a network failure leaves a cookie that expires on its own
  }
  signedOut(null)
}

// Any other call answered 401: the session ended (expired, revoked, the server's secret changed).
onUnauthorized(() => {
  if (!user.value && router.currentRoute.value.name === 'login') return
  signedOut(router.currentRoute.value.fullPath)
})

const ROLE_RANK: Record<Role, number> = { viewer: 0, member: 1, admin: 2 }

export function useSession() {
  const role = computed<Role | null>(() => user.value?.role ?? null)
  /** Creating and changing things (jobs, datasets): members and admins. */
  const canWrite = computed(() => !!role.value && ROLE_RANK[role.value] >= ROLE_RANK.member)
  const isAdmin = computed(() => role.value === 'admin')
  /**
   * Whether this user may change `item` (a job, a dataset): an admin anything, a member their own. Where the API does
   * not say whose it is, a member is shown the buttons and the server's 403 tells them if it is not theirs.
   */
  function canChange(item: object | null | undefined): boolean {
    if (!canWrite.value) return false
    const owner = item && 'owner' in item ? item.owner : null
    if (isAdmin.value || typeof owner !== 'string') return true
    return owner === user.value?.name
  }
  return { user, role, canWrite, isAdmin, canChange, login, logout }
}
