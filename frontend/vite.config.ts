import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

import vue from '@vitejs/plugin-vue'
import { defineConfig, type Plugin } from 'vite'

// FastAPI's stock /docs page loads Swagger UI from a CDN; the platform serves this copy instead (see api/web.py).
function swaggerUi(): Plugin {
  return {
    name: 'swagger-ui-dist',
    apply: 'build',
    generateBundle() {
      for (const file of ['swagger-ui-bundle.js', 'swagger-ui.css']) {
        const path = fileURLToPath(new URL(`./node_modules/swagger-ui-dist/${file}`, import.meta.url))
        this.emitFile({ type: 'asset', fileName: `swagger/${file}`, source: readFileSync(path) })
      }
    },
  }
}

export default defineConfig({
  plugins: [vue(), swaggerUi()],
  define: {
    __VUE_I18N_FULL_INSTALL__: true,
    __VUE_I18N_LEGACY_API__: false,
    __INTLIFY_PROD_DEVTOOLS__: false,
  },
  build: {
    outDir: fileURLToPath(new URL('../training_platform/web', import.meta.url)),
    emptyOutDir: true,
    // Element Plus and ECharts are large, but served from the same machine and cached by their hashed names.
    chunkSizeWarningLimit: 1200,
  },
  server: {
    // `npm run dev` against a `tplat serve` on the default port.
    proxy: { '/api': { target: 'http://127.0.0.1:8000', ws: true } },
  },
})
