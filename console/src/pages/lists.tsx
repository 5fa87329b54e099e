import { useState } from 'preact/hooks';
import { api } from '../api';
import { ErrorNote, Loading, Panel, Table } from '../components';
import { formatCount, formatMs, formatTime, formatUsd } from '../format';
import { useLoad } from '../use-load';

interface Guardrail {
  id: string;
  name: string;
  description: string | null;
  limit_usd: number | null;
  reset_interval: string | null;
  allowed_models?: string[] | null;
  allowed_providers?: string[] | null;
  created_at: string;
}

export function Guardrails() {
  const loaded = useLoad(() => api<{ data: Guardrail[]; total_count: number }>('GET', '/guardrails?limit=100'), []);
  return (
    <Panel title="Guardrails">
      <ErrorNote message={loaded.error} />
      <Loading when={loaded.loading} />
      <Table
        caption="Guardrails of the default workspace"
        rows={loaded.data?.data ?? []}
        rowKey={(g) => g.id}
        empty="No guardrails. Create them through the API (POST /api/v1/guardrails)."
        columns={[
          { title: 'Name', cell: (g) => g.name },
          { title: 'Description', cell: (g) => g.description ?? '' },
          {
            title: 'Budget',
            cell: (g) => (g.limit_usd === null ? 'none' : `${formatUsd(g.limit_usd)}${g.reset_interval ? ` ${g.reset_interval}` : ''}`),
            numeric: true,
          },
          { title: 'Models', cell: (g) => g.allowed_models?.join(', ') || 'any' },
          { title: 'Providers', cell: (g) => g.allowed_providers?.join(', ') || 'any' },
          { title: 'Created', cell: (g) => formatTime(g.created_at) },
        ]}
      />
    </Panel>
  );
}

interface Member {
  id: string;
  email: string | null;
  first_name: string | null;
  last_name: string | null;
  role: string;
}

export function Members() {
  const loaded = useLoad(() => api<{ data: Member[]; total_count: number }>('GET', '/organization/members?limit=100'), []);
  return (
    <Panel title="Members">
      <ErrorNote message={loaded.error} />
      <Loading when={loaded.loading} />
      <Table
        caption="Members of the organization"
        rows={loaded.data?.data ?? []}
        rowKey={(m) => m.id}
        empty="No members."
        columns={[
          { title: 'Name', cell: (m) => [m.first_name, m.last_name].filter(Boolean).join(' ') || '—' },
          { title: 'Email', cell: (m) => m.email ?? '—' },
          { title: 'Role', cell: (m) => m.role.replace('org:', '') },
          { title: 'Id', cell: (m) => <code>{m.id}</code> },
        ]}
      />
    </Panel>
  );
}

interface Model {
  id: string;
  name: string;
  context_length: number | null;
}

interface Percentiles {
  p50: number;
  p90: number;
}

interface Endpoint {
  name: string;
  provider_name: string;
  status: number;
  context_length: number;
  pricing: { prompt: string; completion: string };
  latency_last_30m: Percentiles | null;
  throughput_last_30m: Percentiles | null;
}

/** Price per token as text (the API's form) → per million tokens. */
const perMillion = (text: string) => formatUsd(Number(text) * 1_000_000);

function Endpoints({ model }: { model: string }) {
  const [author, slug] = model.split('/');
  const loaded = useLoad(
    () => api<{ data: { endpoints: Endpoint[] } }>('GET', `/models/${author}/${slug}/endpoints`).then((r) => r.data.endpoints),
    [model],
  );
  return (
    <>
      <ErrorNote message={loaded.error} />
      <Loading when={loaded.loading} />
      <Table
        caption={`Endpoints of ${model} and their health`}
        rows={loaded.data ?? []}
        rowKey={(e) => e.name}
        empty="This model serves through the models it routes to."
        columns={[
          { title: 'Provider', cell: (e) => e.provider_name },
          {
            title: 'Health',
            cell: (e) => (e.status === 0 ? <span class="badge on">healthy</span> : <span class="badge off">failed lately</span>),
          },
          {
            title: 'Latency p50 / p90',
            cell: (e) => (e.latency_last_30m ? `${formatMs(e.latency_last_30m.p50)} / ${formatMs(e.latency_last_30m.p90)}` : 'no traffic'),
            numeric: true,
          },
          {
            title: 'Tokens/s p50',
            cell: (e) => (e.throughput_last_30m ? formatCount(Math.round(e.throughput_last_30m.p50)) : '—'),
            numeric: true,
          },
          { title: 'Prompt / 1M', cell: (e) => perMillion(e.pricing.prompt), numeric: true },
          { title: 'Completion / 1M', cell: (e) => perMillion(e.pricing.completion), numeric: true },
          { title: 'Context', cell: (e) => (e.context_length ? formatCount(e.context_length) : 'unknown'), numeric: true },
        ]}
      />
    </>
  );
}

export function Models() {
  const loaded = useLoad(() => api<{ data: Model[] }>('GET', '/models').then((r) => r.data), []);
  const [open, setOpen] = useState<string>();
  const [filter, setFilter] = useState('');
  const models = (loaded.data ?? []).filter((m) => m.id.includes(filter.trim()));
  return (
    <Panel title="Models">
      <form class="toolbar" onSubmit={(e) => e.preventDefault()} aria-label="Find a model">
        <label>
          Find
          <input type="search" name="find" value={filter} onInput={(e) => setFilter(e.currentTarget.value)} />
        </label>
      </form>
      <ErrorNote message={loaded.error} />
      <Loading when={loaded.loading} />
      <Table
        caption="Models this gateway serves"
        rows={models}
        rowKey={(m) => m.id}
        empty="No model matches."
        columns={[
          { title: 'Model', cell: (m) => <code>{m.id}</code> },
          { title: 'Name', cell: (m) => m.name },
          { title: 'Context', cell: (m) => formatCount(m.context_length), numeric: true },
          {
            title: 'Endpoints',
            cell: (m) => (
              <button
                type="button"
                class="secondary"
                aria-expanded={open === m.id}
                onClick={() => setOpen(open === m.id ? undefined : m.id)}
              >
                {open === m.id ? 'Hide' : 'Show'} endpoints<span class="visually-hidden"> of {m.id}</span>
              </button>
            ),
          },
        ]}
      />
      {open && (
        <section class="panel nested" aria-label={`Endpoints of ${open}`}>
          <h3>Endpoints of {open}</h3>
          <Endpoints model={open} />
        </section>
      )}
    </Panel>
  );
}
