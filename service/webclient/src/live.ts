/** A game's live stream through the browser's EventSource: a seat's through a single-use ticket
 * (the token never goes in a URL), a spectator's without one. Views come whole, then as JSON
 * Patches (RFC 6902) to the last one; after a drop it reopens from the last version seen. */
import { applyPatch, type Operation } from 'fast-json-patch';

import type { EnvelopeOf } from './ops';

/** What the stream needs of a game's operations: a ticket, and where its stream is. */
export interface StreamOps {
  ticket(id: string): Promise<{ ticket: string }>;
  streamUrl(id: string): string;
}

export interface Listener<V> {
  view(envelope: EnvelopeOf<V>): void;
  event(record: { version: number; event: Record<string, unknown> }): void;
  status(text: string): void;
}

export function follow<V>(ops: StreamOps, gameId: string, seated: boolean, listener: Listener<V>): () => void {
  let source: EventSource | null = null;
  let last: EnvelopeOf<V> | null = null;
  let lastId: number | null = null;
  let closed = false;
  let retry: number | undefined;

  async function open(): Promise<void> {
    const query = new URLSearchParams();
    if (seated) {
      const ticket = await ops.ticket(gameId);
      query.set('ticket', ticket.ticket);
    }
    if (lastId !== null) query.set('last_event_id', String(lastId));
    if (closed) return;
    source = new EventSource(`${ops.streamUrl(gameId)}?${query}`);
    source.addEventListener('open', () => listener.status('live'));
    source.addEventListener('event', (message) => {
      lastId = Number((message as MessageEvent).lastEventId);
      listener.event(JSON.parse((message as MessageEvent).data));
    });
    source.addEventListener('view', (message) => {
      lastId = Number((message as MessageEvent).lastEventId);
      // The game's own stream: its views are the game's (the document declares them so).
      const envelope: EnvelopeOf<V> = JSON.parse((message as MessageEvent).data);
      last = envelope;
      listener.view(envelope);
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
