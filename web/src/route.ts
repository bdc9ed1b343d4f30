/** Shareable links as URL hash routes: a game, a version of its replay, a move's audit. */
import { useEffect, useState } from 'preact/hooks';

export type Route =
  | { page: 'lobby' }
  | { page: 'table'; game: string; id: string; watch: boolean }
  | { page: 'replay'; game: string; id: string; at: number | null }
  | { page: 'audit'; game: string; id: string; version: number };

export function parse(hash: string): Route {
  const [game, id, page, arg] = parts(hash) ?? [];
  if (!game || !id) return { page: 'lobby' };
  const version = versionIn(arg);
  if (page === 'replay') return { page: 'replay', game, id, at: version };
  if (page === 'audit' && version !== null) return { page: 'audit', game, id, version };
  return { page: 'table', game, id, watch: page === 'watch' };
}

/** A link's parts, decoded; none where a part is not percent-encoded text (a mangled link). */
function parts(hash: string): string[] | null {
  try {
    return hash.replace(/^#\/?/, '').split('/').map(decodeURIComponent);
  } catch {
    return null;
  }
}

/** A version in a link: a whole number, or none where the text is not one. */
function versionIn(text: string | undefined): number | null {
  return text !== undefined && /^\d+$/.test(text) ? Number(text) : null;
}

export const link = {
  lobby: () => '#/',
  table: (game: string, id: string) => `#/${game}/${encodeURIComponent(id)}`,
  watch: (game: string, id: string) => `#/${game}/${encodeURIComponent(id)}/watch`,
  replay: (game: string, id: string, at?: number) =>
    `#/${game}/${encodeURIComponent(id)}/replay${at === undefined ? '' : `/${at}`}`,
  audit: (game: string, id: string, version: number) =>
    `#/${game}/${encodeURIComponent(id)}/audit/${version}`,
};

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parse(location.hash));
  useEffect(() => {
    const changed = () => setRoute(parse(location.hash));
    window.addEventListener('hashchange', changed);
    return () => window.removeEventListener('hashchange', changed);
  }, []);
  return route;
}

/** Change the link in the address bar without a new history entry (a slider moving). */
export function replaceLink(hash: string): void {
  if (location.hash !== hash) history.replaceState(null, '', hash);
}
