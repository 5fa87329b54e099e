import 'uplot/dist/uPlot.min.css';
import './styles.css';
import { render } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, api, holdSession, type Session } from './api';
import { ErrorNote } from './components';
import { Generation } from './pages/generation';
import { Generations } from './pages/generations';
import { Keys } from './pages/keys';
import { Guardrails, Members, Models } from './pages/lists';
import { Overview } from './pages/overview';
import { href, useRoute } from './router';

const PAGES = [
  ['overview', 'Overview'],
  ['keys', 'Keys'],
  ['generations', 'Generations'],
  ['guardrails', 'Guardrails'],
  ['members', 'Members'],
  ['models', 'Models'],
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

function Page({ parts, params }: ReturnType<typeof useRoute>) {
  const [page, id] = parts;
  if (page === 'keys') return <Keys />;
  if (page === 'generations' && id) return <Generation id={id} />;
  if (page === 'generations') return <Generations params={params} />;
  if (page === 'guardrails') return <Guardrails />;
  if (page === 'members') return <Members />;
  if (page === 'models') return <Models />;
  return <Overview />;
}

function Console({ session, onSignOut }: { session: Session; onSignOut: () => void }) {
  const route = useRoute();
  const [page = 'overview'] = route.parts;
  const title = PAGES.find(([name]) => name === page)?.[1] ?? 'Overview';
  const heading = useRef<HTMLHeadingElement>(null);
  const moved = useRef(false);
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
        <span class="who">
          {session.key.name} <code>{session.key.label}</code>
        </span>
        <button type="button" class="secondary" onClick={onSignOut}>
          Sign out
        </button>
      </header>
      <main id="main">
        <h1 ref={heading} tabIndex={-1}>
          {route.parts[1] && page === 'generations' ? 'Generation' : title}
        </h1>
        <Page {...route} />
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
