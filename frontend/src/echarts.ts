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
