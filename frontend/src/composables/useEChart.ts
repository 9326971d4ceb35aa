// An ECharts instance for as long as its component is mounted, resized with its element.
import { onBeforeUnmount, onMounted, type Ref } from 'vue'

import { echarts } from '../echarts'

/**
 * `setup` configures the new chart once (options that never change, event handlers), `draw` sets what it shows; it
 * runs after mounting and on every `redraw()`, which does nothing before mounting or after unmounting.
 */
export function useEChart(
  element: Readonly<Ref<HTMLElement | undefined>>,
  draw: (chart: echarts.ECharts) => void,
  setup?: (chart: echarts.ECharts) => void,
) {
  let chart: echarts.ECharts | undefined
  let resizeObserver: ResizeObserver | undefined

  onMounted(() => {
    chart = echarts.init(element.value!)
    setup?.(chart)
    resizeObserver = new ResizeObserver(() => chart?.resize())
    resizeObserver.observe(element.value!)
    draw(chart)
  })
  onBeforeUnmount(() => {
    resizeObserver?.disconnect()
    chart?.dispose()
    chart = undefined
  })

  return {
    redraw(): void {
      if (chart) draw(chart)
    },
    chart: (): echarts.ECharts | undefined => chart,
  }
}
