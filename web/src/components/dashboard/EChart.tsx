import Box from '@mui/material/Box';
import { useTheme } from '@mui/material/styles';
import { BarChart, HeatmapChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent, VisualMapComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';
import { useEffect, useRef } from 'react';

// Only what the dashboard draws, so the bundle carries no more of ECharts than that.
echarts.use([
  BarChart,
  HeatmapChart,
  GridComponent,
  LegendComponent,
  TooltipComponent,
  VisualMapComponent,
  SVGRenderer,
]);

export type ChartOption = echarts.EChartsCoreOption;

/** What a click on a chart's bar or cell gives: its series and data index. */
export interface ChartClick {
  seriesIndex: number;
  dataIndex: number;
}

/**
 * An ECharts chart in the app's theme (light or dark, the page's font, no animation when the
 * user asks for reduced motion). ECharts draws what people look at; label says the same in
 * words for screen readers, and each widget keeps a keyboard way to what a click opens.
 */
export function EChart({
  option,
  label,
  height = 220,
  onClick,
}: {
  option: ChartOption;
  label: string;
  height?: number;
  onClick?: (click: ChartClick) => void;
}) {
  const theme = useTheme();
  const container = useRef<HTMLDivElement>(null);
  const chart = useRef<echarts.ECharts | null>(null);
  const clicked = useRef(onClick);
  useEffect(() => {
    clicked.current = onClick;
  }, [onClick]);

  useEffect(() => {
    if (!container.current) return;
    const instance = echarts.init(container.current, theme.palette.mode === 'dark' ? 'dark' : undefined, {
      renderer: 'svg',
    });
    chart.current = instance;
    instance.on('click', (event) =>
      clicked.current?.({ seriesIndex: event.seriesIndex ?? 0, dataIndex: event.dataIndex }),
    );
    const resize = new ResizeObserver(() => instance.resize());
    resize.observe(container.current);
    return () => {
      resize.disconnect();
      instance.dispose();
      chart.current = null;
    };
  }, [theme.palette.mode]);

  useEffect(() => {
    const reduced = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
    chart.current?.setOption(
      {
        backgroundColor: 'transparent',
        animation: !reduced,
        textStyle: { fontFamily: theme.typography.fontFamily, color: theme.palette.text.secondary },
        ...option,
      },
      { notMerge: true },
    );
  }, [option, theme]);

  return (
    <Box
      ref={container}
      role="img"
      aria-label={label}
      sx={{ height, width: '100%', cursor: onClick ? 'pointer' : undefined }}
    />
  );
}
