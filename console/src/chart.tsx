import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import { Table } from './components';

/** Colours of the series: distinct for colour-blind readers (Okabe–Ito), each 3:1 or more against white. */
export const PALETTE = ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#8C6D00', '#56B4E9', '#000000', '#E69F00'];

const DAY_S = 86_400;
/** Steps of a count's axis: whole numbers only (1, 2, 5, 10, 20, 50…). */
const WHOLE_STEPS = Array.from({ length: 30 }, (_, i) => [1, 2, 5][i % 3]! * 10 ** Math.floor(i / 3));

export interface ChartSeries {
  label: string;
  values: (number | null)[];
}

/**
 * A time chart (uPlot, drawn on a canvas). The canvas says nothing to a screen reader, so it is an image
 * labelled with `summary`, and its figures are a table below it, folded away until asked for.
 */
export function TimeChart({
  title,
  summary,
  times,
  series,
  format,
  step,
  whole,
}: {
  title: string;
  summary: string;
  times: number[];
  series: ChartSeries[];
  format: (value: number) => string;
  step: 'hour' | 'day';
  whole?: boolean;
}) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const options: uPlot.Options = {
      width: Math.max(320, element.clientWidth),
      height: 260,
      title,
      scales: { x: { time: true } },
      // The console speaks UTC throughout, as the ledger and its rollups do.
      tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
      axes: [
        // Days are labelled as days (MM-DD), a tick a day or fewer; hours keep uPlot's own labels.
        step === 'day'
          ? { incrs: [DAY_S, 2 * DAY_S, 7 * DAY_S], values: (_u, ticks) => ticks.map((t) => new Date(t * 1000).toISOString().slice(5, 10)) }
          : {},
        { values: (_u, ticks) => ticks.map((t) => format(t)), size: 80, ...(whole ? { incrs: WHOLE_STEPS } : {}) },
      ],
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
  }, [title, times, series, format, step, whole]);
  const rows = times.map((t, i) => ({ t, i }));
  const when = (t: number) =>
    new Date(t * 1000)
      .toISOString()
      .slice(0, step === 'hour' ? 16 : 10)
      .replace('T', ' ');
  return (
    <>
      <div class="chart" ref={box} role="img" aria-label={`${title}. ${summary}`} />
      <details>
        <summary>
          {title} per {step}, as a table
        </summary>
        <Table
          caption={`${title} per ${step} (UTC)`}
          rows={rows}
          rowKey={(r) => String(r.t)}
          empty="Nothing to show."
          columns={[
            { title: step === 'hour' ? 'Hour (UTC)' : 'Day (UTC)', cell: (r) => when(r.t) },
            ...series.map((s) => ({ title: s.label, cell: (r: { i: number }) => format(s.values[r.i] ?? 0), numeric: true })),
          ]}
        />
      </details>
    </>
  );
}
