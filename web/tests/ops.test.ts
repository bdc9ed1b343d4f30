/** Each game's operations, written once over the typed paths: every call goes to that game's own
 * path, through the player's client or the spectator's, against a stand-in server. */
import createClient from 'openapi-fetch';
import { describe, expect, it } from 'vitest';

import type { paths } from '../generated/schema';
import { ApiError, reason } from '../src/api';
import { type Clients, type CommandOf, type GameName, gameOps } from '../src/ops';

const GAMES: GameName[] = ['fjords', 'looot', 'landnam', 'fire-and-axe'];

/** A request as the stand-in server saw it: which client sent it, and what. */
interface Seen {
  client: 'player' | 'spectator';
  method: string;
  path: string;
  body: unknown;
}

/** Two clients on a stand-in server that answers `answer` (200 and `{ok: true}` by default). */
function server(answer?: (request: Request) => Response) {
  const seen: Seen[] = [];
  const client = (name: Seen['client']) =>
    createClient<paths>({
      baseUrl: 'http://skald.test',
      fetch: async (request) => {
        const url = new URL(request.url);
        const text = await request.clone().text();
        seen.push({
          client: name,
          method: request.method,
          path: url.pathname + url.search,
          body: text ? JSON.parse(text) : null,
        });
        return answer?.(request) ?? Response.json({ ok: true });
      },
    });
  const clients: Clients = { player: client('player'), spectator: client('spectator') };
  return { seen, clients };
}

describe.each(GAMES)('gameOps(%s)', (game) => {
  const base = `/v1/${game}/games/g-1`;

  it("reads the turn and the view through the client it is given, on the game's own paths", async () => {
    const { seen, clients } = server();
    const ops = gameOps(game, clients);
    await ops.turn(clients.spectator, 'g-1');
    await ops.view(clients.player, 'g-1');
    expect(seen).toEqual([
      { client: 'spectator', method: 'GET', path: `${base}/turn`, body: null },
      { client: 'player', method: 'GET', path: `${base}/view`, body: null },
    ]);
  });

  it('submits a command as the player, waiting the seconds asked', async () => {
    const { seen, clients } = server();
    const command: CommandOf<GameName> = { type: 'EndTurn' };
    await gameOps(game, clients).submit('g-1', { command_id: 'w-00ff', command }, 5);
    expect(seen).toEqual([
      {
        client: 'player',
        method: 'POST',
        path: `${base}/commands?wait=5`,
        body: { command_id: 'w-00ff', command: { type: 'EndTurn' } },
      },
    ]);
  });

  it('reads a replay (the latest, or at a version) and an audit as a spectator', async () => {
    const { seen, clients } = server();
    const ops = gameOps(game, clients);
    await ops.replay('g-1', null);
    await ops.replay('g-1', 30);
    await ops.audit('g-1', 20);
    expect(seen.map((s) => `${s.client} ${s.method} ${s.path}`)).toEqual([
      `spectator GET ${base}/replay`,
      `spectator GET ${base}/replay?at=30`,
      `spectator GET ${base}/audit/20`,
    ]);
  });

  it('takes a seat, starts, resigns, cancels, asks for a rematch and a stream ticket as the player', async () => {
    const { seen, clients } = server();
    const ops = gameOps(game, clients);
    await ops.join('g-1', { name: 'Astrid' });
    await ops.start('g-1');
    await ops.resign('g-1');
    await ops.cancel('g-1');
    await ops.rematch('g-1');
    await ops.ticket('g-1');
    expect(seen.map((s) => `${s.client} ${s.method} ${s.path} ${JSON.stringify(s.body)}`)).toEqual([
      `player POST ${base}/seats {"name":"Astrid"}`,
      `player POST ${base}/start null`,
      `player POST ${base}/resign null`,
      `player POST ${base}/cancel null`,
      `player POST ${base}/rematch null`,
      `player POST ${base}/stream-tickets null`,
    ]);
  });

  it("puts the game's id in one part of its paths", async () => {
    const { seen, clients } = server();
    const ops = gameOps(game, clients);
    await ops.turn(clients.player, 'a b/c');
    expect(seen[0].path).toBe(`/v1/${game}/games/a%20b%2Fc/turn`);
    expect(ops.streamUrl('a b/c')).toBe(`/v1/${game}/games/a%20b%2Fc/stream`);
  });
});

describe('a refusal', () => {
  it("becomes an ApiError carrying the problem's status, detail and code", async () => {
    const problem = {
      type: 'about:blank',
      title: 'Conflict',
      status: 409,
      detail: 'It is not your turn.',
      code: 'not_your_turn',
    };
    const { clients } = server(() => Response.json(problem, { status: 409 }));
    const refused = await gameOps('fjords', clients)
      .start('g-1')
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ApiError);
    if (!(refused instanceof ApiError)) return;
    expect([refused.status, refused.message, refused.code]).toEqual([
      409,
      'It is not your turn.',
      'not_your_turn',
    ]);
    expect(reason(refused)).toBe('It is not your turn. (not_your_turn)');
  });

  it("that is not a problem (a proxy's page) still says its status", async () => {
    const { clients } = server(() => new Response('<h1>Bad gateway</h1>', { status: 502 }));
    const refused = await gameOps('looot', clients)
      .resign('g-1')
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ApiError);
    expect(reason(refused)).toBe('HTTP 502');
  });
});
