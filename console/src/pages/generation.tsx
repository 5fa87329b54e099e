import { api, type Generation as GenerationRecord } from '../api';
import { ErrorNote, Loading, Panel, Table } from '../components';
import { formatCount, formatMs, formatTime, formatUsd } from '../format';
import { href } from '../router';
import { useLoad } from '../use-load';

export function Generation({ id }: { id: string }) {
  const loaded = useLoad(
    () => api<{ data: GenerationRecord }>('GET', `/generation?id=${encodeURIComponent(id)}`).then((r) => r.data),
    [id],
  );
  const g = loaded.data;
  return (
    <>
      <p>
        <a href={href('generations')}>← All generations</a>
      </p>
      <ErrorNote message={loaded.error} />
      <Loading when={loaded.loading} />
      {g && (
        <>
          <Panel title="Summary">
            <dl class="facts">
              <dt>Id</dt>
              <dd>
                <code>{g.id}</code>
              </dd>
              <dt>Time</dt>
              <dd>{formatTime(g.created_at)}</dd>
              <dt>Status</dt>
              <dd>{g.status}</dd>
              <dt>Model</dt>
              <dd>{g.model}</dd>
              <dt>Provider</dt>
              <dd>{g.provider_name ?? '—'}</dd>
              <dt>Cost</dt>
              <dd data-testid="generation-cost">{formatUsd(g.total_cost)}</dd>
              <dt>Prompt tokens</dt>
              <dd>{formatCount(g.tokens_prompt)}</dd>
              <dt>Completion tokens</dt>
              <dd>{formatCount(g.tokens_completion)}</dd>
              <dt>Reasoning tokens</dt>
              <dd>{formatCount(g.native_tokens_reasoning)}</dd>
              <dt>Cached tokens</dt>
              <dd>{formatCount(g.native_tokens_cached)}</dd>
              <dt>Counted by</dt>
              <dd>{g.usage_estimated ? 'the gateway (the provider reported none it could bill)' : 'the provider'}</dd>
              <dt>Latency</dt>
              <dd>{formatMs(g.latency)}</dd>
              <dt>Time to first token</dt>
              <dd>{formatMs(g.time_to_first_token)}</dd>
              <dt>Generation time</dt>
              <dd>{formatMs(g.generation_time)}</dd>
              <dt>Streamed</dt>
              <dd>{g.streamed ? 'yes' : 'no'}</dd>
              <dt>Finish reason</dt>
              <dd>{g.finish_reason ?? '—'}</dd>
              {g.error && (
                <>
                  <dt>Error</dt>
                  <dd>
                    {g.error.code} {g.error.message}
                  </dd>
                </>
              )}
            </dl>
          </Panel>
          <Panel title="Routing attempts">
            {g.routing?.strategy && <p>Strategy: {g.routing.strategy}</p>}
            <Table
              caption="Routing attempts in the order they were made"
              rows={(g.routing?.attempts ?? []).map((a, i) => ({ ...a, n: i + 1 }))}
              rowKey={(a) => String(a.n)}
              empty="No attempt was made."
              columns={[
                { title: '#', cell: (a) => a.n, numeric: true },
                { title: 'Model', cell: (a) => a.model },
                { title: 'Provider', cell: (a) => a.provider },
                {
                  title: 'Outcome',
                  cell: (a) =>
                    a.status === 'success' ? 'served' : `failed: ${a.error?.failure ?? ''}${a.error?.status ? ` (${a.error.status})` : ''}`,
                },
                { title: 'Detail', cell: (a) => a.error?.message ?? '' },
                { title: 'Latency', cell: (a) => formatMs(a.latency_ms), numeric: true },
              ]}
            />
          </Panel>
          <Panel title="Pipeline stages">
            <Table
              caption="Plugin and guardrail stages in the order they ran"
              rows={(g.routing?.pipeline ?? []).map((p, i) => ({ ...p, n: i + 1 }))}
              rowKey={(p) => String(p.n)}
              empty="No plugin or guardrail stage ran."
              columns={[
                { title: '#', cell: (p) => p.n, numeric: true },
                { title: 'Type', cell: (p) => p.type },
                // A guardrail's stage is named by the guardrail that ran.
                { title: 'Name', cell: (p) => (typeof p.data?.guardrail_name === 'string' ? p.data.guardrail_name : p.name) },
                { title: 'Summary', cell: (p) => p.summary ?? '' },
              ]}
            />
          </Panel>
        </>
      )}
    </>
  );
}
