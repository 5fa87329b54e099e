import { useEffect, useMemo, useState } from 'preact/hooks';

export interface Route {
  /** The path's parts: ['generations', 'gen-…'] for #/generations/gen-…. */
  parts: string[];
  params: URLSearchParams;
}

function parse(hash: string): Route {
  const [path = '', search = ''] = hash.replace(/^#\/?/, '').split('?');
  return { parts: (path || 'overview').split('/').map(decodeURIComponent), params: new URLSearchParams(search) };
}

/** The console's pages live in the URL's fragment (#/keys), so the gateway serves one page and the back button works. */
export function useRoute(): Route {
  const [hash, setHash] = useState(() => location.hash);
  useEffect(() => {
    const changed = () => setHash(location.hash);
    addEventListener('hashchange', changed);
    // Effects run after paint: a link followed before this subscription would otherwise leave the old page showing.
    changed();
    return () => removeEventListener('hashchange', changed);
  }, []);
  return useMemo(() => parse(hash), [hash]);
}

export const href = (...parts: string[]) => `#/${parts.map(encodeURIComponent).join('/')}`;
