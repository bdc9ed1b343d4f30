/** What a player does to a game besides moves: resign, ask for the rematch, cancel it before it
 * starts; and the clock of the seats to act. */
import { useEffect, useState } from 'preact/hooks';

import { reason, type Schemas } from '../api';
import type { Command } from '../moves';
import { useSeatName } from '../names';
import type { GameOps } from '../ops';
import { link } from '../route';

/** "1:05": what is left of a clock, never below zero. */
export function clockText(ms: number): string {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  const m = Math.floor(seconds / 60);
  const s = seconds % 60;
  return m >= 60
    ? `${Math.floor(m / 60)}:${String(m % 60).padStart(2, '0')}:${String(s).padStart(2, '0')}`
    : `${m}:${String(s).padStart(2, '0')}`;
}

/** Each waited-for seat's turn clock, counting down to its deadline; nothing in untimed games. */
/** The parts of a turn these pieces read (any game's turn has them). */
type TurnState = Omit<Schemas['Turn'], 'legal_commands'>;

export function Clocks(props: { turn: TurnState | null }) {
  const name = useSeatName();
  const [now, setNow] = useState(() => Date.now());
  const deadlines = Object.entries(props.turn?.deadlines ?? {}).map(
    ([seat, at]) => [Number(seat), at] as const,
  );
  useEffect(() => {
    if (!deadlines.length) return;
    setNow(Date.now()); // not the time the page opened: the clocks start from now
    const timer = window.setInterval(() => setNow(Date.now()), 500);
    return () => window.clearInterval(timer);
  }, [deadlines.length]);
  if (!deadlines.length || props.turn?.finished) return null;
  return (
    <ul class="clocks" aria-label="Turn clocks">
      {deadlines.map(([seat, at]) => (
        <li
          key={seat}
          data-seat={seat}
          data-deadline={at}
          class={at - now < 10_000 ? 'clock urgent' : 'clock'}
        >
          {name(seat)}: <time dateTime={new Date(at).toISOString()}>{clockText(at - now)}</time>{' '}
          left to play
        </li>
      ))}
    </ul>
  );
}

type Action = 'resign' | 'rematch' | 'cancel';

/** The buttons a seat has on this game now: resign while it runs (asked twice), the rematch
 * once it is over, cancel while it waits for players (the API lets only its creator). */
export function GameActions<V, C extends Command>(props: {
  ops: GameOps<V, C>;
  game: string;
  id: string;
  turn: TurnState | null;
  seated: boolean;
  onChange(): void;
}) {
  const { ops, game, id, turn, seated } = props;
  const [asking, setAsking] = useState<Action | null>(null);
  const [message, setMessage] = useState<{ text: string; refused: boolean } | null>(null);
  if (!seated || !turn) return null;
  async function act(what: Action) {
    setAsking(null);
    setMessage(null);
    try {
      if (what === 'rematch') {
        const rematch = await ops.rematch(id);
        location.hash = link.table(game, rematch.game_id);
        return;
      }
      const outcome = await (what === 'resign' ? ops.resign(id) : ops.cancel(id));
      setMessage({
        text:
          what === 'resign'
            ? `You resigned: a bot plays your seat (${outcome.status}).`
            : `The game is cancelled (${outcome.status}).`,
        refused: false,
      });
      props.onChange();
    } catch (err) {
      setMessage({ text: `Refused: ${reason(err)}`, refused: true });
    }
  }
  const offered: Action[] =
    turn.phase === 'open'
      ? ['cancel']
      : turn.finished
        ? ['rematch']
        : turn.phase === 'started'
          ? ['resign']
          : [];
  const labels: Record<Action, string> = {
    resign: 'Resign',
    rematch: 'Rematch',
    cancel: 'Cancel this game',
  };
  const confirm: Record<Action, string> = {
    resign: 'Yes, resign: a bot plays my seat',
    rematch: 'Yes, a rematch',
    cancel: 'Yes, cancel it for everyone',
  };
  return (
    <section class="game-actions" aria-label="Game actions">
      {offered.map((what) =>
        asking === what ? (
          <span key={what}>
            <button type="button" class="danger" onClick={() => void act(what)}>
              {confirm[what]}
            </button>{' '}
            <button type="button" class="link" onClick={() => setAsking(null)}>
              No
            </button>
          </span>
        ) : (
          <button
            type="button"
            key={what}
            onClick={() => (what === 'rematch' ? void act(what) : setAsking(what))}
          >
            {labels[what]}
          </button>
        ),
      )}
      {message && (
        <p role={message.refused ? 'alert' : 'status'} class={message.refused ? 'error' : 'played'}>
          {message.text}
        </p>
      )}
    </section>
  );
}
