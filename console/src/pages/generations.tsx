import { useState } from 'preact/hooks';
import { allKeys, api, type Generation, query } from '../api';
import { ErrorNote, Loading, Pager, Panel, Table } from '../components';
import { formatCount, formatMs, formatTime, formatUsd, shortHash } from '../format';
import { href } from '../router';
import { useLoad } from '../use-load';

const PAGE = 50;

/**
 * What sets a generation apart at a glance: refused before any upstream call (a ledger row with no
 * attempt), served or failed after falling back past a first attempt, streamed.
 */
function marks(g: Generation): string[] {
  const attempts = g.routing?.attempts?.length ?? 0;
  return [
    ...(g.status === 'error' && attempts === 0 && !g.provider_name ? ['refused'] : []),
    ...(attempts > 1 ? ['fallback'] : []),
    ...(g.streamed ? ['stream'] : []),
  ];
}

interface Filters {
  key: string;
  model: string;
  status: string;
  from: string;
  to: string;
}

/** A datetime-local value (read as UTC) as the API takes it. */
const utcTime = (local: string) => (local ? new Date(`${local}:00Z`).toISOString() : undefined);

export function Generations({ params }: { params: URLSearchParams }) {
  const initial: Filters = {
    key: params.get('key') ?? '',
    model: params.get('model') ?? '',
    status: params.get('status') ?? '',
    from: '',
    to: '',
  };
  const [draft, setDraft] = useState(initial);
  const [filters, setFilters] = useState(initial);
  const [offset, setOffset] = useState(0);
  const keys = useLoad(() => allKeys(), []);
  const page = useLoad(
    () =>
      api<{ data: Generation[]; has_more: boolean }>(
        'GET',
        `/generations${query({ api_key_hash: filters.key || undefined, model: filters.model || undefined, status: filters.status || undefined, from: utcTime(filters.from), to: utcTime(filters.to), offset, limit: PAGE })}`,
      ),
    [filters, offset],
  );
  const keyNames = new Map((keys.data ?? []).map((k) => [k.hash, k.name]));
  const apply = (event: Event) => {
    event.preventDefault();
    setOffset(0);
    setFilters(draft);
  };
  const set = (field: keyof Filters) => (event: { currentTarget: HTMLInputElement | HTMLSelectElement }) =>
    setDraft({ ...draft, [field]: event.currentTarget.value });
  return (
    <>
      <form class="toolbar" onSubmit={apply} aria-label="Filter generations">
        <label>
          Key
          <select name="key" value={draft.key} onChange={set('key')}>
            <option value="">all keys</option>
            {(keys.data ?? []).map((k) => (
              <option value={k.hash} key={k.hash}>
                {k.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          Model
          <input name="model" value={draft.model} placeholder="any" onInput={set('model')} />
        </label>
        <label>
          Status
          <select name="status" value={draft.status} onChange={set('status')}>
            <option value="">any</option>
            <option value="success">success</option>
            <option value="error">error</option>
            <option value="cancelled">cancelled</option>
          </select>
        </label>
        <label>
          From (UTC)
          <input name="from" type="datetime-local" value={draft.from} onInput={set('from')} />
        </label>
        <label>
          To (UTC)
          <input name="to" type="datetime-local" value={draft.to} onInput={set('to')} />
        </label>
        <button type="submit">Search</button>
      </form>
      <Panel title="Generations">
        <ErrorNote message={page.error} />
        <Loading when={page.loading} />
        <Table
          caption="Generations, newest first"
          rows={page.data?.data ?? []}
          rowKey={(g) => g.id}
          empty="No generation matches."
          columns={[
            { title: 'Time', cell: (g) => <a href={href('generations', g.id)}>{formatTime(g.created_at)}</a> },
            {
              title: 'Key',
              cell: (g) =>
                g.api_key_hash ? (
                  <a href={href('keys', g.api_key_hash)}>{keyNames.get(g.api_key_hash) ?? shortHash(g.api_key_hash)}</a>
                ) : (
                  '—'
                ),
            },
            { title: 'Model', cell: (g) => g.model },
            { title: 'Provider', cell: (g) => g.provider_name ?? '—' },
            {
              title: 'Status',
              // A failure shows its HTTP status, and why on hover: a refusal (4xx) reads apart from a provider's failure.
              cell: (g) => (
                <span class={`badge ${g.status === 'success' ? 'on' : 'off'}`} title={g.error?.message ?? undefined}>
                  {g.error?.code ? `${g.status} ${g.error.code}` : g.status}
                </span>
              ),
            },
            {
              title: 'Marks',
              // A refusal names its error (X-Error-Code's name) beside the mark: why the gateway said no.
              cell: (g) => (
                <span class="marks" data-testid="generation-marks">
                  {marks(g).map((mark) => (
                    <span class={`badge mark-${mark}`} key={mark}>
                      {mark}
                    </span>
                  ))}
                  {g.error?.name && marks(g).includes('refused') ? <code>{g.error.name}</code> : null}
                </span>
              ),
            },
            { title: 'Tokens', cell: (g) => `${formatCount(g.tokens_prompt)} → ${formatCount(g.tokens_completion)}`, numeric: true },
            { title: 'Cost', cell: (g) => formatUsd(g.total_cost), numeric: true },
            { title: 'Latency', cell: (g) => formatMs(g.latency), numeric: true },
          ]}
        />
        <Pager
          of="generations"
          labels={['Newer', 'Older']}
          onPrevious={offset > 0 ? () => setOffset(Math.max(0, offset - PAGE)) : undefined}
          onNext={page.data?.has_more ? () => setOffset(offset + PAGE) : undefined}
        >
          <span>{page.data?.data.length ? `${offset + 1}–${offset + page.data.data.length}` : ''}</span>
        </Pager>
      </Panel>
    </>
  );
}
