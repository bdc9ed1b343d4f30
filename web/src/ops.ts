/** Each game's operations on a game (`/v1/<game>/games/{game_id}/...`), typed by that game's
 * schemas in the OpenAPI document: its turn's legal commands, its view, its replay and audit. The
 * pages are generic in a game's view `V` and command `C`, so no board casts what it draws. The
 * operations are written once, over the paths of any game the document serves (`gameOps`). */
import type { MethodResponse } from 'openapi-fetch';

import type { paths } from '../generated/schema';
import { api, ok, type Schemas, spectator } from './api';
import type { Command } from './moves';

type Client = typeof api;

/** The games the API serves: each `/v1/<game>/games/{game_id}/turn` of the document names one. */
type GameIn<Path> = Path extends `/v1/${infer Game}/games/{game_id}/turn` ? Game : never;
export type GameName = GameIn<keyof paths>;

/** A path of game `G`'s operations on one of its games. */
type PathOf<G extends GameName, Rest extends string> = `/v1/${G}/games/{game_id}${Rest}`;

/** A game's command and view, as its own turn and view operations type them. */
export type CommandOf<G extends GameName> = MethodResponse<
  Client,
  'get',
  PathOf<G, '/turn'>
>['legal_commands'][number];
export type ViewOf<G extends GameName> = MethodResponse<Client, 'get', PathOf<G, '/view'>>['view'];

/** An event as a game's operations type it (each game's own union); pages put it in words. */
export interface Recorded extends Omit<Schemas['EventRecord'], 'event'> {
  event: { type: string };
}

export interface TurnOf<C> extends Omit<Schemas['Turn'], 'legal_commands'> {
  legal_commands: C[];
}
export interface EnvelopeOf<V> extends Omit<Schemas['ViewEnvelope'], 'view'> {
  view: V;
}
export interface FrameOf<V, C> extends Omit<Schemas['ReplayFrame'], 'view' | 'moves'> {
  view: V | null;
  moves: (Omit<Schemas['MoveRecord'], 'command' | 'events'> & {
    command?: C | null;
    events?: Recorded[];
  })[];
}
export interface ReportOf<V, C>
  extends Omit<
    Schemas['AuditReport'],
    | 'public_view_before'
    | 'seat_view_before'
    | 'legal_alternatives'
    | 'command'
    | 'fairness'
    | 'events'
  > {
  events?: Recorded[];
  public_view_before?: V | null;
  seat_view_before?: V | null;
  legal_alternatives?: C[] | null;
  command?: (Omit<Schemas['CommandAsReceived'], 'command'> & { command?: C | null }) | null;
  fairness?: Omit<Schemas['FairnessReport'], 'mismatch'> | null;
}
export type OutcomeOf<C> = Omit<Schemas['CommandOutcome'], 'legal_commands'> & {
  legal_commands?: C[] | null;
};

export interface GameOps<V, C extends Command> {
  turn(client: Client, id: string): Promise<TurnOf<C>>;
  view(client: Client, id: string): Promise<EnvelopeOf<V>>;
  submit(id: string, body: { command_id: string; command: C }, wait: number): Promise<OutcomeOf<C>>;
  replay(id: string, at: number | null): Promise<FrameOf<V, C>>;
  audit(id: string, version: number): Promise<ReportOf<V, C>>;
  ticket(id: string): Promise<Schemas['StreamTicket']>;
  streamUrl(id: string): string;
  join(id: string, body: { name: string }): Promise<Schemas['SeatJoined']>;
  start(id: string): Promise<OutcomeOf<C>>;
  resign(id: string): Promise<OutcomeOf<C>>;
  cancel(id: string): Promise<OutcomeOf<C>>;
  rematch(id: string): Promise<Schemas['Rematch']>;
}

/** A command submitted to any game: one game's command in that game's request body. */
type SubmitBody = NonNullable<
  paths[PathOf<GameName, '/commands'>]['post']['requestBody']
>['content']['application/json'];

/** The clients the operations call through: a player's (its token sent) and a spectator's
 * (replays and audits are read as anyone reads them). */
export interface Clients {
  player: Client;
  spectator: Client;
}

/** Game `game`'s operations, typed by its own schemas. They are written once over the paths of
 * every game (the document types each call for all of them), then given the types of `game`'s
 * own paths, the ones its `/v1/<game>/...` path strings reach. */
export function gameOps<G extends GameName>(
  game: G,
  clients: Clients = { player: api, spectator },
): GameOps<ViewOf<G>, CommandOf<G>> {
  const path = <Rest extends string>(rest: Rest) =>
    `/v1/${game}/games/{game_id}${rest}` as PathOf<GameName, Rest>;
  const at = (id: string) => ({ params: { path: { game_id: id } } });
  const ops: GameOps<ViewOf<GameName>, CommandOf<GameName>> = {
    turn: (client, id) => ok(client.GET(path('/turn'), at(id))),
    view: (client, id) => ok(client.GET(path('/view'), at(id))),
    // `body` is `game`'s own request body, here among every game's.
    submit: (id, body, wait) =>
      ok(
        clients.player.POST(path('/commands'), {
          params: { path: { game_id: id }, query: { wait } },
          body: body as SubmitBody,
        }),
      ),
    replay: (id, version) =>
      ok(
        clients.spectator.GET(path('/replay'), {
          params: { path: { game_id: id }, query: version === null ? {} : { at: version } },
        }),
      ),
    audit: (id, version) =>
      ok(
        clients.spectator.GET(path('/audit/{version}'), {
          params: { path: { game_id: id, version } },
        }),
      ),
    ticket: (id) => ok(clients.player.POST(path('/stream-tickets'), at(id))),
    streamUrl: (id) => `/v1/${game}/games/${encodeURIComponent(id)}/stream`,
    join: (id, body) => ok(clients.player.POST(path('/seats'), { ...at(id), body })),
    start: (id) => ok(clients.player.POST(path('/start'), at(id))),
    resign: (id) => ok(clients.player.POST(path('/resign'), at(id))),
    cancel: (id) => ok(clients.player.POST(path('/cancel'), at(id))),
    rematch: (id) => ok(clients.player.POST(path('/rematch'), at(id))),
  };
  return ops as GameOps<ViewOf<G>, CommandOf<G>>;
}
