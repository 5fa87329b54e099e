import 'uplot/dist/uPlot.min.css';
import './styles.css';
import { render } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, allWorkspaces, api, holdSession, type Session, type Workspace } from './api';
import { ErrorNote, Loading } from './components';
import { Generation } from './pages/generation';
import { Generations } from './pages/generations';
import { Guardrails } from './pages/guardrails';
import { WORKSPACE_PAGES } from './pages/in-workspace';
import { Keys } from './pages/keys';
import { Models } from './pages/lists';
import { Members } from './pages/members';
import { Overview } from './pages/overview';
import { Providers } from './pages/providers';
import { Workspaces } from './pages/workspaces';
import { href, useRoute } from './router';
import { type Loaded, useLoad } from './use-load';

const PAGES = [
  ['overview', 'Overview'],
  ['keys', 'Keys'],
  ['workspaces', 'Workspaces'],
  ['generations', 'Generations'],
  ['guardrails', 'Guardrails'],
  ['members', 'Members'],
  ['models', 'Models'],
  ['byok', 'Provider keys'],
  ['providers', 'Providers'],
  ['destinations', 'Destinations'],
  ['files', 'Files'],
] as const;

function SignIn({ onSignedIn }: { onSignedIn: (session: Session) => void }) {
  const [error, setError] = useState<string>();
  const input = useRef<HTMLInputElement>(null);
  const submit = async (event: Event) => {
    event.preventDefault();
    const field = input.current;
    if (!field) return;
    try {
      const answer = await api<{ data: Session }>('POST', '/console/session', { key: field.value });
      // The key has done its work: the session cookie (which this page cannot read) stands for it from now on.
      field.value = '';
      onSignedIn(answer.data);
    } catch (e) {
      setError(e instanceof ApiError ? e.message : 'The gateway could not be reached.');
    }
  };
  return (
    <main id="main" class="sign-in">
      <h1>Model Gateway console</h1>
      <form class="stack" onSubmit={submit} aria-label="Sign in">
        <label>
          Management key
          <input ref={input} name="key" type="password" autoComplete="off" spellcheck={false} required />
        </label>
        <ErrorNote message={error} />
        <button type="submit">Sign in</button>
      </form>
      <p class="muted">The key is sent once; the console then holds a session that scripts cannot read.</p>
    </main>
  );
}

/** A route the console does not have (a mistyped or stale link): said plainly, with the way back. */
function NotFound() {
  return (
    <p>
      The console has no page at this address. <a href={href('overview')}>Back to the overview</a>
    </p>
  );
}

function Page({
  route: { parts, params },
  workspaces,
  workspace,
}: {
  route: ReturnType<typeof useRoute>;
  workspaces: Loaded<Workspace[]>;
  workspace: Workspace | undefined;
}) {
  const [page, id] = parts;
  if (page === 'generations' && id) return <Generation id={id} />;
  if (id && page !== 'keys') return <NotFound />;
  if (page === 'generations') return <Generations params={params} />;
  if (page === 'members') return <Members />;
  if (page === 'models') return <Models />;
  if (page === 'overview') return <Overview />;
  if (page === 'providers') return <Providers />;
  const InWorkspace = WORKSPACE_PAGES.get(page ?? '');
  if (page !== 'keys' && page !== 'workspaces' && page !== 'guardrails' && !InWorkspace) return <NotFound />;
  // The pages below show the organization's workspaces, or the one chosen in the switcher.
  if (!workspace) return workspaces.error ? <ErrorNote message={workspaces.error} /> : <Loading when />;
  if (InWorkspace) return <InWorkspace key={workspace.id} workspace={workspace} />;
  if (page === 'workspaces') return <Workspaces workspaces={workspaces.data ?? []} onChanged={workspaces.reload} />;
  if (page === 'keys') return <Keys key={`${workspace.id}/${id}`} workspace={workspace} workspaces={workspaces.data ?? []} focus={id} />;
  return <Guardrails workspace={workspace} />;
}

/** The switcher: the workspace whose keys and guardrails the pages show (the default one until another is chosen). */
function WorkspaceSwitcher({
  workspaces,
  workspace,
  onChoose,
}: {
  workspaces: Workspace[];
  workspace: Workspace | undefined;
  onChoose: (id: string) => void;
}) {
  return (
    <span class="switcher">
      <label htmlFor="workspace-switcher">Workspace</label>
      <select id="workspace-switcher" name="workspace" value={workspace?.id ?? ''} onChange={(e) => onChoose(e.currentTarget.value)}>
        {workspaces.map((w) => (
          <option key={w.id} value={w.id}>
            {w.name}
          </option>
        ))}
      </select>
    </span>
  );
}

function Console({ session, onSignOut }: { session: Session; onSignOut: () => void }) {
  const route = useRoute();
  const [page = 'overview'] = route.parts;
  // One generation and one key live below their lists (#/generations/<id>, #/keys/<hash>); no other page has parts below it.
  const below = route.parts[1] ? ({ generations: 'Generation', keys: 'Key' } as Record<string, string>)[page] : undefined;
  const title = route.parts[1] ? (below ?? 'Not found') : (PAGES.find(([name]) => name === page)?.[1] ?? 'Not found');
  const heading = useRef<HTMLHeadingElement>(null);
  const moved = useRef(false);
  const workspaces = useLoad(allWorkspaces, []);
  const [chosen, setChosen] = useState<string>();
  // Until one is chosen, and when the chosen one was deleted: the default workspace, or the first the key may see.
  const workspace = workspaces.data?.find((w) => w.id === chosen) ?? workspaces.data?.find((w) => w.is_default) ?? workspaces.data?.[0];
  useEffect(() => {
    document.title = `${title} · Model Gateway`;
    // After a move between pages, keyboard and screen-reader users land on the new page's heading, as a page load would put them.
    if (moved.current) heading.current?.focus();
    moved.current = true;
  }, [title, route.parts[1]]);
  return (
    <>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top">
        <span class="brand">Model Gateway</span>
        <nav aria-label="Console">
          <ul>
            {PAGES.map(([name, label]) => (
              <li key={name}>
                <a href={href(name)} aria-current={name === page ? 'page' : undefined}>
                  {label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <WorkspaceSwitcher workspaces={workspaces.data ?? []} workspace={workspace} onChoose={setChosen} />
        <span class="who">
          {session.key.name} <code>{session.key.label}</code>
        </span>
        <button type="button" class="secondary" onClick={onSignOut}>
          Sign out
        </button>
      </header>
      <main id="main">
        <h1 ref={heading} tabIndex={-1}>
          {title}
        </h1>
        <Page route={route} workspaces={workspaces} workspace={workspace} />
      </main>
    </>
  );
}

function App() {
  const [session, setSession] = useState<Session | null>();
  const [error, setError] = useState<string>();
  const signedOut = () => {
    holdSession(null, () => undefined);
    setSession(null);
  };
  const signedIn = (s: Session) => {
    holdSession(s.csrf_token, signedOut);
    setSession(s);
  };
  useEffect(() => {
    api<{ data: Session }>('GET', '/console/session').then(
      (answer) => signedIn(answer.data),
      (e: unknown) => (e instanceof ApiError && e.status === 401 ? signedOut() : setError((e as Error).message)),
    );
  }, []);
  const signOut = async () => {
    await api('DELETE', '/console/session').catch(() => undefined);
    signedOut();
  };
  if (error) return <ErrorNote message={error} />;
  if (session === undefined) return <p role="status">Loading…</p>;
  if (session === null) return <SignIn onSignedIn={signedIn} />;
  return <Console session={session} onSignOut={signOut} />;
}

const root = document.getElementById('app');
if (root) render(<App />, root);
