import { useState } from 'preact/hooks';
import { api, query, type Workspace } from '../api';
import { ErrorNote, Loading, Panel, Table } from '../components';
import { formatTime, formatUsd } from '../format';
import { useAct } from '../use-act';
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

/** The form's fields, as typed: lists are comma-separated, an empty field is no rule. */
interface Draft {
  name: string;
  description: string;
  limit: string;
  reset: string;
  models: string;
  providers: string;
}

const draftOf = (g: Guardrail | undefined): Draft => ({
  name: g?.name ?? '',
  description: g?.description ?? '',
  limit: g?.limit_usd === null || g?.limit_usd === undefined ? '' : String(g.limit_usd),
  reset: g?.reset_interval ?? '',
  models: g?.allowed_models?.join(', ') ?? '',
  providers: g?.allowed_providers?.join(', ') ?? '',
});

/** A comma-separated list; empty: null, which the API reads as "no rule" (any model, any provider). */
const listOf = (text: string) => {
  const items = text.split(/[\s,]+/).filter(Boolean);
  return items.length ? items : null;
};

/** What POST and PATCH /guardrails take alike; every field is sent, so clearing one in the form clears it. */
const bodyOf = (d: Draft) => ({
  name: d.name.trim(),
  description: d.description.trim() || null,
  limit_usd: d.limit.trim() === '' ? null : Number(d.limit),
  reset_interval: d.reset || null,
  allowed_models: listOf(d.models),
  allowed_providers: listOf(d.providers),
});

/** Creates a guardrail in the workspace (no `guardrail`), or edits one. */
function GuardrailForm({ workspace, guardrail, onDone }: { workspace: Workspace; guardrail?: Guardrail; onDone: () => void }) {
  const [draft, setDraft] = useState(() => draftOf(guardrail));
  const { act, error, busy } = useAct(onDone);
  const set = (field: keyof Draft) => (event: { currentTarget: HTMLInputElement | HTMLSelectElement }) =>
    setDraft({ ...draft, [field]: event.currentTarget.value });
  const submit = async (event: Event) => {
    event.preventDefault();
    const body = bodyOf(draft);
    const saved = await act(() =>
      guardrail ? api('PATCH', `/guardrails/${guardrail.id}`, body) : api('POST', '/guardrails', { ...body, workspace_id: workspace.id }),
    );
    if (saved && !guardrail) setDraft(draftOf(undefined));
  };
  return (
    <form class="stack" onSubmit={submit} aria-label={guardrail ? `Edit guardrail ${guardrail.name}` : 'Create a guardrail'}>
      <div class="row">
        <label>
          Name
          <input name="name" required maxLength={200} value={draft.name} onInput={set('name')} />
        </label>
        <label>
          Description
          <input name="description" maxLength={1000} value={draft.description} onInput={set('description')} />
        </label>
      </div>
      <div class="row">
        <label>
          Budget (USD, empty for none)
          <input name="limit_usd" type="number" min="0" step="any" value={draft.limit} onInput={set('limit')} />
        </label>
        <label>
          Budget resets
          <select name="reset_interval" value={draft.reset} onChange={set('reset')}>
            <option value="">never</option>
            <option value="daily">daily</option>
            <option value="weekly">weekly</option>
            <option value="monthly">monthly</option>
          </select>
        </label>
      </div>
      <div class="row">
        <label>
          Allowed models (comma-separated, empty for any)
          <input name="allowed_models" value={draft.models} onInput={set('models')} />
        </label>
        <label>
          Allowed providers (comma-separated, empty for any)
          <input name="allowed_providers" value={draft.providers} onInput={set('providers')} />
        </label>
      </div>
      <ErrorNote message={error} />
      <div>
        <button type="submit" disabled={busy}>
          {guardrail ? 'Save guardrail' : 'Create guardrail'}
        </button>
      </div>
    </form>
  );
}

/** The chosen workspace's guardrails: created and edited here; assigned to keys and members through the API. */
export function Guardrails({ workspace }: { workspace: Workspace }) {
  const loaded = useLoad(
    () => api<{ data: Guardrail[]; total_count: number }>('GET', `/guardrails${query({ limit: 100, workspace_id: workspace.id })}`),
    [workspace.id],
  );
  const [editing, setEditing] = useState<string>();
  const edited = loaded.data?.data.find((g) => g.id === editing);
  return (
    <>
      <Panel title={`Create a guardrail in workspace ${workspace.name}`} id="create-a-guardrail">
        <GuardrailForm workspace={workspace} onDone={loaded.reload} />
      </Panel>
      <Panel title="Guardrails">
        <ErrorNote message={loaded.error} />
        <Loading when={loaded.loading} />
        <Table
          caption={`Guardrails of workspace ${workspace.name}`}
          rows={loaded.data?.data ?? []}
          rowKey={(g) => g.id}
          empty="No guardrails yet."
          columns={[
            { title: 'Name', cell: (g) => <span data-testid="guardrail-name">{g.name}</span> },
            { title: 'Description', cell: (g) => g.description ?? '' },
            {
              title: 'Budget',
              cell: (g) => (g.limit_usd === null ? 'none' : `${formatUsd(g.limit_usd)}${g.reset_interval ? ` ${g.reset_interval}` : ''}`),
              numeric: true,
            },
            { title: 'Models', cell: (g) => g.allowed_models?.join(', ') || 'any' },
            { title: 'Providers', cell: (g) => g.allowed_providers?.join(', ') || 'any' },
            { title: 'Created', cell: (g) => formatTime(g.created_at) },
            {
              title: 'Actions',
              cell: (g) => (
                <button
                  type="button"
                  class="secondary"
                  aria-expanded={editing === g.id}
                  onClick={() => setEditing(editing === g.id ? undefined : g.id)}
                  aria-label={`Edit ${g.name}`}
                >
                  {editing === g.id ? 'Close' : 'Edit'}
                </button>
              ),
            },
          ]}
        />
        {edited && (
          <section class="panel nested" aria-label={`Edit guardrail ${edited.name}`}>
            <h3>Edit guardrail {edited.name}</h3>
            <GuardrailForm
              key={edited.id}
              workspace={workspace}
              guardrail={edited}
              onDone={() => {
                setEditing(undefined);
                loaded.reload();
              }}
            />
          </section>
        )}
      </Panel>
    </>
  );
}
