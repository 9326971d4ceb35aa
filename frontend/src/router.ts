import { createRouter, createWebHistory } from 'vue-router'

declare module 'vue-router' {
  interface RouteMeta {
    /** A page anyone may open (the login page); every other one needs a session (see main.ts). */
    public?: boolean
  }
}

// Each page is its own chunk: the jobs list does not wait for the dataset or configurator code.
export const router = createRouter({
  history: createWebHistory(),
  routes: [
    { path: '/', redirect: '/jobs' },
    { path: '/login', name: 'login', component: () => import('./views/LoginView.vue'), meta: { public: true } },
    { path: '/jobs', name: 'jobs', component: () => import('./views/JobsList.vue') },
    { path: '/jobs/new', name: 'job-new', component: () => import('./views/JobCreate.vue') },
    { path: '/jobs/compare', name: 'jobs-compare', component: () => import('./views/JobsCompare.vue') },
    { path: '/jobs/:id', name: 'job', component: () => import('./views/JobDetail.vue'), props: true },
    { path: '/datasets', name: 'datasets', component: () => import('./views/DatasetsList.vue') },
    { path: '/datasets/:id', name: 'dataset', component: () => import('./views/DatasetDetail.vue'), props: true },
    { path: '/surgery', name: 'surgery', component: () => import('./views/SurgeryView.vue') },
    { path: '/evaluation', name: 'evaluation', component: () => import('./views/EvaluationView.vue') },
    { path: '/evaluation/runs/:run', name: 'evaluation-run', component: () => import('./views/EvaluationRun.vue'), props: true },
    { path: '/evaluation/compare', name: 'evaluation-compare', component: () => import('./views/EvaluationCompare.vue') },
    { path: '/pipelines', name: 'pipelines', component: () => import('./views/PipelinesView.vue') },
    { path: '/pipelines/:name', name: 'pipeline', component: () => import('./views/PipelineDetail.vue'), props: true },
    { path: '/playground', name: 'playground', component: () => import('./views/PlaygroundView.vue') },
    { path: '/hosts', name: 'hosts', component: () => import('./views/HostsView.vue') },
    { path: '/compute', name: 'compute', component: () => import('./views/ComputeView.vue') },
    { path: '/settings', name: 'settings', component: () => import('./views/SettingsView.vue') },
    { path: '/:unknown(.*)*', name: 'not-found', component: () => import('./views/NotFound.vue') },
  ],
})
