/** The lobby: become a player, create a game (./new_game), join an open one, your games. */
import { useEffect, useState } from 'preact/hooks';

import { api, ok, reason, type Schemas, spectator } from '../api';
import { GAMES } from '../games';
import { forget, identity, remember } from '../identity';
import { link } from '../route';
import { CreateForm } from './new_game';

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
        Your name{' '}
        <input
          name="player-name"
          value={name}
          required
          maxLength={64}
          onInput={(e) => setName(e.currentTarget.value)}
        />
      </label>
      <button type="submit">Play as this name</button>
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
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
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      {games.length === 0 ? (
        <p>No game is waiting for players.</p>
      ) : (
        <ul class="games">
          {games.map((g) => (
            <li key={g.game_id}>
              <a href={link.table(g.game, g.game_id)}>
                {GAMES[g.game]?.label ?? g.game}, {g.taken.length} of {g.seats} seats taken
              </a>
              {g.players && g.players.length > 0 && (
                <span class="small"> · {g.players.map((p) => p.name).join(', ')}</span>
              )}
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
            <button
              type="button"
              class="link"
              onClick={() => {
                forget();
                setMe(null);
              }}
            >
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
