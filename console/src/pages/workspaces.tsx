import { useState } from 'preact/hooks';
import { allMembers, api, type Member, memberName, type Workspace } from '../api';
import { ErrorNote, Loading, Panel, Table } from '../components';
import { formatTime } from '../format';
import { useAct } from '../use-act';
import { useLoad } from '../use-load';
import { Budgets } from './budgets';

/** The gateway's provider sorts (default_provider_sort); empty is none. */
const SORTS = ['price', 'throughput', 'latency', 'exacto'];

/** The reference's slug rule, applied to a name: lowercase letters and digits in segments joined by single hyphens. */
const slugOf = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 50);

/** An empty field clears the setting. */
const orNull = (text: string) => (text.trim() === '' ? null : text.trim());

interface WorkspaceMember {
  id: string;
  user_id: string;
  role: 'admin' | 'member';
  created_at: string;
}

function CreateWorkspace({ onCreated }: { onCreated: () => void }) {
  const empty = { name: '', slug: '', description: '' };
  const [form, setForm] = useState(empty);
  const { act, error, busy } = useAct(onCreated);
  const submit = async (event: Event) => {
    event.preventDefault();
    const body = { name: form.name.trim(), slug: form.slug.trim() || slugOf(form.name), description: orNull(form.description) };
    if (await act(() => api('POST', '/workspaces', body))) setForm(empty);
  };
  return (
    <form class="stack" onSubmit={submit} aria-label="Create a workspace">
      <div class="row">
        <label>
          Name
          <input
            name="name"
            required
            maxLength={100}
            value={form.name}
            onInput={(e) => setForm({ ...form, name: e.currentTarget.value })}
          />
        </label>
        <label>
          Slug (empty: from the name)
          <input
            name="slug"
            maxLength={50}
            pattern="[a-z0-9]+(-[a-z0-9]+)*"
            placeholder={slugOf(form.name)}
            value={form.slug}
            onInput={(e) => setForm({ ...form, slug: e.currentTarget.value })}
          />
        </label>
        <label>
          Description
          <input
            name="description"
            maxLength={500}
            value={form.description}
            onInput={(e) => setForm({ ...form, description: e.currentTarget.value })}
          />
        </label>
      </div>
      <ErrorNote message={error} />
      <div>
        <button type="submit" disabled={busy}>
          Create workspace
        </button>
      </div>
    </form>
  );
}

function EditWorkspace({ workspace, onSaved }: { workspace: Workspace; onSaved: () => void }) {
  const [form, setForm] = useState({
    name: workspace.name,
    description: workspace.description ?? '',
    text: workspace.default_text_model ?? '',
    image: workspace.default_image_model ?? '',
    sort: workspace.default_provider_sort ?? '',
  });
  const { act, error, busy } = useAct(onSaved);
  const submit = (event: Event) => {
    event.preventDefault();
    void act(() =>
      api('PATCH', `/workspaces/${workspace.id}`, {
        name: form.name.trim(),
        description: orNull(form.description),
        default_text_model: orNull(form.text),
        default_image_model: orNull(form.image),
        default_provider_sort: orNull(form.sort),
      }),
    );
  };
  return (
    <form class="stack" onSubmit={submit} aria-label={`Edit workspace ${workspace.name}`}>
      <div class="row">
        <label>
          Name
          <input
            name="name"
            required
            maxLength={100}
            value={form.name}
            onInput={(e) => setForm({ ...form, name: e.currentTarget.value })}
          />
        </label>
        <label>
          Description
          <input
            name="description"
            maxLength={500}
            value={form.description}
            onInput={(e) => setForm({ ...form, description: e.currentTarget.value })}
          />
        </label>
      </div>
      <div class="row">
        <label>
          Default text model
          <input name="default_text_model" value={form.text} onInput={(e) => setForm({ ...form, text: e.currentTarget.value })} />
        </label>
        <label>
          Default image model
          <input name="default_image_model" value={form.image} onInput={(e) => setForm({ ...form, image: e.currentTarget.value })} />
        </label>
        <label>
          Default provider sort
          <select name="default_provider_sort" value={form.sort} onChange={(e) => setForm({ ...form, sort: e.currentTarget.value })}>
            <option value="">none</option>
            {SORTS.map((sort) => (
              <option key={sort} value={sort}>
                {sort}
              </option>
            ))}
          </select>
        </label>
      </div>
      <ErrorNote message={error} />
      <div>
        <button type="submit" disabled={busy}>
          Save workspace
        </button>
      </div>
    </form>
  );
}

function AddMembers({ workspace, candidates, onAdded }: { workspace: Workspace; candidates: Member[]; onAdded: () => void }) {
  const empty = { picked: '', typed: '', role: '' };
  const [form, setForm] = useState(empty);
  const { act, error, busy } = useAct(onAdded);
  const submit = async (event: Event) => {
    event.preventDefault();
    const ids = [form.picked, ...form.typed.split(/[\s,]+/)].filter(Boolean);
    const body = { user_ids: ids, ...(form.role ? { role: form.role } : {}) };
    if (await act(() => api('POST', `/workspaces/${workspace.id}/members/add`, body))) setForm(empty);
  };
  return (
    <form class="inline-form" onSubmit={submit} aria-label={`Add members to ${workspace.name}`}>
      <label>
        Organization member
        <select name="member" value={form.picked} onChange={(e) => setForm({ ...form, picked: e.currentTarget.value })}>
          <option value="">(none)</option>
          {candidates.map((m) => (
            <option key={m.id} value={m.id}>
              {memberName(m)}
            </option>
          ))}
        </select>
      </label>
      <label>
        Or user ids (comma-separated)
        <input name="user_ids" value={form.typed} onInput={(e) => setForm({ ...form, typed: e.currentTarget.value })} />
      </label>
      <label>
        Role
        <select name="role" value={form.role} onChange={(e) => setForm({ ...form, role: e.currentTarget.value })}>
          <option value="">as in the organization</option>
          <option value="member">member</option>
          <option value="admin">admin</option>
        </select>
      </label>
      <button type="submit" disabled={busy || (!form.picked && !form.typed.trim())}>
        Add
      </button>
      <ErrorNote message={error} />
    </form>
  );
}

/** A workspace's members; the default workspace holds every organization member, so its list is only shown. */
function Members({ workspace }: { workspace: Workspace }) {
  const isDefault = workspace.is_default;
  const members = useLoad(
    () => api<{ data: WorkspaceMember[] }>('GET', `/workspaces/${workspace.id}/members?limit=100`).then((r) => r.data),
    [workspace.id],
  );
  const organization = useLoad(allMembers, []);
  const { act, error } = useAct(members.reload);
  const named = (userId: string) => organization.data?.find((m) => m.id === userId);
  const candidates = (organization.data ?? []).filter((m) => !members.data?.some((w) => w.user_id === m.id));
  return (
    <>
      <h4>Members</h4>
      {isDefault && <p class="muted">The default workspace holds every member of the organization.</p>}
      <ErrorNote message={error ?? members.error ?? organization.error} />
      <Loading when={members.loading && !members.data} />
      <Table
        caption={`Members of workspace ${workspace.name}`}
        rows={members.data ?? []}
        rowKey={(m) => m.user_id}
        empty="No members yet."
        columns={[
          { title: 'Name', cell: (m) => (named(m.user_id) ? memberName(named(m.user_id)!) : '—') },
          { title: 'User id', cell: (m) => <code>{m.user_id}</code> },
          { title: 'Role', cell: (m) => m.role },
          { title: 'Since', cell: (m) => formatTime(m.created_at) },
          ...(isDefault
            ? []
            : [
                {
                  title: 'Actions',
                  cell: (m: WorkspaceMember) => (
                    <button
                      type="button"
                      class="danger"
                      aria-label={`Remove ${m.user_id} from ${workspace.name}`}
                      onClick={() => act(() => api('POST', `/workspaces/${workspace.id}/members/remove`, { user_ids: [m.user_id] }))}
                    >
                      Remove
                    </button>
                  ),
                },
              ]),
        ]}
      />
      {!isDefault && <AddMembers workspace={workspace} candidates={candidates} onAdded={members.reload} />}
    </>
  );
}

/** The organization's workspaces: create one, edit its name, description and defaults, its members; delete one. */
export function Workspaces({ workspaces, onChanged }: { workspaces: Workspace[]; onChanged: () => void }) {
  const [open, setOpen] = useState<string>();
  const { act, error } = useAct(onChanged);
  const opened = workspaces.find((w) => w.id === open);
  const remove = (w: Workspace) => {
    if (confirm(`Delete workspace “${w.name}”? Its budgets and guardrail assignments go with it.`))
      void act(() => api('DELETE', `/workspaces/${w.id}`));
  };
  return (
    <>
      <Panel title="Create a workspace">
        <CreateWorkspace onCreated={onChanged} />
      </Panel>
      <Panel title="Workspaces">
        <ErrorNote message={error} />
        <Table
          caption="Workspaces of the organization"
          rows={workspaces}
          rowKey={(w) => w.id}
          empty="No workspaces."
          columns={[
            { title: 'Name', cell: (w) => <span data-testid="workspace-name">{w.name}</span> },
            { title: 'Slug', cell: (w) => <code>{w.slug}</code> },
            { title: 'Description', cell: (w) => w.description ?? '' },
            { title: 'Default model', cell: (w) => w.default_text_model ?? 'none' },
            { title: 'Provider sort', cell: (w) => w.default_provider_sort ?? 'none' },
            { title: 'Created', cell: (w) => formatTime(w.created_at) },
            {
              title: 'Actions',
              cell: (w) => (
                <div class="actions">
                  <button
                    type="button"
                    class="secondary"
                    aria-expanded={open === w.id}
                    aria-label={`Manage ${w.name}`}
                    onClick={() => setOpen(open === w.id ? undefined : w.id)}
                  >
                    {open === w.id ? 'Close' : 'Manage'}
                  </button>
                  {!w.is_default && (
                    <button type="button" class="danger" aria-label={`Delete ${w.name}`} onClick={() => remove(w)}>
                      Delete
                    </button>
                  )}
                </div>
              ),
            },
          ]}
        />
        {opened && (
          <section class="panel nested" aria-label={`Workspace ${opened.name}`}>
            <h3>Workspace {opened.name}</h3>
            <EditWorkspace key={opened.id} workspace={opened} onSaved={onChanged} />
            <Budgets key={`budgets-${opened.id}`} workspace={opened} />
            <Members key={opened.id} workspace={opened} />
          </section>
        )}
      </Panel>
    </>
  );
}
