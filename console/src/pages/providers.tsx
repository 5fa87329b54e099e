import { api } from '../api';
import { Badge, LoadedTable, Panel } from '../components';
import { formatCount, formatPercent } from '../format';
import { useLoad } from '../use-load';

/** GET /providers' health of a provider: the routing's view over its endpoints, on this instance. */
interface ProviderHealth {
  status: 'ok' | 'degraded' | 'down' | 'unknown';
  endpoints: number;
  failing_endpoints: number;
  uptime_last_5m: number | null;
  uptime_last_30m: number | null;
  uptime_last_1d: number | null;
}

export interface Provider {
  name: string;
  slug: string;
  headquarters: string | null;
  status_page_url: string | null;
  health: ProviderHealth;
}

export const allProviders = () => api<{ data: Provider[] }>('GET', '/providers').then((r) => r.data);

/** What each status means, in the words the page shows. */
const STATUS: Record<ProviderHealth['status'], string> = {
  ok: 'healthy',
  degraded: 'some endpoints failed lately',
  down: 'every endpoint failed lately',
  unknown: 'no traffic yet',
};

function Status({ health }: { health: ProviderHealth }) {
  if (health.status === 'unknown') return <span class="muted">{STATUS.unknown}</span>;
  return <Badge on={health.status === 'ok'}>{STATUS[health.status]}</Badge>;
}

/** The providers this gateway serves (its own credentials and BYOK ones), with their health as this instance sees it. */
export function Providers() {
  const loaded = useLoad(allProviders, []);
  return (
    <Panel title="Providers">
      <p class="muted">
        Health comes from this instance's routing: an endpoint that failed in the last 30 seconds is tried last; uptime is the share of its
        attempts that were served.
      </p>
      <LoadedTable
        loaded={loaded}
        caption="Providers this gateway serves and their health"
        rowKey={(p) => p.slug}
        empty="This gateway serves no provider."
        columns={[
          { title: 'Provider', cell: (p) => p.name },
          { title: 'Slug', cell: (p) => <code>{p.slug}</code> },
          { title: 'Health', cell: (p) => <Status health={p.health} /> },
          {
            title: 'Failing / endpoints',
            cell: (p) => `${formatCount(p.health.failing_endpoints)} / ${formatCount(p.health.endpoints)}`,
            numeric: true,
          },
          { title: 'Uptime 5 min', cell: (p) => formatPercent(p.health.uptime_last_5m), numeric: true },
          { title: 'Uptime 30 min', cell: (p) => formatPercent(p.health.uptime_last_30m), numeric: true },
          { title: 'Uptime 1 day', cell: (p) => formatPercent(p.health.uptime_last_1d), numeric: true },
          { title: 'Headquarters', cell: (p) => p.headquarters ?? '—' },
          {
            title: 'Status page',
            cell: (p) =>
              p.status_page_url ? (
                <a href={p.status_page_url} rel="noreferrer noopener" target="_blank">
                  status<span class="visually-hidden"> of {p.name}</span>
                </a>
              ) : (
                '—'
              ),
          },
        ]}
      />
    </Panel>
  );
}
