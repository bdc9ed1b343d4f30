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

/** What follow needs of the browser's EventSource (a stand-in in the tests). */
export interface Source {
  addEventListener(type: string, listener: (message: MessageEvent<string>) => void): void;
  close(): void;
}

/** The messages the stream sends, by their SSE event name. */
export type MessageName = 'event' | 'view' | 'patch';
const MESSAGES: readonly MessageName[] = ['event', 'view', 'patch'];
/** How long after a drop the stream reopens. */
export const REOPEN_AFTER_MS = 1000;

/** What the stream has given so far: the last view (whole or patched) and the last message's id. */
export interface Seen<V> {
  view: EnvelopeOf<V> | null;
  lastId: number | null;
}
export const NOTHING_SEEN: Seen<never> = { view: null, lastId: null };

/** What one message makes of what was seen: a view to show, an event to tell, or, where it does
 * not fit (not what its name says, or a patch that does not apply to the view held), a reopening,
 * which sends the whole view again. */
export type Update<V> =
  | { kind: 'view'; seen: Seen<V>; envelope: EnvelopeOf<V> }
  | { kind: 'event'; seen: Seen<V>; record: Recorded }
  | { kind: 'reopen'; reason: string };

/** The update one message (its name, data and id) makes to what was seen, which it leaves as it
 * was: a patch applies to a copy of the view held. */
export function update<V>(seen: Seen<V>, name: MessageName, data: string, id: string): Update<V> {
  const message = parsed(data);
  const lastId = Number(id);
  if (name === 'event') {
    if (!isRecord(message)) return { kind: 'reopen', reason: 'not an event record' };
    return { kind: 'event', seen: { ...seen, lastId }, record: message };
  }
  if (name === 'view') {
    if (!isEnvelope<V>(message)) return { kind: 'reopen', reason: 'not a view envelope' };
    return { kind: 'view', seen: { view: message, lastId }, envelope: message };
  }
  if (!seen.view) return { kind: 'reopen', reason: 'a patch before any view' };
  if (!isPatch(message)) return { kind: 'reopen', reason: 'not a JSON Patch' };
  try {
    const envelope = applyPatch(seen.view, message, true, false).newDocument;
    return { kind: 'view', seen: { view: envelope, lastId }, envelope };
  } catch (error) {
    return { kind: 'reopen', reason: `the patch does not apply: ${String(error)}` };
  }
}

/** Where the stream opens: with the seat's ticket, from the last message seen. */
export function streamAddress(url: string, ticket: string | null, lastId: number | null): string {
  const query = new URLSearchParams();
  if (ticket !== null) query.set('ticket', ticket);
  if (lastId !== null) query.set('last_event_id', String(lastId));
  return `${url}?${query}`;
}

export function follow<V>(
  ops: StreamOps,
  gameId: string,
  seated: boolean,
  listener: Listener<V>,
  connect: (url: string) => Source = (url) => new EventSource(url),
): () => void {
  let source: Source | null = null;
  let seen: Seen<V> = NOTHING_SEEN;
  let closed = false;
  let retry: ReturnType<typeof setTimeout> | undefined;

  async function open(): Promise<void> {
    const ticket = seated ? (await ops.ticket(gameId)).ticket : null;
    if (closed) return;
    source = connect(streamAddress(ops.streamUrl(gameId), ticket, seen.lastId));
    source.addEventListener('open', () => listener.status('live'));
    for (const name of MESSAGES) {
      source.addEventListener(name, (message) => {
        const next = update(seen, name, message.data, message.lastEventId);
        if (next.kind === 'reopen') return reopen();
        seen = next.seen;
        if (next.kind === 'event') listener.event(next.record);
        else listener.view(next.envelope);
      });
    }
    // A ticket opens the stream once: the browser's own reconnection cannot reuse it.
    source.addEventListener('error', () => reopen());
  }

  function reopen(): void {
    source?.close();
    source = null;
    if (closed) return;
    listener.status('reconnecting…');
    clearTimeout(retry);
    retry = setTimeout(() => void open().catch(() => reopen()), REOPEN_AFTER_MS);
  }

  void open().catch(() => reopen());
  return () => {
    closed = true;
    clearTimeout(retry);
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
