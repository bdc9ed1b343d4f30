/** Pieces several pages share: the outcome, the move chooser, links for a game. */
import { useEffect, useState } from 'preact/hooks';

import { type Schemas, spectator } from '../api';
import type { GameUi } from '../boards/types';
import { type Command, words } from '../moves';
import { type PlayerName, useSeatName } from '../names';
import { link } from '../route';
import { type Picking, Target } from '../target';

export function OutcomeText(props: { outcome: Schemas['Outcome'] | null | undefined }) {
  const { outcome } = props;
  const name = useSeatName();
  if (!outcome) return null;
  const suffixes: Record<number, string> = { 1: 'st', 2: 'nd', 3: 'rd' };
  const ordinal = (rank: number) => `${rank}${suffixes[rank] ?? 'th'}`;
  return (
    <section class="outcome" aria-label="Result">
      <h3>Result</h3>
      <table class="scores">
        <thead>
          <tr>
            <th>Rank</th>
            <th>Player</th>
            <th>Points</th>
            <th>Of which</th>
          </tr>
        </thead>
        <tbody>
          {[...outcome.scores]
            .sort((a, b) => a.rank - b.rank || b.total - a.total)
            .map((s) => (
              <tr
                key={s.seat}
                data-seat={s.seat}
                data-rank={s.rank}
                class={outcome.winners.includes(s.seat) ? 'winner' : undefined}
              >
                <td>{ordinal(s.rank)}</td>
                <td>
                  {name(s.seat)}
                  {outcome.winners.includes(s.seat) ? ' (winner)' : ''}
                </td>
                <td class="total">{s.total}</td>
                <td class="small">
                  {Object.entries(s.breakdown)
                    .filter(([, points]) => points !== 0)
                    .map(([rule, points]) => `${rule.replace(/_/g, ' ')} ${points}`)
                    .join(', ') || '–'}
                </td>
              </tr>
            ))}
        </tbody>
      </table>
      {outcome.tie_break && <p class="small">Tie broken by {outcome.tie_break}</p>}
    </section>
  );
}

/** Whether two commands are the same (field order aside). */
export function same(a: unknown, b: unknown): boolean {
  const canon = (x: unknown): string =>
    JSON.stringify(x, (_k, v) =>
      v && typeof v === 'object' && !Array.isArray(v)
        ? Object.fromEntries(Object.entries(v).sort())
        : v,
    );
  return canon(a) === canon(b);
}

/** The commands left after the board selection, each a button that plays it. */
export function Choices<V, C extends Command>(props: {
  ui: GameUi<V, C>;
  view: V | null;
  moves: C[];
  onPlay?(command: C): void;
  limit?: number;
  /** What narrows a list too long to show (the table's kinds of move, besides the board). */
  narrow?: string;
  played?: C | null;
}) {
  const { ui, view, moves, onPlay } = props;
  const limit = props.limit ?? 40;
  if (moves.length === 0) return null;
  if (moves.length > limit)
    return (
      <p class="hint">
        {moves.length} moves: pick {props.narrow ?? 'a place on the board (or a tile)'} to narrow
        them down.
      </p>
    );
  return (
    <ul class="choices" aria-label="Moves">
      {moves.map((move, i) => (
        <li key={i} class={props.played && same(move, props.played) ? 'played-move' : undefined}>
          {onPlay ? (
            <button
              type="button"
              class="move"
              onClick={() => onPlay(move)}
              data-move={JSON.stringify(move)}
            >
              {ui.Preview && <ui.Preview command={move} view={view} />}
              {ui.describe(move, view)}
            </button>
          ) : (
            <span class="move" data-move={JSON.stringify(move)}>
              {ui.Preview && <ui.Preview command={move} view={view} />}
              {ui.describe(move, view)}
            </span>
          )}
        </li>
      ))}
    </ul>
  );
}

export function GameLinks(props: { game: string; id: string }) {
  const { game, id } = props;
  return (
    <nav class="game-links" aria-label="This game">
      <a href={link.table(game, id)}>Table</a> · <a href={link.watch(game, id)}>Watch</a> ·{' '}
      <a href={link.replay(game, id)}>Replay</a>
    </nav>
  );
}

/** The key that picks the moves of one kind ("type:OfferTrade"). */
export function kindKey(command: Command): string {
  return `type:${command.type}`;
}

/** The kinds of the moves left, each a place to pick with its count of moves: what narrows a
 * list too long to show where the board cannot (moves that name no place on it). */
export function Kinds<C extends Command>(props: { moves: C[]; picking: Picking | undefined }) {
  const counts = new Map<string, number>();
  for (const move of props.moves) counts.set(move.type, (counts.get(move.type) ?? 0) + 1);
  return (
    <ul class="kinds" aria-label="Kinds of move">
      {[...counts].map(([type, count]) => (
        <li key={type}>
          <Target
            html
            picking={props.picking}
            k={`type:${type}`}
            label={`${words(type)}: ${count} move${count === 1 ? '' : 's'}`}
          >
            <span class="kind">
              {words(type)} <small>({count})</small>
            </span>
          </Target>
        </li>
      ))}
    </ul>
  );
}

/** The game's players' names, from its public view (replay frames and audit reports carry
 * none); empty until read, and left empty if the read fails. */
export function usePlayerNames<V, C extends Command>(ui: GameUi<V, C>, id: string): PlayerName[] {
  const [players, setPlayers] = useState<PlayerName[]>([]);
  useEffect(() => {
    ui.ops
      .view(spectator, id)
      .then((read) => setPlayers(read.players))
      .catch(() => undefined);
  }, [id]);
  return players;
}
