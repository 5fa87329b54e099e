import { useState } from 'preact/hooks';
import { api, query, type Workspace } from '../api';
import { Badge, ErrorNote, LoadedTable, Panel } from '../components';
import { formatCount, formatTime } from '../format';
import { useAct } from '../use-act';
import { useLoad } from '../use-load';

/** The outbox's state for one destination (GET /observability/destinations' `delivery`). */
interface Delivery {
  pending: number;
  dead_letters: number;
  last_success_at: string | null;
  last_error: string | null;
  /** When the sender tries again after a failure; null when it is not waiting. */
  retry_at: string | null;
}

interface Destination {
  id: string;
  type: string;
  name: string;
  enabled: boolean;
  sampling_rate: number;
  privacy_mode: boolean;
  delivery: Delivery;
}

/**
 * The chosen workspace's observability destinations and how delivery to each goes: what was last sent, what waits,
 * what gave up (dead letters), which the page can put back in the queue. Destinations are made through the API.
 */
export function Destinations({ workspace }: { workspace: Workspace }) {
  const loaded = useLoad(
    () => api<{ data: Destination[] }>('GET', `/observability/destinations${query({ workspace_id: workspace.id })}`).then((r) => r.data),
    [workspace.id],
  );
  const [retried, setRetried] = useState<string>();
  const { act, error } = useAct(loaded.reload);
  const retry = (d: Destination) =>
    act(async () => {
      const { data } = await api<{ data: { retried: number } }>('POST', `/observability/destinations/${d.id}/retry`);
      setRetried(`Queued again: ${formatCount(data.retried)} dead letter${data.retried === 1 ? '' : 's'} of ${d.name}.`);
    });
  return (
    <Panel title="Destinations">
      <div class="toolbar">
        <button type="button" class="secondary" onClick={loaded.reload}>
          Refresh
        </button>
        <span role="status">{retried}</span>
      </div>
      <ErrorNote message={error} />
      <LoadedTable
        loaded={loaded}
        caption={`Observability destinations of workspace ${workspace.name} and their delivery`}
        rowKey={(d) => d.id}
        empty="No destinations: the workspace's generations are sent nowhere."
        columns={[
          { title: 'Name', cell: (d) => <span data-testid="destination-name">{d.name}</span> },
          { title: 'Type', cell: (d) => <code>{d.type}</code> },
          { title: 'Status', cell: (d) => <Badge on={d.enabled}>{d.enabled ? 'enabled' : 'disabled'}</Badge> },
          { title: 'Sampled', cell: (d) => `${d.sampling_rate * 100}%${d.privacy_mode ? ', no content' : ''}`, numeric: true },
          {
            title: 'Last success',
            cell: (d) => (
              <span data-testid="destination-last-success">
                {d.delivery.last_success_at ? formatTime(d.delivery.last_success_at) : 'never'}
              </span>
            ),
          },
          { title: 'Pending', cell: (d) => formatCount(d.delivery.pending), numeric: true },
          {
            title: 'Dead letters',
            cell: (d) => <span data-testid="destination-dead-letters">{formatCount(d.delivery.dead_letters)}</span>,
            numeric: true,
          },
          {
            title: 'Last error',
            cell: (d) =>
              d.delivery.last_error ? (
                <>
                  {d.delivery.last_error}
                  {d.delivery.retry_at && d.delivery.pending > 0 && (
                    <span class="muted"> (next try {formatTime(d.delivery.retry_at)})</span>
                  )}
                </>
              ) : (
                '—'
              ),
          },
          {
            title: 'Actions',
            cell: (d) =>
              d.delivery.dead_letters > 0 ? (
                <button type="button" class="secondary" onClick={() => retry(d)} aria-label={`Retry the dead letters of ${d.name}`}>
                  Retry
                </button>
              ) : null,
          },
        ]}
      />
    </Panel>
  );
}
