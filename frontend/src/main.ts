import 'element-plus/dist/index.css'
import './style.css'

import ElementPlus from 'element-plus'
import { createApp } from 'vue'

import App from './App.vue'
import { loadSession, safeNext, useSession } from './composables/useSession'
import { i18n } from './i18n'
import { router } from './router'

// No page asks the API anything before it is known who is logged in: a page that needs a session waits for
// GET /auth/me, and without one the login page opens instead, with the way back in `next`.
router.beforeEach(async (to) => {
  const { user } = useSession()
  try {
    await loadSession()
  } catch {
    // The server cannot be reached: the login page says so when the user tries.
  }
  if (to.meta.public) {
    if (to.name === 'login' && user.value) return safeNext(to.query.next)
    return true
  }
  if (!user.value) return { name: 'login', query: { next: to.fullPath } }
  return true
})

createApp(App).use(ElementPlus).use(i18n).use(router).mount('#app')
