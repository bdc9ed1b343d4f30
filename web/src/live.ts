/** A game's live stream through the browser's EventSource: a seat's through a single-use ticket
 * (the token never goes in a URL), a spectator's without one. Views come whole, then as JSON
 * Patches (RFC 6902) to the last one; after a drop it reopens from the last version seen. */
import { applyPatch, type Operation } from 'fast-json-patch';

import type { EnvelopeOf, Recorded } from './ops';

/** What the stream needs of a game's operations: a ticket, and where its stream is. */
export interface StreamOps {
  ticket(id: string): Promise<{ ticket: string }>;
  streamUrl(id: string): string;
}

export interface Listener<V> {
  view(envelope: EnvelopeOf<V>): void;
  event(record: Recorded): void;
  status(text: string): void;
}

export function follow<V>(
  ops: StreamOps,
  gameId: string,
  seated: boolean,
  listener: Listener<V>,
): () => void {
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
    source.addEventListener('event', (message: MessageEvent<string>) => {
      const record = parsed(message.data);
      if (!isRecord(record)) return reopen();
      lastId = Number(message.lastEventId);
      listener.event(record);
    });
    source.addEventListener('view', (message: MessageEvent<string>) => {
      const envelope = parsed(message.data);
      if (!isEnvelope<V>(envelope)) return reopen();
      lastId = Number(message.lastEventId);
      last = envelope;
      listener.view(envelope);
    });
    source.addEventListener('patch', (message: MessageEvent<string>) => {
      const patch = parsed(message.data);
      try {
        if (!last) throw new Error('a patch before any view');
        if (!isPatch(patch)) throw new Error('not a JSON Patch');
        last = applyPatch(last, patch, true, false).newDocument;
        lastId = Number(message.lastEventId);
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

/** A message's JSON (undefined where it is none): checked by the guards below before use. */
function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isObject(value: unknown): value is object {
  return typeof value === 'object' && value !== null;
}

/** An `event` message: an event record, its event named by its type. */
function isRecord(value: unknown): value is Recorded {
  return (
    isObject(value) &&
    'version' in value &&
    typeof value.version === 'number' &&
    'event' in value &&
    isObject(value.event) &&
    'type' in value.event &&
    typeof value.event.type === 'string'
  );
}

/** A `view` message: a view envelope. Its view is the game's own, as the document declares the
 * game's stream: the board that draws it reads it by that type. */
function isEnvelope<V>(value: unknown): value is EnvelopeOf<V> {
  return (
    isObject(value) &&
    'version' in value &&
    typeof value.version === 'number' &&
    'view' in value &&
    isObject(value.view)
  );
}

/** A `patch` message: RFC 6902 operations, each with its op and path. */
function isPatch(value: unknown): value is Operation[] {
  return (
    Array.isArray(value) &&
    value.every(
      (op: unknown) =>
        isObject(op) &&
        'op' in op &&
        typeof op.op === 'string' &&
        'path' in op &&
        typeof op.path === 'string',
    )
  );
}
