import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';

/** Colours of the series: distinct for colour-blind readers (Okabe–Ito), each 3:1 or more against white. */
export const PALETTE = ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#8C6D00', '#56B4E9', '#000000', '#E69F00'];

export interface ChartSeries {
  label: string;
  values: (number | null)[];
}

/**
 * A time chart (uPlot, drawn on a canvas). The canvas says nothing to a screen reader, so it is an image
 * labelled with `summary`, and the page shows the same figures as a table beside it.
 */
export function TimeChart({ title, summary, times, series, format }: { title: string; summary: string; times: number[]; series: ChartSeries[]; format: (value: number) => string }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const options: uPlot.Options = {
      width: Math.max(320, element.clientWidth),
      height: 260,
      title,
      scales: { x: { time: true } },
      axes: [{}, { values: (_u, ticks) => ticks.map((t) => format(t)), size: 80 }],
      series: [
        {},
        ...series.map((s, i) => ({
          label: s.label,
          stroke: PALETTE[i % PALETTE.length],
          width: 2,
          points: { show: times.length < 60 },
          value: (_u: uPlot, v: number | null) => (v === null ? '—' : format(v)),
        })),
      ],
    };
    const chart = new uPlot(options, [times, ...series.map((s) => s.values)] as uPlot.AlignedData, element);
    const resize = () => chart.setSize({ width: Math.max(320, element.clientWidth), height: 260 });
    addEventListener('resize', resize);
    return () => {
      removeEventListener('resize', resize);
      chart.destroy();
    };
  }, [title, times, series, format]);
  return <div class="chart" ref={box} role="img" aria-label={`${title}. ${summary}`} />;
}
