import { useState } from 'preact/hooks';
import { api, KEYS_PAGE, type KeyRecord, query, type Workspace } from '../api';
import { ErrorNote, Loading, Pager, Panel, Table } from '../components';
import { formatTime, formatUsd, utcDay } from '../format';
import { href } from '../router';
import { useLoad } from '../use-load';

/** An expiry day (YYYY-MM-DD) as the API takes it: the end of that UTC day. */
const expiryOf = (day: string) => (day ? `${day}T23:59:59.000Z` : null);
const limitOf = (text: string) => (text.trim() === '' ? null : Number(text));

function CreatedKey({ created, onDone }: { created: { name: string; key: string }; onDone: () => void }) {
  const [copied, setCopied] = useState('');
  const copy = () =>
    navigator.clipboard.writeText(created.key).then(
      () => setCopied('Copied to the clipboard.'),
      () => setCopied('This browser refused the clipboard: select the key and copy it.'),
    );
  return (
    <section class="notice" aria-labelledby="created-key-heading">
      <h3 id="created-key-heading">Key “{created.name}” created</h3>
      <p>Copy it now: it is shown only this once, and the gateway keeps only its hash.</p>
      <p>
        <code class="secret" data-testid="created-key">
          {created.key}
        </code>
      </p>
      <button type="button" onClick={copy}>
        Copy key
      </button>{' '}
      <span role="status">{copied}</span>{' '}
      <button type="button" class="secondary" onClick={onDone}>
        Done
      </button>
    </section>
  );
}

function CreateKey({ workspace, onCreated }: { workspace: Workspace; onCreated: (created: { name: string; key: string }) => void }) {
  const [form, setForm] = useState({ name: '', limit: '', reset: '', expires: '' });
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const answer = await api<{ key: string; data: KeyRecord }>('POST', '/keys', {
        name: form.name,
        limit: limitOf(form.limit),
        ...(form.reset ? { limit_reset: form.reset } : {}),
        expires_at: expiryOf(form.expires),
        workspace_id: workspace.id,
      });
      setForm({ name: '', limit: '', reset: '', expires: '' });
      onCreated({ name: answer.data.name, key: answer.key });
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="stack" onSubmit={submit} aria-label="Create a key">
      <div class="row">
        <label>
          Name
          <input name="name" required value={form.name} onInput={(e) => setForm({ ...form, name: e.currentTarget.value })} />
        </label>
        <label>
          Limit (USD, empty for none)
          <input
            name="limit"
            type="number"
            min="0"
            step="0.01"
            inputMode="decimal"
            value={form.limit}
            onInput={(e) => setForm({ ...form, limit: e.currentTarget.value })}
          />
        </label>
        <label>
          Limit resets
          <select name="limit_reset" value={form.reset} onChange={(e) => setForm({ ...form, reset: e.currentTarget.value })}>
            <option value="">never</option>
            <option value="daily">daily</option>
            <option value="weekly">weekly</option>
            <option value="monthly">monthly</option>
          </select>
        </label>
        <label>
          Expires (UTC day, empty for never)
          <input
            name="expires"
            type="date"
            min={utcDay(new Date())}
            value={form.expires}
            onInput={(e) => setForm({ ...form, expires: e.currentTarget.value })}
          />
        </label>
      </div>
      <ErrorNote message={error} />
      <div>
        <button type="submit" disabled={busy}>
          Create key
        </button>
      </div>
    </form>
  );
}

function EditKey({ record, onSaved, onCancel }: { record: KeyRecord; onSaved: () => void; onCancel: () => void }) {
  const [form, setForm] = useState({
    limit: record.limit === null ? '' : String(record.limit),
    expires: record.expires_at ? record.expires_at.slice(0, 10) : '',
  });
  const [error, setError] = useState<string>();
  const submit = async (event: Event) => {
    event.preventDefault();
    try {
      await api('PATCH', `/keys/${record.hash}`, { limit: limitOf(form.limit), expires_at: expiryOf(form.expires) });
      onSaved();
    } catch (e) {
      setError((e as Error).message);
    }
  };
  return (
    <form class="inline-form" onSubmit={submit} aria-label={`Edit key ${record.name}`}>
      <label>
        Limit (USD)
        <input
          name="limit"
          type="number"
          min="0"
          step="0.01"
          value={form.limit}
          onInput={(e) => setForm({ ...form, limit: e.currentTarget.value })}
        />
      </label>
      <label>
        Expires (UTC day)
        <input name="expires" type="date" value={form.expires} onInput={(e) => setForm({ ...form, expires: e.currentTarget.value })} />
      </label>
      <button type="submit">Save</button>{' '}
      <button type="button" class="secondary" onClick={onCancel}>
        Cancel
      </button>
      <ErrorNote message={error} />
    </form>
  );
}

/**
 * The keys of the workspace chosen in the switcher; a key created here belongs to it.
 * Focused on one key (#/keys/<hash>, a generation's link): that key alone, whichever its workspace.
 */
export function Keys({ workspace, workspaces, focus }: { workspace: Workspace; workspaces: Workspace[]; focus?: string }) {
  const [offset, setOffset] = useState(0);
  const keys = useLoad(
    () =>
      focus
        ? api<{ data: KeyRecord }>('GET', `/keys/${encodeURIComponent(focus)}`).then((r) => [r.data])
        : api<{ data: KeyRecord[] }>('GET', `/keys${query({ include_disabled: true, offset, workspace_id: workspace.id })}`).then(
            (r) => r.data,
          ),
    [offset, focus],
  );
  const workspaceName = (id: string) => workspaces.find((w) => w.id === id)?.name ?? id;
  const [created, setCreated] = useState<{ name: string; key: string }>();
  const [editing, setEditing] = useState<string>();
  const [error, setError] = useState<string>();
  const act = async (action: () => Promise<unknown>) => {
    setError(undefined);
    try {
      await action();
      keys.reload();
    } catch (e) {
      setError((e as Error).message);
    }
  };
  const remove = (record: KeyRecord) => {
    if (confirm(`Delete key “${record.name}”? Requests with it will be refused.`)) void act(() => api('DELETE', `/keys/${record.hash}`));
  };
  const table = (
    <Table
      caption={focus ? 'The key' : `Keys of workspace ${workspace.name}`}
      rows={keys.data ?? []}
      rowKey={(k) => k.hash}
      empty="No keys yet."
      columns={[
        { title: 'Name', cell: (k) => <span data-testid="key-name">{k.name}</span> },
        { title: 'Key', cell: (k) => <code>{k.label}</code> },
        { title: 'Workspace', cell: (k) => <span data-testid="key-workspace">{workspaceName(k.workspace_id)}</span> },
        { title: 'Status', cell: (k) => (k.disabled ? <span class="badge off">disabled</span> : <span class="badge on">active</span>) },
        { title: 'Spent', cell: (k) => formatUsd(k.usage), numeric: true },
        {
          title: 'Limit',
          cell: (k) => (k.limit === null ? 'none' : `${formatUsd(k.limit)}${k.limit_reset ? ` ${k.limit_reset}` : ''}`),
          numeric: true,
        },
        { title: 'Expires', cell: (k) => (k.expires_at ? formatTime(k.expires_at) : 'never') },
        {
          title: 'Actions',
          cell: (k) =>
            editing === k.hash ? (
              <EditKey
                record={k}
                onCancel={() => setEditing(undefined)}
                onSaved={() => {
                  setEditing(undefined);
                  keys.reload();
                }}
              />
            ) : (
              <div class="actions">
                <a href={`${href('generations')}?key=${k.hash}`}>Generations</a>
                <button
                  type="button"
                  class="secondary"
                  onClick={() => setEditing(k.hash)}
                  aria-label={`Edit limit and expiry of ${k.name}`}
                >
                  Edit
                </button>
                <button
                  type="button"
                  class="secondary"
                  onClick={() => act(() => api('PATCH', `/keys/${k.hash}`, { disabled: !k.disabled }))}
                  aria-label={`${k.disabled ? 'Enable' : 'Disable'} ${k.name}`}
                >
                  {k.disabled ? 'Enable' : 'Disable'}
                </button>
                <button type="button" class="danger" onClick={() => remove(k)} aria-label={`Delete ${k.name}`}>
                  Delete
                </button>
              </div>
            ),
        },
      ]}
    />
  );
  if (focus)
    return (
      <Panel title="Key">
        <p>
          <a href={href('keys')}>All keys of workspace {workspace.name}</a>
        </p>
        <ErrorNote message={error ?? keys.error} />
        <Loading when={keys.loading && !keys.data} />
        {table}
      </Panel>
    );
  return (
    <>
      <Panel title={`Create a key in workspace ${workspace.name}`} id="create-a-key">
        {created ? (
          <CreatedKey
            created={created}
            onDone={() => {
              setCreated(undefined);
            }}
          />
        ) : (
          <CreateKey
            workspace={workspace}
            onCreated={(c) => {
              setCreated(c);
              keys.reload();
            }}
          />
        )}
      </Panel>
      <Panel title="Keys">
        <ErrorNote message={error ?? keys.error} />
        <Loading when={keys.loading && !keys.data} />
        {table}
        {(offset > 0 || keys.data?.length === KEYS_PAGE) && (
          <Pager
            of="keys"
            onPrevious={offset > 0 ? () => setOffset(Math.max(0, offset - KEYS_PAGE)) : undefined}
            onNext={keys.data?.length === KEYS_PAGE ? () => setOffset(offset + KEYS_PAGE) : undefined}
          />
        )}
      </Panel>
    </>
  );
}
