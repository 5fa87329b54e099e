import { useEffect, useState } from 'preact/hooks';

export interface Route {
  /** The path's parts: ['generations', 'gen-…'] for #/generations/gen-…. */
  parts: string[];
  params: URLSearchParams;
}

function read(): Route {
  const [path = '', search = ''] = location.hash.replace(/^#\/?/, '').split('?');
  return { parts: (path || 'overview').split('/').map(decodeURIComponent), params: new URLSearchParams(search) };
}

/** The console's pages live in the URL's fragment (#/keys), so the gateway serves one page and the back button works. */
export function useRoute(): Route {
  const [route, setRoute] = useState(read);
  useEffect(() => {
    const changed = () => setRoute(read());
    addEventListener('hashchange', changed);
    return () => removeEventListener('hashchange', changed);
  }, []);
  return route;
}

export const href = (...parts: string[]) => `#/${parts.map(encodeURIComponent).join('/')}`;
