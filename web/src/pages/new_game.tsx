/** The lobby's form for a new game: the game, its seats, its own options and a turn clock; the
 * request it sends is the one the API types for that game. */
import { useState } from 'preact/hooks';

import { api, ok, reason } from '../api';
import { GAMES } from '../games';
import { identity } from '../identity';
import { link } from '../route';
import {
  type ClockForm,
  type ClockMode,
  type ConfigField,
  clockOf,
  type FormValue,
  NO_CLOCK,
  TIMEOUTS,
} from '../setup';

function Field(props: {
  field: ConfigField;
  value: FormValue | undefined;
  set(value: FormValue): void;
}) {
  const { field, set } = props;
  switch (field.kind) {
    case 'select':
      return (
        <label>
          {field.label}{' '}
          <select
            name={field.name}
            value={String(props.value ?? field.initial)}
            onChange={(e) => set(e.currentTarget.value)}
          >
            {field.options.map((o) => (
              <option key={o}>{o}</option>
            ))}
          </select>
        </label>
      );
    case 'checkboxes': {
      const chosen = Array.isArray(props.value) ? props.value : field.initial;
      return (
        <fieldset>
          <legend>{field.label}</legend>
          {field.options.map((o) => (
            <label key={o} class="inline">
              <input
                type="checkbox"
                name={`${field.name}-${o}`}
                checked={chosen.includes(o)}
                onChange={(e) =>
                  set(e.currentTarget.checked ? [...chosen, o] : chosen.filter((x) => x !== o))
                }
              />{' '}
              {o}
            </label>
          ))}
        </fieldset>
      );
    }
    case 'boolean':
      return (
        <label class="inline">
          <input
            type="checkbox"
            name={field.name}
            checked={Boolean(props.value ?? field.initial)}
            onChange={(e) => set(e.currentTarget.checked)}
          />{' '}
          {field.label}
        </label>
      );
    case 'number':
      return (
        <label>
          {field.label}{' '}
          <input
            type="number"
            name={field.name}
            value={String(props.value ?? field.initial)}
            onInput={(e) => set(e.currentTarget.value)}
          />
        </label>
      );
  }
}

const MODES: [ClockMode, string][] = [
  ['none', 'No clock'],
  ['move', 'A time per move'],
  ['total', 'A total time per player, plus an increment a move'],
];
const TIMEOUT_TEXT: Record<ClockForm['onTimeout'], string> = {
  bot: 'a bot plays the turn',
  skip: 'the turn is passed (where the rules allow)',
  forfeit: 'the seat forfeits',
};

/** The turn clock: none, a time per move, or a total time with an increment (and a time per move
 * still, which the API asks of every clock). */
function ClockFields(props: { clock: ClockForm; set(clock: ClockForm): void }) {
  const { clock, set } = props;
  return (
    <fieldset class="clock-options">
      <legend>Turn clock</legend>
      {MODES.map(([mode, text]) => (
        <label key={mode} class="inline">
          <input
            type="radio"
            name="clock"
            value={mode}
            checked={clock.mode === mode}
            onChange={() => set({ ...clock, mode })}
          />{' '}
          {text}
        </label>
      ))}
      {clock.mode !== 'none' && (
        <>
          <label>
            Seconds per move{' '}
            <input
              type="number"
              name="clock-per-move"
              min={1}
              value={clock.perMoveS}
              onInput={(e) => set({ ...clock, perMoveS: e.currentTarget.value })}
            />
          </label>
          {clock.mode === 'total' && (
            <>
              <label>
                Minutes in all, each player{' '}
                <input
                  type="number"
                  name="clock-total"
                  min={0}
                  value={clock.totalMin}
                  onInput={(e) => set({ ...clock, totalMin: e.currentTarget.value })}
                />
              </label>
              <label>
                Seconds added each move{' '}
                <input
                  type="number"
                  name="clock-increment"
                  min={0}
                  value={clock.incrementS}
                  onInput={(e) => set({ ...clock, incrementS: e.currentTarget.value })}
                />
              </label>
            </>
          )}
          <label>
            When the time runs out{' '}
            <select
              name="clock-timeout"
              value={clock.onTimeout}
              onChange={(e) =>
                set({
                  ...clock,
                  onTimeout: TIMEOUTS.find((t) => t === e.currentTarget.value) ?? 'bot',
                })
              }
            >
              {TIMEOUTS.map((t) => (
                <option key={t} value={t}>
                  {TIMEOUT_TEXT[t]}
                </option>
              ))}
            </select>
          </label>
        </>
      )}
    </fieldset>
  );
}

export function CreateForm() {
  const [gameName, setGameName] = useState('fjords');
  const game = GAMES[gameName];
  const [players, setPlayers] = useState(2);
  const [values, setValues] = useState<Record<string, FormValue>>({});
  const [clock, setClock] = useState<ClockForm>(NO_CLOCK);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const seats = Math.min(Math.max(players, game.players[0]), game.players[1]);

  async function submit(e: Event) {
    e.preventDefault();
    setBusy(true);
    try {
      const body = game.setup.request({ players: seats, values, clock: clockOf(clock) });
      const created = await ok(api.POST('/v1/games', { body }));
      await game.join(created.game_id, { name: identity()?.name ?? 'Player' });
      location.hash = link.table(gameName, created.game_id);
    } catch (err) {
      setError(reason(err));
    } finally {
      setBusy(false);
    }
  }
  return (
    <form onSubmit={submit} class="card" aria-label="Create a game">
      <h2>New game</h2>
      <label>
        Game{' '}
        <select
          name="game"
          value={gameName}
          onChange={(e) => {
            setGameName(e.currentTarget.value);
            setValues({});
          }}
        >
          {Object.values(GAMES).map((g) => (
            <option key={g.name} value={g.name}>
              {g.label}
            </option>
          ))}
        </select>
      </label>
      <label>
        Players{' '}
        <input
          name="players"
          type="number"
          min={game.players[0]}
          max={game.players[1]}
          value={seats}
          onInput={(e) => setPlayers(Number(e.currentTarget.value))}
        />
      </label>
      {game.setup.fields.map((field) => (
        <Field
          key={field.name}
          field={field}
          value={values[field.name]}
          set={(value) => setValues({ ...values, [field.name]: value })}
        />
      ))}
      <ClockFields clock={clock} set={setClock} />
      <button type="submit" disabled={busy}>
        Create and sit down
      </button>
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
    </form>
  );
}
