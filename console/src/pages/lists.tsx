import { useState } from 'preact/hooks';
import { api } from '../api';
import { ErrorNote, Loading, Panel, Table } from '../components';
import { formatCount, formatMs, formatTime, formatUsd } from '../format';
import { useLoad } from '../use-load';

/** A price per token as text (the API's form); a model of another kind (images, rerank) has none of some. */
interface Prices {
  prompt?: string;
  completion?: string;
}

interface Model {
  id: string;
  name: string;
  context_length: number | null;
  architecture: { modality: string };
  pricing: Prices;
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
  pricing: Prices;
  latency_last_30m: Percentiles | null;
  throughput_last_30m: Percentiles | null;
  last_error: { at: string; status: number | null; message: string } | null;
}

/** Price per token as text (the API's form) → per million tokens; none: a dash; -1 (a router's): the price of the model it picks. */
function perMillion(text: string | undefined): string {
  if (text === undefined) return '—';
  return Number(text) < 0 ? 'varies' : formatUsd(Number(text) * 1_000_000);
}

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
            title: 'Last error',
            cell: (e) =>
              e.last_error ? (
                <span data-testid="endpoint-last-error" title={formatTime(e.last_error.at)}>
                  {e.last_error.status ?? 'no answer'}: {e.last_error.message}
                </span>
              ) : (
                '—'
              ),
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
          // The modality reads like text+image->text: what goes in, what comes out.
          { title: 'Type', cell: (m) => m.architecture.modality },
          { title: 'Context', cell: (m) => (m.context_length ? formatCount(m.context_length) : 'unknown'), numeric: true },
          { title: 'Prompt / 1M', cell: (m) => perMillion(m.pricing.prompt), numeric: true },
          { title: 'Completion / 1M', cell: (m) => perMillion(m.pricing.completion), numeric: true },
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
