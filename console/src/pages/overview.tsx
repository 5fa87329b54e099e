import { useMemo, useState } from 'preact/hooks';
import { allKeys, api, type KeyRecord } from '../api';
import { TimeChart } from '../chart';
import { ErrorNote, Loading, Panel, Table } from '../components';
import { formatCount, formatMs, formatUsd, shortHash, utcDay } from '../format';
import { type Dimension, type HealthRow, pivot, type Row, totals } from '../series';
import { useLoad } from '../use-load';

const DAY_MS = 86_400_000;
/** How far back the console looks: the activity the gateway keeps by the hour. */
const HISTORY_DAYS = 30;

interface QueryAnswer {
  data: { data: Row[] };
}

/** What the charts can draw a line for, as the select names it. */
const GROUPS: Record<Dimension, string> = { model: 'model', api_key_id: 'key' };

/** What the page shows: a range of UTC days, drawn by the hour (two days or fewer) or by the day, a line per model or key. */
interface View {
  from: string;
  to: string;
  start: number;
  end: number;
  hourly: boolean;
  stepMs: number;
  groupBy: Dimension;
}

function viewOf(range: { from: string; to: string }, groupBy: Dimension): View {
  const start = Date.parse(`${range.from}T00:00:00Z`);
  const end = Date.parse(`${range.to}T00:00:00Z`) + DAY_MS;
  const hourly = end - start <= 2 * DAY_MS;
  return { ...range, start, end, hourly, stepMs: hourly ? DAY_MS / 24 : DAY_MS, groupBy };
}

const analytics = (body: unknown) => api<QueryAnswer>('POST', '/analytics/query', body).then((answer) => answer.data.data);

const METRICS = ['request_count', 'total_usage'];
/** The range's health by model or key: errors by status class, and latency and first-token quantiles from the rollups' sketches. */
const HEALTH = ['error_count_4xx', 'error_count_5xx', 'latency_p50', 'latency_p95', 'first_token_p50', 'first_token_p95'];
const timeRangeOf = (view: View) => ({ start: new Date(view.start).toISOString(), end: new Date(view.end).toISOString() });

/** A range's totals by model and by key, for its tables, and the keys' names: loaded again only when the range changes. */
async function loadTotals(view: View) {
  const time_range = timeRangeOf(view);
  const [byModel, byKey, keys] = await Promise.all([
    analytics({ metrics: [...METRICS, ...HEALTH], dimensions: ['model'], time_range, limit: 1000 }),
    analytics({ metrics: [...METRICS, ...HEALTH], dimensions: ['api_key_id'], time_range, limit: 1000 }),
    allKeys(),
  ]);
  return { byModel: byModel as HealthRow[], byKey: byKey as HealthRow[], keys };
}

/** A view's rows by time, for its charts, with the view they were loaded for. */
async function loadLines(view: View) {
  const granularity = view.hourly ? 'hour' : 'day';
  const byTime = await analytics({
    metrics: METRICS,
    dimensions: [view.groupBy],
    granularity,
    time_range: timeRangeOf(view),
    limit: 10_000,
  });
  return { view, byTime };
}

const NO_TOTALS: { byModel: HealthRow[]; byKey: HealthRow[]; keys: KeyRecord[] } = { byModel: [], byKey: [], keys: [] };

export function Overview() {
  const today = utcDay(new Date());
  const earliest = utcDay(new Date(Date.now() - (HISTORY_DAYS - 1) * DAY_MS));
  const [range, setRange] = useState({ from: utcDay(new Date(Date.now() - 6 * DAY_MS)), to: today });
  const [draft, setDraft] = useState(range);
  const [rangeError, setRangeError] = useState<string>();
  const [groupBy, setGroupBy] = useState<Dimension>('model');

  const sums = useLoad(() => loadTotals(viewOf(range, groupBy)), [range.from, range.to]);
  const chart = useLoad(() => loadLines(viewOf(range, groupBy)), [range.from, range.to, groupBy]);
  const { byModel, byKey, keys } = sums.data ?? NO_TOTALS;
  // Drawn as it was loaded: until the next view's rows come, the last one stays whole rather than half re-labelled.
  const view = chart.data?.view ?? viewOf(range, groupBy);
  const keyNames = useMemo(() => new Map(keys.map((k) => [k.hash, k.name])), [keys]);
  const keyName = (hash: string) => keyNames.get(hash) ?? shortHash(hash);
  const lines = useMemo(
    () => pivot(chart.data?.byTime ?? [], view, view.groupBy, view.groupBy === 'api_key_id' ? keyName : undefined),
    [chart.data, keyNames],
  );
  const modelTotals = totals(byModel, 'model');
  const keyTotals = totals(byKey, 'api_key_id');
  const allSpend = modelTotals.reduce((sum, t) => sum + t.spend, 0);
  const allRequests = modelTotals.reduce((sum, t) => sum + t.requests, 0);
  const health = [...(groupBy === 'model' ? byModel : byKey)].sort((a, b) => b.request_count - a.request_count);
  const healthName = (row: HealthRow) => (groupBy === 'model' ? (row.model ?? '(none)') : keyName(row.api_key_id ?? ''));
  const allErrors = byModel.reduce((sum, r) => sum + r.error_count_4xx + r.error_count_5xx, 0);
  const summary = `${formatCount(allRequests)} requests costing ${formatUsd(allSpend)} from ${view.from} to ${view.to} (UTC), across ${modelTotals.length} models and ${keyTotals.length} keys. The tables below give the same figures.`;
  const per = view.hourly ? 'hour' : 'day';

  const apply = (event: Event) => {
    event.preventDefault();
    if (!draft.from || !draft.to || draft.from > draft.to) return setRangeError('The first day must be on or before the last day.');
    if (draft.from < earliest || draft.to > today)
      return setRangeError(`Choose days from ${earliest} to ${today}: the console shows the last ${HISTORY_DAYS} days.`);
    setRangeError(undefined);
    setRange(draft);
  };

  return (
    <>
      <form class="toolbar" onSubmit={apply} aria-label="What to show">
        <label>
          From (UTC)
          <input
            type="date"
            name="from"
            value={draft.from}
            min={earliest}
            max={today}
            required
            onInput={(e) => setDraft({ ...draft, from: e.currentTarget.value })}
          />
        </label>
        <label>
          To (UTC)
          <input
            type="date"
            name="to"
            value={draft.to}
            min={earliest}
            max={today}
            required
            onInput={(e) => setDraft({ ...draft, to: e.currentTarget.value })}
          />
        </label>
        <button type="submit">Show</button>
        <label>
          Chart by
          <select name="group" value={groupBy} onChange={(e) => setGroupBy(e.currentTarget.value as Dimension)}>
            <option value="model">Model</option>
            <option value="api_key_id">Key</option>
          </select>
        </label>
      </form>
      <ErrorNote message={rangeError ?? sums.error ?? chart.error} />
      <Loading when={sums.loading || chart.loading} />
      <div class="figures" aria-live="polite">
        <div class="figure">
          <span class="figure-label">Spend</span>
          <span class="figure-value" data-testid="total-spend">
            {formatUsd(allSpend)}
          </span>
        </div>
        <div class="figure">
          <span class="figure-label">Requests</span>
          <span class="figure-value" data-testid="total-requests">
            {formatCount(allRequests)}
          </span>
        </div>
        <div class="figure">
          <span class="figure-label">Errors</span>
          <span class="figure-value" data-testid="total-errors">
            {formatCount(allErrors)}
          </span>
        </div>
      </div>
      <Panel title={`Health by ${GROUPS[groupBy]}`} id="health">
        <Table
          caption={`Requests by how they ended, and latency and first-token time, by ${GROUPS[groupBy]} over the range`}
          rows={health}
          rowKey={(r) => healthName(r)}
          empty="No requests in this range."
          columns={[
            { title: groupBy === 'model' ? 'Model' : 'Key', cell: healthName },
            { title: 'Requests', cell: (r) => formatCount(r.request_count), numeric: true },
            { title: 'OK (2xx)', cell: (r) => formatCount(r.request_count - r.error_count_4xx - r.error_count_5xx), numeric: true },
            { title: 'Refused (4xx)', cell: (r) => formatCount(r.error_count_4xx), numeric: true },
            { title: 'Failed (5xx)', cell: (r) => formatCount(r.error_count_5xx), numeric: true },
            { title: 'Latency p50', cell: (r) => formatMs(r.latency_p50), numeric: true },
            { title: 'Latency p95', cell: (r) => formatMs(r.latency_p95), numeric: true },
            { title: 'First token p50', cell: (r) => formatMs(r.first_token_p50), numeric: true },
            { title: 'First token p95', cell: (r) => formatMs(r.first_token_p95), numeric: true },
          ]}
        />
        <p class="muted">Latencies are read from hourly sketches: within 19% of the true value.</p>
      </Panel>
      <Panel title={`Spend by ${GROUPS[view.groupBy]}, per ${per}`} id="spend-chart">
        <TimeChart title="Spend (USD)" summary={summary} times={lines.times} series={lines.spend} format={formatUsd} step={per} />
      </Panel>
      <Panel title={`Requests by ${GROUPS[view.groupBy]}, per ${per}`} id="requests-chart">
        <TimeChart title="Requests" summary={summary} times={lines.times} series={lines.requests} format={formatCount} step={per} whole />
      </Panel>
      <div class="columns">
        <Panel title="By model">
          <Table
            caption="Spend and requests by model over the range"
            rows={modelTotals}
            rowKey={(r) => r.name}
            empty="No requests in this range."
            columns={[
              { title: 'Model', cell: (r) => r.name },
              { title: 'Requests', cell: (r) => formatCount(r.requests), numeric: true },
              { title: 'Spend', cell: (r) => formatUsd(r.spend), numeric: true },
            ]}
          />
        </Panel>
        <Panel title="By key">
          <Table
            caption="Spend and requests by key over the range"
            rows={keyTotals}
            rowKey={(r) => r.name}
            empty="No requests in this range."
            columns={[
              { title: 'Key', cell: (r) => keyName(r.name) },
              { title: 'Requests', cell: (r) => formatCount(r.requests), numeric: true },
              { title: 'Spend', cell: (r) => formatUsd(r.spend), numeric: true },
            ]}
          />
        </Panel>
      </div>
    </>
  );
}
