/** Each game's operations on a game (`/v1/<game>/games/{game_id}/...`), typed by that game's
 * schemas in the OpenAPI document: its turn's legal commands, its view, its replay and audit. The
 * pages are generic in a game's view `V` and command `C`, so no board casts what it draws. */
import { api, ok, type Schemas, spectator } from './api';
import type { Command } from './moves';

type Client = typeof api;

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

const at = (id: string) => ({ params: { path: { game_id: id } } });

/** Fjords: its own operations, typed by its own schemas. */
const fjordsTurn = (client: Client, id: string) =>
  ok(client.GET('/v1/fjords/games/{game_id}/turn', at(id)));
const fjordsView = (client: Client, id: string) =>
  ok(client.GET('/v1/fjords/games/{game_id}/view', at(id)));
export type FjordsCommand = Awaited<ReturnType<typeof fjordsTurn>>['legal_commands'][number];
export type FjordsView = Awaited<ReturnType<typeof fjordsView>>['view'];
export const fjordsOps = {
  turn: fjordsTurn,
  view: fjordsView,
  submit: (id: string, body: { command_id: string; command: FjordsCommand }, wait: number) =>
    ok(
      api.POST('/v1/fjords/games/{game_id}/commands', {
        params: { path: { game_id: id }, query: { wait } },
        body,
      }),
    ),
  replay: (id: string, version: number | null) =>
    ok(
      spectator.GET('/v1/fjords/games/{game_id}/replay', {
        params: { path: { game_id: id }, query: version === null ? {} : { at: version } },
      }),
    ),
  audit: (id: string, version: number) =>
    ok(
      spectator.GET('/v1/fjords/games/{game_id}/audit/{version}', {
        params: { path: { game_id: id, version } },
      }),
    ),
  ticket: (id: string) => ok(api.POST('/v1/fjords/games/{game_id}/stream-tickets', at(id))),
  streamUrl: (id: string) => `/v1/fjords/games/${encodeURIComponent(id)}/stream`,
  join: (id: string, body: { name: string }) =>
    ok(api.POST('/v1/fjords/games/{game_id}/seats', { ...at(id), body })),
  start: (id: string) => ok(api.POST('/v1/fjords/games/{game_id}/start', at(id))),
  resign: (id: string) => ok(api.POST('/v1/fjords/games/{game_id}/resign', at(id))),
  cancel: (id: string) => ok(api.POST('/v1/fjords/games/{game_id}/cancel', at(id))),
  rematch: (id: string) => ok(api.POST('/v1/fjords/games/{game_id}/rematch', at(id))),
} satisfies GameOps<FjordsView, FjordsCommand>;
/** Looot: its own operations, typed by its own schemas. */
const loootTurn = (client: Client, id: string) =>
  ok(client.GET('/v1/looot/games/{game_id}/turn', at(id)));
const loootView = (client: Client, id: string) =>
  ok(client.GET('/v1/looot/games/{game_id}/view', at(id)));
export type LoootCommand = Awaited<ReturnType<typeof loootTurn>>['legal_commands'][number];
export type LoootView = Awaited<ReturnType<typeof loootView>>['view'];
export const loootOps = {
  turn: loootTurn,
  view: loootView,
  submit: (id: string, body: { command_id: string; command: LoootCommand }, wait: number) =>
    ok(
      api.POST('/v1/looot/games/{game_id}/commands', {
        params: { path: { game_id: id }, query: { wait } },
        body,
      }),
    ),
  replay: (id: string, version: number | null) =>
    ok(
      spectator.GET('/v1/looot/games/{game_id}/replay', {
        params: { path: { game_id: id }, query: version === null ? {} : { at: version } },
      }),
    ),
  audit: (id: string, version: number) =>
    ok(
      spectator.GET('/v1/looot/games/{game_id}/audit/{version}', {
        params: { path: { game_id: id, version } },
      }),
    ),
  ticket: (id: string) => ok(api.POST('/v1/looot/games/{game_id}/stream-tickets', at(id))),
  streamUrl: (id: string) => `/v1/looot/games/${encodeURIComponent(id)}/stream`,
  join: (id: string, body: { name: string }) =>
    ok(api.POST('/v1/looot/games/{game_id}/seats', { ...at(id), body })),
  start: (id: string) => ok(api.POST('/v1/looot/games/{game_id}/start', at(id))),
  resign: (id: string) => ok(api.POST('/v1/looot/games/{game_id}/resign', at(id))),
  cancel: (id: string) => ok(api.POST('/v1/looot/games/{game_id}/cancel', at(id))),
  rematch: (id: string) => ok(api.POST('/v1/looot/games/{game_id}/rematch', at(id))),
} satisfies GameOps<LoootView, LoootCommand>;
/** Landnam: its own operations, typed by its own schemas. */
const landnamTurn = (client: Client, id: string) =>
  ok(client.GET('/v1/landnam/games/{game_id}/turn', at(id)));
const landnamView = (client: Client, id: string) =>
  ok(client.GET('/v1/landnam/games/{game_id}/view', at(id)));
export type LandnamCommand = Awaited<ReturnType<typeof landnamTurn>>['legal_commands'][number];
export type LandnamView = Awaited<ReturnType<typeof landnamView>>['view'];
export const landnamOps = {
  turn: landnamTurn,
  view: landnamView,
  submit: (id: string, body: { command_id: string; command: LandnamCommand }, wait: number) =>
    ok(
      api.POST('/v1/landnam/games/{game_id}/commands', {
        params: { path: { game_id: id }, query: { wait } },
        body,
      }),
    ),
  replay: (id: string, version: number | null) =>
    ok(
      spectator.GET('/v1/landnam/games/{game_id}/replay', {
        params: { path: { game_id: id }, query: version === null ? {} : { at: version } },
      }),
    ),
  audit: (id: string, version: number) =>
    ok(
      spectator.GET('/v1/landnam/games/{game_id}/audit/{version}', {
        params: { path: { game_id: id, version } },
      }),
    ),
  ticket: (id: string) => ok(api.POST('/v1/landnam/games/{game_id}/stream-tickets', at(id))),
  streamUrl: (id: string) => `/v1/landnam/games/${encodeURIComponent(id)}/stream`,
  join: (id: string, body: { name: string }) =>
    ok(api.POST('/v1/landnam/games/{game_id}/seats', { ...at(id), body })),
  start: (id: string) => ok(api.POST('/v1/landnam/games/{game_id}/start', at(id))),
  resign: (id: string) => ok(api.POST('/v1/landnam/games/{game_id}/resign', at(id))),
  cancel: (id: string) => ok(api.POST('/v1/landnam/games/{game_id}/cancel', at(id))),
  rematch: (id: string) => ok(api.POST('/v1/landnam/games/{game_id}/rematch', at(id))),
} satisfies GameOps<LandnamView, LandnamCommand>;
/** FireAndAxe: its own operations, typed by its own schemas. */
const fireAndAxeTurn = (client: Client, id: string) =>
  ok(client.GET('/v1/fire-and-axe/games/{game_id}/turn', at(id)));
const fireAndAxeView = (client: Client, id: string) =>
  ok(client.GET('/v1/fire-and-axe/games/{game_id}/view', at(id)));
export type FireAndAxeCommand = Awaited<
  ReturnType<typeof fireAndAxeTurn>
>['legal_commands'][number];
export type FireAndAxeView = Awaited<ReturnType<typeof fireAndAxeView>>['view'];
export const fireAndAxeOps = {
  turn: fireAndAxeTurn,
  view: fireAndAxeView,
  submit: (id: string, body: { command_id: string; command: FireAndAxeCommand }, wait: number) =>
    ok(
      api.POST('/v1/fire-and-axe/games/{game_id}/commands', {
        params: { path: { game_id: id }, query: { wait } },
        body,
      }),
    ),
  replay: (id: string, version: number | null) =>
    ok(
      spectator.GET('/v1/fire-and-axe/games/{game_id}/replay', {
        params: { path: { game_id: id }, query: version === null ? {} : { at: version } },
      }),
    ),
  audit: (id: string, version: number) =>
    ok(
      spectator.GET('/v1/fire-and-axe/games/{game_id}/audit/{version}', {
        params: { path: { game_id: id, version } },
      }),
    ),
  ticket: (id: string) => ok(api.POST('/v1/fire-and-axe/games/{game_id}/stream-tickets', at(id))),
  streamUrl: (id: string) => `/v1/fire-and-axe/games/${encodeURIComponent(id)}/stream`,
  join: (id: string, body: { name: string }) =>
    ok(api.POST('/v1/fire-and-axe/games/{game_id}/seats', { ...at(id), body })),
  start: (id: string) => ok(api.POST('/v1/fire-and-axe/games/{game_id}/start', at(id))),
  resign: (id: string) => ok(api.POST('/v1/fire-and-axe/games/{game_id}/resign', at(id))),
  cancel: (id: string) => ok(api.POST('/v1/fire-and-axe/games/{game_id}/cancel', at(id))),
  rematch: (id: string) => ok(api.POST('/v1/fire-and-axe/games/{game_id}/rematch', at(id))),
} satisfies GameOps<FireAndAxeView, FireAndAxeCommand>;
