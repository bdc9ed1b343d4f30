/** A game's live stream through the browser's EventSource: a seat's through a single-use ticket
 * (the token never goes in a URL), a spectator's without one. Views come whole, then as JSON
 * Patches (RFC 6902) to the last one; after a drop it reopens from the last version seen. */
import { applyPatch, type Operation } from 'fast-json-patch';

import { api, ok } from './api';

export interface Envelope {
  game_id: string;
  version: number;
  seat: number | null;
  view: unknown;
  players?: { seat: number; name: string }[];
}

export interface Listener {
  view(envelope: Envelope): void;
  event(record: { version: number; event: Record<string, unknown> }): void;
  status(text: string): void;
}

export function follow(gameId: string, seated: boolean, listener: Listener): () => void {
  let source: EventSource | null = null;
  let last: Envelope | null = null;
  let lastId: number | null = null;
  let closed = false;
  let retry: number | undefined;

  async function open(): Promise<void> {
    const query = new URLSearchParams();
    if (seated) {
      const ticket = await ok(
        api.POST('/v1/games/{game_id}/stream-tickets', { params: { path: { game_id: gameId } } }),
      );
      query.set('ticket', ticket.ticket);
    }
    if (lastId !== null) query.set('last_event_id', String(lastId));
    if (closed) return;
    source = new EventSource(`/v1/games/${encodeURIComponent(gameId)}/stream?${query}`);
    source.addEventListener('open', () => listener.status('live'));
    source.addEventListener('event', (message) => {
      lastId = Number((message as MessageEvent).lastEventId);
      listener.event(JSON.parse((message as MessageEvent).data));
    });
    source.addEventListener('view', (message) => {
      lastId = Number((message as MessageEvent).lastEventId);
      last = JSON.parse((message as MessageEvent).data) as Envelope;
      listener.view(last);
    });
    source.addEventListener('patch', (message) => {
      const patch = JSON.parse((message as MessageEvent).data) as Operation[];
      try {
        if (!last) throw new Error('a patch before any view');
        last = applyPatch(last, patch, true, false).newDocument;
        lastId = Number((message as MessageEvent).lastEventId);
        listener.view(last);
      } catch {
        // The patch does not fit the view held: reopen, which sends the whole view again.
        reopen();
      }
    });
    // A ticket opens the stream once: the browser's own reconnection cannot reuse it.
    source.addEventListener('error', () => reopen());
  }

  function reopen(): void {
    source?.close();
    source = null;
    if (closed) return;
    listener.status('reconnecting…');
    window.clearTimeout(retry);
    retry = window.setTimeout(() => void open().catch(() => reopen()), 1000);
  }

  void open().catch(() => reopen());
  return () => {
    closed = true;
    window.clearTimeout(retry);
    source?.close();
  };
}
