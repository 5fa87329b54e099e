import { useState } from 'preact/hooks';
import { api, type Workspace } from '../api';
import { ErrorNote, Loading, Table } from '../components';
import { formatTime, formatUsd } from '../format';
import { useAct } from '../use-act';
import { useLoad } from '../use-load';

const INTERVALS = ['daily', 'weekly', 'monthly', 'lifetime'] as const;

/** The gateway's workspace budget: the reference's fields, and the current period's usage, what is left and when it resets. */
interface Budget {
  id: string;
  limit_usd: number;
  /** null for a lifetime budget, as in the reference. */
  reset_interval: string | null;
  usage: number;
  remaining: number;
  resets_at: string | null;
}

const intervalOf = (b: Budget) => b.reset_interval ?? 'lifetime';

/** A workspace's budgets per interval, each with a bar of what the current period spent of it; set (PUT) or remove one. */
export function Budgets({ workspace }: { workspace: Workspace }) {
  const path = `/workspaces/${workspace.id}/budgets`;
  const budgets = useLoad(() => api<{ data: Budget[]; include_byok_in_budgets: boolean }>('GET', path), [workspace.id]);
  const [form, setForm] = useState({ interval: 'daily', limit: '', byok: '' });
  const { act, error, busy } = useAct(budgets.reload);
  const submit = async (event: Event) => {
    event.preventDefault();
    const body = { limit_usd: Number(form.limit), ...(form.byok ? { include_byok_in_budgets: form.byok === 'yes' } : {}) };
    if (await act(() => api('PUT', `${path}/${form.interval}`, body))) setForm({ ...form, limit: '', byok: '' });
  };
  return (
    <>
      <h4>Budgets</h4>
      <ErrorNote message={budgets.error} />
      <Loading when={budgets.loading && !budgets.data} />
      <Table
        caption={`Budgets of workspace ${workspace.name}`}
        rows={budgets.data?.data ?? []}
        rowKey={(b) => b.id}
        empty="No budgets: the workspace spends as its keys' limits and the organization's credits allow."
        columns={[
          { title: 'Interval', cell: intervalOf },
          { title: 'Limit', cell: (b) => formatUsd(b.limit_usd), numeric: true },
          {
            title: 'Used',
            cell: (b) => (
              <meter
                class="budget"
                min={0}
                max={b.limit_usd || 1}
                high={(b.limit_usd || 1) * 0.8}
                value={Math.min(b.usage, b.limit_usd)}
                aria-label={`${intervalOf(b)} budget used`}
              />
            ),
          },
          { title: 'Spent', cell: (b) => <span data-testid={`budget-spent-${intervalOf(b)}`}>{formatUsd(b.usage)}</span>, numeric: true },
          { title: 'Remaining', cell: (b) => formatUsd(b.remaining), numeric: true },
          { title: 'Resets', cell: (b) => (b.resets_at ? formatTime(b.resets_at) : 'never') },
          {
            title: 'Actions',
            cell: (b) => (
              <button
                type="button"
                class="danger"
                aria-label={`Remove the ${intervalOf(b)} budget`}
                onClick={() => act(() => api('DELETE', `${path}/${intervalOf(b)}`))}
              >
                Remove
              </button>
            ),
          },
        ]}
      />
      <p class="muted">BYOK spend {budgets.data?.include_byok_in_budgets ? 'counts' : 'does not count'} against these budgets.</p>
      <form class="inline-form" onSubmit={submit} aria-label={`Set a budget of ${workspace.name}`}>
        <label>
          Interval
          <select name="interval" value={form.interval} onChange={(e) => setForm({ ...form, interval: e.currentTarget.value })}>
            {INTERVALS.map((interval) => (
              <option key={interval} value={interval}>
                {interval}
              </option>
            ))}
          </select>
        </label>
        <label>
          Limit (USD)
          <input
            name="limit_usd"
            type="number"
            min="0"
            step="0.01"
            inputMode="decimal"
            required
            value={form.limit}
            onInput={(e) => setForm({ ...form, limit: e.currentTarget.value })}
          />
        </label>
        <label>
          BYOK spend
          <select name="include_byok_in_budgets" value={form.byok} onChange={(e) => setForm({ ...form, byok: e.currentTarget.value })}>
            <option value="">unchanged</option>
            <option value="yes">counts</option>
            <option value="no">does not count</option>
          </select>
        </label>
        <button type="submit" disabled={busy}>
          Set budget
        </button>
        <ErrorNote message={error} />
      </form>
    </>
  );
}
