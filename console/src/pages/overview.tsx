import { useMemo, useState } from 'preact/hooks';
import { allKeys, api, type KeyRecord } from '../api';
import { TimeChart } from '../chart';
import { ErrorNote, Loading, Panel, Table } from '../components';
import { formatCount, formatUsd, shortHash, utcDay } from '../format';
import { pivot, type Row, totals } from '../series';
import { useLoad } from '../use-load';

const DAY_MS = 86_400_000;
/** How far back the console looks: the activity the gateway keeps by the hour. */
const HISTORY_DAYS = 30;

interface QueryAnswer {
  data: { data: Row[] };
}

const NOTHING: [Row[], Row[], KeyRecord[]] = [[], [], []];

const analytics = (body: unknown) => api<QueryAnswer>('POST', '/analytics/query', body).then((answer) => answer.data.data);

export function Overview() {
  const today = utcDay(new Date());
  const earliest = utcDay(new Date(Date.now() - (HISTORY_DAYS - 1) * DAY_MS));
  const [range, setRange] = useState({ from: utcDay(new Date(Date.now() - 6 * DAY_MS)), to: today });
  const [draft, setDraft] = useState(range);
  const [rangeError, setRangeError] = useState<string>();

  const start = Date.parse(`${range.from}T00:00:00Z`);
  const end = Date.parse(`${range.to}T00:00:00Z`) + DAY_MS;
  // Two days or fewer are drawn by the hour, longer ranges by the day.
  const hourly = end - start <= 2 * DAY_MS;
  const stepMs = hourly ? DAY_MS / 24 : DAY_MS;
  const timeRange = { start: new Date(start).toISOString(), end: new Date(end).toISOString() };

  const loaded = useLoad(
    () =>
      Promise.all([
        analytics({
          metrics: ['request_count', 'total_usage'],
          dimensions: ['model'],
          granularity: hourly ? 'hour' : 'day',
          time_range: timeRange,
          limit: 10_000,
        }),
        analytics({ metrics: ['request_count', 'total_usage'], dimensions: ['api_key_id'], time_range: timeRange, limit: 1000 }),
        allKeys(),
      ]),
    [range.from, range.to],
  );
  const [byTime, byKey, keys] = loaded.data ?? NOTHING;
  const spend = useMemo(() => pivot(byTime, start, end, stepMs, 'total_usage'), [byTime]);
  const requests = useMemo(() => pivot(byTime, start, end, stepMs, 'request_count'), [byTime]);
  const modelTotals = totals(byTime, 'model');
  const keyNames = new Map(keys.map((k) => [k.hash, k.name]));
  const keyTotals = totals(byKey, 'api_key_id');
  const allSpend = modelTotals.reduce((sum, t) => sum + t.spend, 0);
  const allRequests = modelTotals.reduce((sum, t) => sum + t.requests, 0);
  const summary = `${formatCount(allRequests)} requests costing ${formatUsd(allSpend)} from ${range.from} to ${range.to} (UTC), across ${modelTotals.length} models. The tables below give the same figures.`;

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
      <form class="toolbar" onSubmit={apply} aria-label="Date range">
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
      </form>
      <ErrorNote message={rangeError ?? loaded.error} />
      <Loading when={loaded.loading} />
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
      </div>
      <Panel title={`Spend by model, per ${hourly ? 'hour' : 'day'}`} id="spend-chart">
        <TimeChart
          title="Spend (USD)"
          summary={summary}
          times={spend.times}
          series={spend.series}
          format={formatUsd}
          step={hourly ? 'hour' : 'day'}
        />
      </Panel>
      <Panel title={`Requests by model, per ${hourly ? 'hour' : 'day'}`} id="requests-chart">
        <TimeChart
          title="Requests"
          summary={summary}
          times={requests.times}
          series={requests.series}
          format={formatCount}
          step={hourly ? 'hour' : 'day'}
          whole
        />
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
              { title: 'Key', cell: (r) => keyNames.get(r.name) ?? shortHash(r.name) },
              { title: 'Requests', cell: (r) => formatCount(r.requests), numeric: true },
              { title: 'Spend', cell: (r) => formatUsd(r.spend), numeric: true },
            ]}
          />
        </Panel>
      </div>
    </>
  );
}
