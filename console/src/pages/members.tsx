import { useState } from 'preact/hooks';
import { allMembers, api, type Member, memberName } from '../api';
import { ErrorNote, Loading, Panel, Table } from '../components';
import { useAct } from '../use-act';
import { useLoad } from '../use-load';

/** The API's role name (org:admin, org:member) as the forms name it. */
const roleOf = (m: Member) => m.role.replace('org:', '');

/** Adds a person to the organization by e-mail address (POST /organization/members): one already a member is updated. */
function AddMember({ onAdded }: { onAdded: () => void }) {
  const empty = { email: '', role: 'member', first_name: '', last_name: '' };
  const [form, setForm] = useState(empty);
  const { act, error, busy } = useAct(onAdded);
  const field = (name: 'email' | 'first_name' | 'last_name') => (e: Event) =>
    setForm({ ...form, [name]: (e.currentTarget as HTMLInputElement).value });
  const submit = async (event: Event) => {
    event.preventDefault();
    const names = Object.fromEntries((['first_name', 'last_name'] as const).filter((n) => form[n].trim()).map((n) => [n, form[n].trim()]));
    if (await act(() => api('POST', '/organization/members', { email: form.email.trim(), role: form.role, ...names }))) setForm(empty);
  };
  return (
    <form class="inline-form" onSubmit={submit} aria-label="Add a member">
      <label>
        Email
        <input name="email" type="email" required value={form.email} onInput={field('email')} />
      </label>
      <label>
        First name
        <input name="first_name" value={form.first_name} onInput={field('first_name')} />
      </label>
      <label>
        Last name
        <input name="last_name" value={form.last_name} onInput={field('last_name')} />
      </label>
      <label>
        Role
        <select name="role" value={form.role} onChange={(e) => setForm({ ...form, role: e.currentTarget.value })}>
          <option value="member">member</option>
          <option value="admin">admin</option>
        </select>
      </label>
      <button type="submit" disabled={busy || !form.email.trim()}>
        Add member
      </button>
      <ErrorNote message={error} />
    </form>
  );
}

/** The organization's members: add one, change a member's role, remove one (the owner is neither changed nor removed). */
export function Members() {
  const loaded = useLoad(allMembers, []);
  const { act, error, busy } = useAct(loaded.reload);
  return (
    <Panel title="Members">
      <ErrorNote message={error ?? loaded.error} />
      <Loading when={loaded.loading && !loaded.data} />
      <Table
        caption="Members of the organization"
        rows={loaded.data ?? []}
        rowKey={(m) => m.id}
        empty="No members."
        columns={[
          { title: 'Name', cell: (m) => [m.first_name, m.last_name].filter(Boolean).join(' ') || '—' },
          { title: 'Email', cell: (m) => m.email ?? '—' },
          {
            title: 'Role',
            cell: (m) => (
              <select
                aria-label={`Role of ${memberName(m)}`}
                value={roleOf(m)}
                disabled={busy}
                onChange={(e) => act(() => api('PATCH', `/organization/members/${m.id}`, { role: e.currentTarget.value }))}
              >
                <option value="member">member</option>
                <option value="admin">admin</option>
              </select>
            ),
          },
          { title: 'Id', cell: (m) => <code>{m.id}</code> },
          {
            title: 'Actions',
            cell: (m) => (
              <button
                type="button"
                class="danger"
                aria-label={`Remove ${memberName(m)}`}
                disabled={busy}
                onClick={() => act(() => api('DELETE', `/organization/members/${m.id}`))}
              >
                Remove
              </button>
            ),
          },
        ]}
      />
      <AddMember onAdded={loaded.reload} />
    </Panel>
  );
}
