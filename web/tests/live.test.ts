/** Live updates: whole views, RFC 6902 patches to the view held, events, and reopening the stream
 * (from the last message seen, with a fresh ticket for a seat) when a message does not fit. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import {
  follow,
  type Listener,
  NOTHING_SEEN,
  REOPEN_AFTER_MS,
  type Seen,
  type Source,
  streamAddress,
  update,
} from '../src/live';
import type { EnvelopeOf, Recorded } from '../src/ops';

/** A small view of a game: enough for patches to add, replace and remove in. */
interface View {
  to_act: number[];
  tiles: { tile: number; q: number; r: number }[];
  bag: number | null;
}

const envelope: EnvelopeOf<View> = {
  game_id: 'g-1',
  version: 7,
  seat: 0,
  players: [{ seat: 0, name: 'Astrid' }],
  view: { to_act: [0], tiles: [{ tile: 3, q: 0, r: 0 }], bag: 12 },
};
/** Version 7 to 8, as the server sends it: a guard on the version, then the changes. */
const patch = [
  { op: 'test', path: '/version', value: 7 },
  { op: 'replace', path: '/version', value: 8 },
  { op: 'add', path: '/view/tiles/-', value: { tile: 9, q: 1, r: -1 } },
  { op: 'replace', path: '/view/to_act/0', value: 1 },
  { op: 'remove', path: '/view/bag' },
];
const record: Recorded = { version: 8, hash: 'ab12', event: { type: 'TilePlaced' } };
/** Version 7 held: a copy each time, so that no test sees what another changed. */
const seenAt7 = (): Seen<View> => ({ view: structuredClone(envelope), lastId: 7 });

const json = (value: unknown) => JSON.stringify(value);

describe('update', () => {
  it('holds a whole view and the id of its message', () => {
    const next = update<View>(NOTHING_SEEN, 'view', json(envelope), '7');
    expect(next).toEqual({ kind: 'view', seen: { view: envelope, lastId: 7 }, envelope });
  });

  it('applies a patch to the view held', () => {
    const next = update(seenAt7(), 'patch', json(patch), '8');
    expect(next.kind).toBe('view');
    if (next.kind !== 'view') return;
    expect(next.envelope).toEqual({
      ...envelope,
      version: 8,
      view: {
        to_act: [1],
        tiles: [
          { tile: 3, q: 0, r: 0 },
          { tile: 9, q: 1, r: -1 },
        ],
      },
    });
    expect(next.seen).toEqual({ view: next.envelope, lastId: 8 });
  });

  it('leaves the view held as it was: a patch applies to a copy', () => {
    const seen = seenAt7();
    update(seen, 'patch', json(patch), '8');
    expect(seen).toEqual({ view: envelope, lastId: 7 });
  });

  it('applies patches one after another', () => {
    const first = update(seenAt7(), 'patch', json(patch), '8');
    if (first.kind !== 'view') throw new Error(`expected a view, got ${first.kind}`);
    const second = update(
      first.seen,
      'patch',
      json([
        { op: 'test', path: '/version', value: 8 },
        { op: 'replace', path: '/version', value: 9 },
        { op: 'replace', path: '/view/to_act', value: [] },
      ]),
      '9',
    );
    expect(second).toMatchObject({ kind: 'view', seen: { lastId: 9 }, envelope: { version: 9 } });
    if (second.kind === 'view') expect(second.envelope.view.to_act).toEqual([]);
  });

  it('reopens on a patch for another version than the one held (its guard fails)', () => {
    const stale = [{ op: 'test', path: '/version', value: 6 }, ...patch.slice(1)];
    expect(update(seenAt7(), 'patch', json(stale), '8')).toMatchObject({ kind: 'reopen' });
  });

  it('reopens on a patch to a path the view does not have', () => {
    const off = [{ op: 'replace', path: '/view/seats/3/score', value: 10 }];
    expect(update(seenAt7(), 'patch', json(off), '8')).toMatchObject({ kind: 'reopen' });
  });

  it('reopens on a patch before any view', () => {
    expect(update(NOTHING_SEEN, 'patch', json(patch), '8')).toEqual({
      kind: 'reopen',
      reason: 'a patch before any view',
    });
  });

  it('reopens on a message that is not what its name says', () => {
    expect(update(seenAt7(), 'patch', json({ op: 'add' }), '8')).toMatchObject({ kind: 'reopen' });
    expect(update(seenAt7(), 'patch', '[{"op": "add"', '8')).toMatchObject({ kind: 'reopen' });
    expect(update(seenAt7(), 'view', json({ version: 8 }), '8')).toMatchObject({ kind: 'reopen' });
    expect(update(seenAt7(), 'event', json({ version: 8, event: {} }), '8')).toMatchObject({
      kind: 'reopen',
    });
  });

  it('tells an event, keeping the view held and moving the last id on', () => {
    expect(update(seenAt7(), 'event', json(record), '8')).toEqual({
      kind: 'event',
      seen: { view: envelope, lastId: 8 },
      record,
    });
  });
});

describe('streamAddress', () => {
  it('opens with the ticket and from the last message seen, when there are', () => {
    const url = '/v1/fjords/games/g%201/stream';
    expect(streamAddress(url, null, null)).toBe(`${url}?`);
    expect(streamAddress(url, 'tk-1', null)).toBe(`${url}?ticket=tk-1`);
    expect(streamAddress(url, 'tk/1+', 8)).toBe(`${url}?ticket=tk%2F1%2B&last_event_id=8`);
  });
});

/** A stand-in for the browser's EventSource: the test sends its messages. */
class FakeSource implements Source {
  readonly listeners = new Map<string, ((message: MessageEvent<string>) => void)[]>();
  closed = false;
  constructor(readonly url: string) {}
  addEventListener(type: string, listener: (message: MessageEvent<string>) => void): void {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  close(): void {
    this.closed = true;
  }
  send(type: string, data = '', lastEventId = ''): void {
    const message = { data, lastEventId } as MessageEvent<string>;
    for (const listener of this.listeners.get(type) ?? []) listener(message);
  }
}

/** What a listener was told, in order. */
function recorder(): { told: string[]; listener: Listener<View> } {
  const told: string[] = [];
  return {
    told,
    listener: {
      view: (e) => told.push(`view ${e.version} to_act=${e.view.to_act.join(',')}`),
      event: (r) => told.push(`event ${r.version} ${r.event.type}`),
      status: (text) => told.push(`status ${text}`),
    },
  };
}

describe('follow', () => {
  let sources: FakeSource[];
  let tickets: number;
  const ops = {
    ticket: async () => ({ ticket: `tk-${++tickets}` }),
    streamUrl: (id: string) => `/v1/fjords/games/${id}/stream`,
  };
  const connect = (url: string) => {
    const source = new FakeSource(url);
    sources.push(source);
    return source;
  };

  beforeEach(() => {
    vi.useFakeTimers();
    sources = [];
    tickets = 0;
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('shows a view, its patches and events as they come', async () => {
    const { told, listener } = recorder();
    follow(ops, 'g-1', false, listener, connect);
    await vi.advanceTimersByTimeAsync(0);
    const [source] = sources;
    expect(source.url).toBe('/v1/fjords/games/g-1/stream?');
    source.send('open');
    source.send('view', json(envelope), '7');
    source.send('event', json(record), '8');
    source.send('patch', json(patch), '8');
    expect(told).toEqual([
      'status live',
      'view 7 to_act=0',
      'event 8 TilePlaced',
      'view 8 to_act=1',
    ]);
  });

  it('reopens after a patch that does not apply, from the last message seen, with a new ticket', async () => {
    const { told, listener } = recorder();
    follow(ops, 'g-1', true, listener, connect);
    await vi.advanceTimersByTimeAsync(0);
    expect(sources[0].url).toBe('/v1/fjords/games/g-1/stream?ticket=tk-1');
    sources[0].send('view', json(envelope), '7');
    sources[0].send('patch', json([{ op: 'test', path: '/version', value: 5 }]), '8');
    expect(sources[0].closed).toBe(true);
    expect(told.at(-1)).toBe('status reconnecting…');

    await vi.advanceTimersByTimeAsync(REOPEN_AFTER_MS - 1);
    expect(sources).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(sources).toHaveLength(2);
    expect(sources[1].url).toBe('/v1/fjords/games/g-1/stream?ticket=tk-2&last_event_id=7');
  });

  it('reopens after the connection drops', async () => {
    const { listener } = recorder();
    follow(ops, 'g-1', false, listener, connect);
    await vi.advanceTimersByTimeAsync(0);
    sources[0].send('view', json(envelope), '7');
    sources[0].send('event', json(record), '8');
    sources[0].send('error');
    await vi.advanceTimersByTimeAsync(REOPEN_AFTER_MS);
    expect(sources.map((s) => s.url)).toEqual([
      '/v1/fjords/games/g-1/stream?',
      '/v1/fjords/games/g-1/stream?last_event_id=8',
    ]);
  });

  it('stops for good once closed: the stream shuts and nothing reopens it', async () => {
    const { told, listener } = recorder();
    const stop = follow(ops, 'g-1', false, listener, connect);
    await vi.advanceTimersByTimeAsync(0);
    sources[0].send('error');
    stop();
    await vi.advanceTimersByTimeAsync(REOPEN_AFTER_MS * 5);
    expect(sources).toHaveLength(1);
    expect(sources[0].closed).toBe(true);
    expect(told).toEqual(['status reconnecting…']);
  });

  it('asks for a new ticket after one is refused', async () => {
    const { told, listener } = recorder();
    let asked = 0;
    const refusing = {
      ...ops,
      ticket: async () => {
        asked += 1;
        if (asked === 1) throw new Error('503');
        return { ticket: 'tk-after' };
      },
    };
    follow(refusing, 'g-1', true, listener, connect);
    await vi.advanceTimersByTimeAsync(0);
    expect(sources).toHaveLength(0);
    expect(told).toEqual(['status reconnecting…']);
    await vi.advanceTimersByTimeAsync(REOPEN_AFTER_MS);
    expect(sources.map((s) => s.url)).toEqual(['/v1/fjords/games/g-1/stream?ticket=tk-after']);
  });

  it('opens nothing when closed while its ticket is on its way, nor when that ticket fails', async () => {
    const answers: { resolve(t: { ticket: string }): void; reject(e: Error): void }[] = [];
    const slow = {
      ...ops,
      ticket: () =>
        new Promise<{ ticket: string }>((resolve, reject) => answers.push({ resolve, reject })),
    };
    const { told, listener } = recorder();
    follow(slow, 'g-1', true, listener, connect)();
    answers[0].resolve({ ticket: 'tk-late' });
    const second = recorder();
    follow(slow, 'g-2', true, second.listener, connect)();
    answers[1].reject(new Error('503'));
    await vi.advanceTimersByTimeAsync(REOPEN_AFTER_MS * 5);
    expect(sources).toHaveLength(0);
    expect([...told, ...second.told]).toEqual([]);
  });
});
