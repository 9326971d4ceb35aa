// ECharts, tree-shaken to what the pages draw: lines (metrics), bars (memory breakdown, histograms, labels).
import { BarChart, LineChart } from 'echarts/charts'
import {
  DataZoomComponent,
  DatasetComponent,
  GridComponent,
  LegendComponent,
  MarkLineComponent,
  TooltipComponent,
} from 'echarts/components'
import * as echarts from 'echarts/core'
import { CanvasRenderer } from 'echarts/renderers'

echarts.use([
  LineChart,
  BarChart,
  GridComponent,
  TooltipComponent,
  LegendComponent,
  DataZoomComponent,
  DatasetComponent,
  MarkLineComponent,
  CanvasRenderer,
])

export { echarts }
export const PALETTE = ['#409eff', '#e6a23c', '#67c23a', '#9b59b6', '#f56c6c', '#16a085', '#34495e', '#d35400']
