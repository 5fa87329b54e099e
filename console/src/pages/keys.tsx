import { useState } from 'preact/hooks';
import { api, KEYS_PAGE, type KeyRecord } from '../api';
import { ErrorNote, Loading, Panel, Table } from '../components';
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

function CreateKey({ onCreated }: { onCreated: (created: { name: string; key: string }) => void }) {
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

export function Keys() {
  const [offset, setOffset] = useState(0);
  const keys = useLoad(
    () => api<{ data: KeyRecord[] }>('GET', `/keys?include_disabled=true&offset=${offset}`).then((r) => r.data),
    [offset],
  );
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
  return (
    <>
      <Panel title="Create a key">
        {created ? (
          <CreatedKey
            created={created}
            onDone={() => {
              setCreated(undefined);
            }}
          />
        ) : (
          <CreateKey
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
        <Table
          caption="Keys of the organization"
          rows={keys.data ?? []}
          rowKey={(k) => k.hash}
          empty="No keys yet."
          columns={[
            { title: 'Name', cell: (k) => <span data-testid="key-name">{k.name}</span> },
            { title: 'Key', cell: (k) => <code>{k.label}</code> },
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
        {(offset > 0 || keys.data?.length === KEYS_PAGE) && (
          <nav class="pager" aria-label="Pages of keys">
            <button type="button" class="secondary" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - KEYS_PAGE))}>
              Previous
            </button>
            <button
              type="button"
              class="secondary"
              disabled={keys.data?.length !== KEYS_PAGE}
              onClick={() => setOffset(offset + KEYS_PAGE)}
            >
              Next
            </button>
          </nav>
        )}
      </Panel>
    </>
  );
}
