/** The lobby: become a player, create a game with its options, join an open one, your games. */
import { useEffect, useState } from 'preact/hooks';

import { api, ok, reason, spectator, type Schemas } from '../api';
import type { GameInfo } from '../boards/types';
import { GAMES } from '../games';
import { forget, identity, remember } from '../identity';
import { link } from '../route';

function PlayerForm(props: { onDone(): void }) {
  const [name, setName] = useState('');
  const [error, setError] = useState('');
  async function submit(e: Event) {
    e.preventDefault();
    try {
      const made = await ok(api.POST('/v1/players', { body: { name } }));
      remember({ player_id: made.player_id, token: made.token, name });
      props.onDone();
    } catch (err) {
      setError(reason(err));
    }
  }
  return (
    <form onSubmit={submit} class="card" aria-label="Become a player">
      <h2>Who are you?</h2>
      <label>
        Your name <input name="player-name" value={name} required maxLength={64} onInput={(e) => setName(e.currentTarget.value)} />
      </label>
      <button type="submit">Play as this name</button>
      {error && <p role="alert" class="error">{error}</p>}
    </form>
  );
}

function configOf(game: GameInfo, players: number, values: Record<string, unknown>): Record<string, unknown> {
  const config: Record<string, unknown> = { players };
  for (const field of game.config ?? []) {
    const value = values[field.name] ?? field.initial;
    if (field.kind === 'number') config[field.name] = Number(value);
    else config[field.name] = value;
  }
  return config;
}

function CreateForm() {
  const [gameName, setGameName] = useState('fjords');
  const game = GAMES[gameName];
  const [players, setPlayers] = useState(2);
  const [values, setValues] = useState<Record<string, unknown>>({});
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const set = (name: string, value: unknown) => setValues({ ...values, [name]: value });
  const seats = Math.min(Math.max(players, game.players[0]), game.players[1]);

  async function submit(e: Event) {
    e.preventDefault();
    setBusy(true);
    try {
      const body = { game: gameName, config: configOf(game, seats, values) } as Schemas['CreateGameRequest'];
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
        <select name="game" value={gameName} onChange={(e) => { setGameName(e.currentTarget.value); setValues({}); }}>
          {Object.values(GAMES).map((g) => (
            <option key={g.name} value={g.name}>
              {g.label}
            </option>
          ))}
        </select>
      </label>
      <label>
        Players{' '}
        <input name="players" type="number" min={game.players[0]} max={game.players[1]} value={seats} onInput={(e) => setPlayers(Number(e.currentTarget.value))} />
      </label>
      {(game.config ?? []).map((field) => {
        const value = values[field.name] ?? field.initial;
        if (field.kind === 'select')
          return (
            <label key={field.name}>
              {field.label}{' '}
              <select name={field.name} value={String(value)} onChange={(e) => set(field.name, e.currentTarget.value)}>
                {field.options!.map((o) => (
                  <option key={o}>{o}</option>
                ))}
              </select>
            </label>
          );
        if (field.kind === 'checkboxes')
          return (
            <fieldset key={field.name}>
              <legend>{field.label}</legend>
              {field.options!.map((o) => {
                const chosen = value as string[];
                return (
                  <label key={o} class="inline">
                    <input
                      type="checkbox"
                      name={`${field.name}-${o}`}
                      checked={chosen.includes(o)}
                      onChange={(e) => set(field.name, e.currentTarget.checked ? [...chosen, o] : chosen.filter((x) => x !== o))}
                    />{' '}
                    {o}
                  </label>
                );
              })}
            </fieldset>
          );
        if (field.kind === 'boolean')
          return (
            <label key={field.name} class="inline">
              <input type="checkbox" name={field.name} checked={Boolean(value)} onChange={(e) => set(field.name, e.currentTarget.checked)} /> {field.label}
            </label>
          );
        return (
          <label key={field.name}>
            {field.label} <input type="number" name={field.name} value={String(value)} onInput={(e) => set(field.name, e.currentTarget.value)} />
          </label>
        );
      })}
      <button type="submit" disabled={busy}>
        Create and sit down
      </button>
      {error && <p role="alert" class="error">{error}</p>}
    </form>
  );
}

function OpenGames() {
  const [games, setGames] = useState<Schemas['LobbyEntry'][]>([]);
  const [error, setError] = useState('');
  useEffect(() => {
    let stop = false;
    const load = () =>
      ok(spectator.GET('/v1/games', { params: { query: { open: true } } }))
        .then((lobby) => !stop && setGames(lobby.games))
        .catch((err) => !stop && setError(reason(err)));
    void load();
    const timer = window.setInterval(load, 3000);
    return () => {
      stop = true;
      window.clearInterval(timer);
    };
  }, []);
  return (
    <section class="card" aria-label="Open games">
      <h2>Open games</h2>
      {error && <p role="alert" class="error">{error}</p>}
      {games.length === 0 ? (
        <p>No game is waiting for players.</p>
      ) : (
        <ul class="games">
          {games.map((g) => (
            <li key={g.game_id}>
              <a href={link.table(g.game, g.game_id)}>
                {GAMES[g.game]?.label ?? g.game}, {g.taken.length} of {g.seats} seats taken
              </a>
              {g.players && g.players.length > 0 && <span class="small"> · {g.players.map((p) => p.name).join(', ')}</span>}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function MyGames() {
  const [games, setGames] = useState<Schemas['PlayerGame'][] | null>(null);
  useEffect(() => {
    ok(api.GET('/v1/players/me/games', { params: { query: { limit: 20 } } }))
      .then((page) => setGames(page.games))
      .catch(() => setGames([]));
  }, []);
  if (!games || games.length === 0) return null;
  return (
    <section class="card" aria-label="Your games">
      <h2>Your games</h2>
      <ul class="games">
        {games.map((g) => (
          <li key={g.game_id}>
            <a href={link.table(g.game, g.game_id)}>
              {GAMES[g.game]?.label ?? g.game} as seat {g.seat}: {g.phase}
              {g.my_turn ? ', your turn' : ''}
            </a>{' '}
            · <a href={link.replay(g.game, g.game_id)}>replay</a>
          </li>
        ))}
      </ul>
    </section>
  );
}

export function Lobby() {
  const [me, setMe] = useState(identity());
  return (
    <div class="lobby">
      {me ? (
        <>
          <p>
            Playing as <strong>{me.name}</strong>.{' '}
            <button class="link" onClick={() => { forget(); setMe(null); }}>
              Not you?
            </button>
          </p>
          <CreateForm />
          <MyGames />
        </>
      ) : (
        <PlayerForm onDone={() => setMe(identity())} />
      )}
      <OpenGames />
    </div>
  );
}
