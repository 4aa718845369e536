import { useEffect, useState } from 'preact/hooks';

/** A page's address: the path parts after `#/` and the query, e.g. `#/matches/ID?step=50`. */
export interface Route {
  parts: string[];
  query: URLSearchParams;
}

/** Reads the address (hash routing: it works from any server path and from a file:// URL). */
export function currentRoute(): Route {
  const hash = location.hash.replace(/^#\/?/, '');
  const [path = '', search = ''] = hash.split('?');
  return { parts: path.split('/').filter(Boolean).map(decodeURIComponent), query: new URLSearchParams(search) };
}

/** The address now, re-read whenever it changes. */
export function useRoute(): Route {
  const [route, setRoute] = useState(currentRoute);
  useEffect(() => {
    const on = () => setRoute(currentRoute());
    addEventListener('hashchange', on);
    return () => removeEventListener('hashchange', on);
  }, []);
  return route;
}

/** The address of a page, for links. */
export function href(...parts: (string | number)[]): string {
  return `#/${parts.map((p) => encodeURIComponent(String(p))).join('/')}`;
}

/** Goes to a page. */
export function navigate(to: string): void {
  location.hash = to.replace(/^#/, '');
}
