import { useState } from 'preact/hooks';
import { allPages, api, type Workspace } from '../api';
import { Badge, ConfirmButton, ErrorNote, LoadedTable, Panel, ToggleButton } from '../components';
import { formatTime } from '../format';
import { useAct } from '../use-act';
import { useLoad } from '../use-load';
import { allProviders } from './providers';

/** The reference's BYOKKey: everything about a provider credential but the key, which the gateway never returns. */
interface Credential {
  id: string;
  provider: string;
  name: string | null;
  /** The key's first and last characters. */
  label: string;
  /** null: the organization's, for every workspace. */
  workspace_id: string | null;
  is_fallback: boolean;
  sort_order: number;
  disabled: boolean;
  created_at: string;
}

/** The credentials the workspace's requests may use: its own, and the organization's (GET /byok lists both). */
const credentialsOf = (workspace: Workspace) => allPages<Credential>('/byok', { workspace_id: workspace.id });

const EMPTY = { provider: '', key: '', name: '', scope: 'workspace', sortOrder: '0', fallback: false };

function AddCredential({ workspace, onAdded }: { workspace: Workspace; onAdded: () => void }) {
  const providers = useLoad(allProviders, []);
  const [form, setForm] = useState(EMPTY);
  const { act, error, busy } = useAct(onAdded);
  const provider = form.provider || providers.data?.[0]?.slug || '';
  const submit = async (event: Event) => {
    event.preventDefault();
    const added = await act(() =>
      api('POST', '/byok', {
        provider,
        key: form.key,
        name: form.name.trim() || null,
        workspace_id: form.scope === 'workspace' ? workspace.id : null,
        sort_order: Number(form.sortOrder),
        is_fallback: form.fallback,
      }),
    );
    // The key has gone to the gateway, which keeps it sealed: the page lets go of it.
    if (added) setForm(EMPTY);
  };
  return (
    <form class="stack" onSubmit={submit} aria-label="Add a provider key">
      <div class="row">
        <label>
          Provider
          <select name="provider" required value={provider} onChange={(e) => setForm({ ...form, provider: e.currentTarget.value })}>
            {(providers.data ?? []).map((p) => (
              <option key={p.slug} value={p.slug}>
                {p.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          Key (sent once, never shown)
          <input
            name="key"
            type="password"
            required
            maxLength={8192}
            autoComplete="off"
            spellcheck={false}
            value={form.key}
            onInput={(e) => setForm({ ...form, key: e.currentTarget.value })}
          />
        </label>
        <label>
          Name
          <input name="name" maxLength={255} value={form.name} onInput={(e) => setForm({ ...form, name: e.currentTarget.value })} />
        </label>
      </div>
      <div class="row">
        <label>
          Used by
          <select name="scope" value={form.scope} onChange={(e) => setForm({ ...form, scope: e.currentTarget.value })}>
            <option value="workspace">workspace {workspace.name}</option>
            <option value="organization">every workspace (the organization's)</option>
          </select>
        </label>
        <label>
          Sort order (lowest tried first)
          <input
            name="sort_order"
            type="number"
            step="1"
            required
            value={form.sortOrder}
            onInput={(e) => setForm({ ...form, sortOrder: e.currentTarget.value })}
          />
        </label>
        <label class="check">
          <input
            name="is_fallback"
            type="checkbox"
            checked={form.fallback}
            onChange={(e) => setForm({ ...form, fallback: e.currentTarget.checked })}
          />
          Only after the gateway's own key failed (fallback)
        </label>
      </div>
      <ErrorNote message={error ?? providers.error} />
      <div>
        <button type="submit" disabled={busy || !provider}>
          Add provider key
        </button>
      </div>
    </form>
  );
}

/**
 * The provider keys (BYOK credentials) the chosen workspace's requests may use: its own and the organization's.
 * A key is sent once, when added; the gateway keeps it sealed and answers only its label.
 */
export function Byok({ workspace }: { workspace: Workspace }) {
  const loaded = useLoad(() => credentialsOf(workspace), [workspace.id]);
  const { act, error } = useAct(loaded.reload);
  const nameOf = (c: Credential) => c.name ?? `${c.provider} ${c.label}`;
  return (
    <>
      <Panel title={`Add a provider key for workspace ${workspace.name}`} id="add-a-provider-key">
        <p class="muted">
          Requests of the workspace's keys go out on it to its provider, which bills your account. The key is sent once and never shown
          again: the gateway keeps it encrypted and shows only its first and last characters.
        </p>
        <AddCredential workspace={workspace} onAdded={loaded.reload} />
      </Panel>
      <Panel title="Provider keys">
        <ErrorNote message={error} />
        <LoadedTable
          loaded={loaded}
          caption={`Provider keys of workspace ${workspace.name}`}
          rowKey={(c) => c.id}
          empty="No provider keys: requests go out on the gateway's own."
          columns={[
            { title: 'Provider', cell: (c) => <code>{c.provider}</code> },
            { title: 'Name', cell: (c) => <span data-testid="byok-name">{c.name ?? '—'}</span> },
            { title: 'Key', cell: (c) => <code>{c.label}</code> },
            { title: 'Workspace', cell: (c) => (c.workspace_id === null ? 'every workspace' : workspace.name) },
            { title: 'Status', cell: (c) => <Badge on={!c.disabled}>{c.disabled ? 'disabled' : 'active'}</Badge> },
            { title: 'Sort order', cell: (c) => c.sort_order, numeric: true },
            { title: 'Fallback', cell: (c) => (c.is_fallback ? 'yes' : 'no') },
            { title: 'Added', cell: (c) => formatTime(c.created_at) },
            {
              title: 'Actions',
              cell: (c) => (
                <div class="actions">
                  <ToggleButton
                    disabled={c.disabled}
                    name={nameOf(c)}
                    onToggle={(disabled) => act(() => api('PATCH', `/byok/${c.id}`, { disabled }))}
                  />
                  <ConfirmButton
                    label="Delete"
                    name={nameOf(c)}
                    question={`Delete provider key “${nameOf(c)}”? The gateway wipes it for good.`}
                    onConfirm={() => act(() => api('DELETE', `/byok/${c.id}`))}
                  />
                </div>
              ),
            },
          ]}
        />
      </Panel>
    </>
  );
}
