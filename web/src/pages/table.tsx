/** The table: the waiting room while seats are free, then the board, live. A seat sees its own
 * view and plays its legal moves by clicking them; anyone else watches the public view. */
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';

import { api, commandId, ok, reason, type Schemas, spectator } from '../api';
import type { GameUi } from '../boards/types';
import { identity } from '../identity';
import { follow } from '../live';
import { type Command, choices, reachable, select, sentence } from '../moves';
import { listNames, namer, PlayerNames } from '../names';
import type { EnvelopeOf, GameOps, TurnOf } from '../ops';
import { link } from '../route';
import type { Picking } from '../target';
import { Choices, GameLinks, Kinds, kindKey, OutcomeText } from './common';
import { Clocks, GameActions } from './table_actions';

function joinBody(): { name: string } {
  return { name: identity()?.name ?? 'Player' };
}

function WaitingRoom<V, C extends Command>(props: {
  ops: GameOps<V, C>;
  game: string;
  id: string;
  turn: TurnOf<C> | null;
  seated: boolean;
  onChange(): void;
}) {
  const { ops, game, id, seated } = props;
  const [entry, setEntry] = useState<Schemas['LobbyEntry'] | null>(null);
  const [error, setError] = useState('');
  useEffect(() => {
    ok(spectator.GET('/v1/games', { params: { query: { open: true } } }))
      .then((lobby) => setEntry(lobby.games.find((g) => g.game_id === id) ?? null))
      .catch((err) => setError(reason(err)));
  }, [id, props.turn]);
  async function act(what: 'join' | 'start') {
    try {
      if (what === 'join') await ops.join(id, joinBody());
      else await ops.start(id);
      props.onChange();
    } catch (err) {
      setError(reason(err));
    }
  }
  const share = `${location.origin}${location.pathname}${link.table(game, id)}`;
  return (
    <section class="card waiting" aria-label="Waiting room">
      <h2>Waiting for players</h2>
      {entry && (
        <p>
          {entry.taken.length} of {entry.seats} seats taken
          {entry.players &&
            entry.players.length > 0 &&
            `: ${entry.players.map((p) => `${p.name} (seat ${p.seat})`).join(', ')}`}
          .
        </p>
      )}
      <p>
        Share this link to invite players:{' '}
        <input
          readOnly
          value={share}
          aria-label="Link to this game"
          onFocus={(e) => e.currentTarget.select()}
        />
      </p>
      <p>
        The game starts when every seat is taken, or when its creator starts it with bots in the
        free seats.
      </p>
      {!seated && identity() && (
        <button type="button" onClick={() => act('join')}>
          Take a seat
        </button>
      )}
      {!identity() && (
        <p>
          Become a player in the <a href={link.lobby()}>lobby</a> to take a seat.
        </p>
      )}
      {seated && (
        <button type="button" onClick={() => act('start')}>
          Start now, with bots in the free seats
        </button>
      )}
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
    </section>
  );
}

export function TableOf<V, C extends Command>(props: {
  ui: GameUi<V, C>;
  id: string;
  watch: boolean;
}) {
  const { ui, id } = props;
  const game = ui.name;
  const [turn, setTurn] = useState<TurnOf<C> | null>(null);
  const [seated, setSeated] = useState<boolean | null>(null);
  const [envelope, setEnvelope] = useState<EnvelopeOf<V> | null>(null);
  const [events, setEvents] = useState<{ version: number; text: string }[]>([]);
  const [status, setStatus] = useState('connecting…');
  const [selection, setSelection] = useState<string[]>([]);
  const [message, setMessage] = useState<{ text: string; refused: boolean } | null>(null);
  const [busy, setBusy] = useState(false);
  const [refresh, setRefresh] = useState(0);
  const version = useRef(-1);

  // Who we are at this table: a seat (its token proves it) or a spectator.
  async function readTurn(): Promise<TurnOf<C> | null> {
    const client = !props.watch && identity() ? api : spectator;
    try {
      const read = await ui.ops.turn(client, id);
      setTurn(read);
      setSeated(read.seat !== null && read.seat !== undefined);
      return read;
    } catch (err) {
      if (client === api) {
        // Not one of this game's players: watch it.
        const read = await ui.ops.turn(spectator, id);
        setTurn(read);
        setSeated(false);
        return read;
      }
      setMessage({ text: reason(err), refused: true });
      return null;
    }
  }

  useEffect(() => {
    void readTurn();
  }, [id, refresh]);

  const open = turn?.phase === 'open';
  /** What the seat's buttons (the waiting room's, the game's) act on, and how they refresh it. */
  const seatActions = {
    ops: ui.ops,
    game,
    id,
    turn,
    seated: seated === true,
    onChange: () => setRefresh(refresh + 1),
  };
  // While the game waits for players, look again now and then; once it runs, follow it live.
  useEffect(() => {
    if (!open) return;
    const timer = window.setInterval(() => void readTurn(), 1500);
    return () => window.clearInterval(timer);
  }, [open]);

  const started = turn !== null && !open && seated !== null;
  // The view once by a plain read too, so the table draws even where the stream cannot open.
  useEffect(() => {
    if (!started) return;
    const client = seated ? api : spectator;
    ui.ops
      .view(client, id)
      .then((read) => setEnvelope((held) => held ?? read))
      .catch(() => undefined);
  }, [started, seated, id]);

  useEffect(() => {
    if (!started) return;
    return follow<V>(ui.ops, id, seated === true, {
      view(next) {
        setEnvelope(next);
        if (next.version !== version.current) {
          version.current = next.version;
          void readTurn();
        }
      },
      event(record) {
        setEvents((list) => [{ version: record.version, text: sentence(record.event) }, ...list]);
      },
      status: setStatus,
    });
  }, [started, seated, id]);

  // Escape drops the places picked so far.
  useEffect(() => {
    if (!selection.length) return;
    const drop = (e: KeyboardEvent) => e.key === 'Escape' && setSelection([]);
    window.addEventListener('keydown', drop);
    return () => window.removeEventListener('keydown', drop);
  }, [selection.length]);

  const legal = useMemo(() => turn?.legal_commands ?? [], [turn]);
  useEffect(() => setSelection([]), [turn?.version]);
  // A move is picked by its places on the board, or by its kind (for moves that name none).
  const keysOf = (command: C) => [...ui.keysOf(command), kindKey(command)];
  const left = useMemo(() => choices(legal, keysOf, selection), [legal, selection]);
  const onBoard = useMemo(() => reachable(left, ui.keysOf), [left]);
  const limit = selection.length || !onBoard.size ? 200 : 12;
  // The kinds, where the list is too long and they differ (or one is picked, to take it back).
  const kinds =
    (left.length > limit && new Set(left.map((move) => move.type)).size > 1) ||
    selection.some((key) => key.startsWith('type:'));
  const picking: Picking | undefined = legal.length
    ? {
        reachable: reachable(left, keysOf),
        selection,
        pick(key) {
          const next = select(selection, key);
          const remaining = choices(legal, keysOf, next);
          if (remaining.length === 1 && next.includes(key)) void play(remaining[0]);
          else setSelection(next);
        },
      }
    : undefined;

  async function play(command: C) {
    setBusy(true);
    setMessage(null);
    try {
      const outcome = await ui.ops.submit(id, { command_id: commandId(), command }, 5);
      if (outcome.status === 'refused')
        setMessage({ text: outcome.message ?? 'refused', refused: true });
      else
        setMessage({
          text: `Played: ${ui.describe(command, envelope?.view ?? null)}`,
          refused: false,
        });
      setSelection([]);
      await readTurn();
    } catch (err) {
      setMessage({ text: `Refused: ${reason(err)}`, refused: true });
    } finally {
      setBusy(false);
    }
  }

  const name = namer(envelope?.players);
  const toAct = turn?.to_act ?? [];
  const mine =
    seated && turn?.seat !== null && turn?.seat !== undefined && toAct.includes(turn.seat);
  return (
    <PlayerNames players={envelope?.players}>
      <div
        class={`table ${game}${busy ? ' busy' : ''}`}
        data-state={`${turn?.version ?? ''}|${legal.length}|${selection.join(',')}|${busy}`}
      >
        <header class="table-head">
          <h1>
            {ui.label} <small class="game-id">{id}</small>
          </h1>
          <GameLinks game={game} id={id} />
          <p class="status" aria-live="polite">
            {seated && turn?.seat !== null && turn?.seat !== undefined
              ? `You are ${name(turn.seat)} (seat ${turn.seat})`
              : 'Watching (public view)'}{' '}
            · version {envelope?.version ?? turn?.version ?? '…'} · {status}
            {turn?.phase === 'cancelled'
              ? ' · the game was cancelled'
              : turn?.finished
                ? ' · the game is over'
                : toAct.length
                  ? ` · to play: ${listNames(name, toAct)}`
                  : ''}
          </p>
          <Clocks turn={turn} />
          <GameActions {...seatActions} />
        </header>
        {open && <WaitingRoom {...seatActions} />}
        {envelope && (
          <div class="play">
            <div class="board-area">
              <ui.Board view={envelope.view} picking={busy ? undefined : picking} />
            </div>
            <aside class="side">
              {mine && !busy && (
                <p class="your-turn" role="status">
                  Your turn:{' '}
                  {selection.length
                    ? 'choose a move below, or another place'
                    : 'pick a highlighted place, or a move below'}
                  .
                </p>
              )}
              {message && (
                <p
                  role={message.refused ? 'alert' : 'status'}
                  class={message.refused ? 'error refusal' : 'played'}
                >
                  {message.text}
                </p>
              )}
              {legal.length > 0 && !busy && (
                <>
                  {selection.length > 0 && (
                    <button type="button" class="link" onClick={() => setSelection([])}>
                      Clear the selection (Escape)
                    </button>
                  )}
                  {kinds && <Kinds moves={left} picking={picking} />}
                  <Choices
                    ui={ui}
                    view={envelope.view}
                    moves={left}
                    onPlay={play}
                    limit={limit}
                    narrow={
                      kinds
                        ? 'a place on the board (or a tile), or a kind of move above,'
                        : undefined
                    }
                  />
                </>
              )}
              {ui.Side && <ui.Side view={envelope.view} />}
              <OutcomeText outcome={turn?.outcome} />
              <section class="log" aria-label="What happened">
                <h3>What happened</h3>
                <ul class="log-list">
                  {events.map((line, i) => (
                    <li key={events.length - i} data-version={line.version}>
                      <span class="version">{line.version}</span> {line.text}
                    </li>
                  ))}
                </ul>
              </section>
            </aside>
          </div>
        )}
      </div>
    </PlayerNames>
  );
}
