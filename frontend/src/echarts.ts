// ECharts, tree-shaken to what the pages draw: lines (metrics), bars (memory breakdown, histograms, labels), the
// gradient heatmap.
import { BarChart, HeatmapChart, LineChart } from 'echarts/charts'
import {
  DataZoomComponent,
  DatasetComponent,
  GridComponent,
  LegendComponent,
  MarkAreaComponent,
  MarkLineComponent,
  TooltipComponent,
  VisualMapContinuousComponent,
} from 'echarts/components'
import * as echarts from 'echarts/core'
import { CanvasRenderer } from 'echarts/renderers'

echarts.use([
  LineChart,
  BarChart,
  HeatmapChart,
  GridComponent,
  TooltipComponent,
  LegendComponent,
  DataZoomComponent,
  DatasetComponent,
  MarkLineComponent,
  MarkAreaComponent,
  VisualMapContinuousComponent,
  CanvasRenderer,
])

export { echarts }
export const PALETTE = ['#409eff', '#e6a23c', '#67c23a', '#9b59b6', '#f56c6c', '#16a085', '#34495e', '#d35400']

/** The smallest and largest finite value of the arrays ([NaN, NaN] when there is none). */
export function extentOf(arrays: number[][]): [number, number] {
  let low = Number.POSITIVE_INFINITY
  let high = Number.NEGATIVE_INFINITY
  for (const values of arrays) {
    for (const value of values) {
      if (value < low) low = value
      if (value > high) high = value
    }
  }
  return low <= high ? [low, high] : [Number.NaN, Number.NaN]
}

// ECharts draws about five intervals on a value axis.
const AXIS_INTERVALS = 5

/**
 * Tick labels for values within [low, high]: as many significant digits as the ticks' spacing needs, so that
 * 5.6901 and 5.6902 do not both read "5.69"; very small or large values in exponent notation. A constant series (no
 * spacing to go by) keeps four digits.
 */
export function axisLabelFormatter([low, high]: [number, number]): (value: number) => string {
  const spacing = (high - low) / AXIS_INTERVALS
  const largest = Math.max(Math.abs(low), Math.abs(high))
  const digits = spacing > 0 ? Math.floor(Math.log10(largest)) - Math.floor(Math.log10(spacing)) + 1 : 4
  const precision = Math.min(Math.max(digits, 2), 12)
  return (value: number) => {
    const rounded = Number(value.toPrecision(precision))
    const magnitude = Math.abs(rounded)
    if (magnitude !== 0 && (magnitude < 1e-3 || magnitude >= 1e6)) return rounded.toExponential()
    return rounded.toString()
  }
}
