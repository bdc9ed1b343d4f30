import { render } from 'preact';

import { GAMES } from './games';
import { Lobby } from './pages/lobby';
import { link, useRoute } from './route';
import './style.css';

function App() {
  const route = useRoute();
  const game = route.page === 'lobby' ? undefined : GAMES[route.game];
  return (
    <>
      <header class="top">
        <a href={link.lobby()} class="brand">
          Skald
        </a>
        <nav aria-label="Pages">
          <a href={link.lobby()}>Lobby</a>
        </nav>
      </header>
      <main>
        {route.page === 'lobby' && <Lobby />}
        {route.page !== 'lobby' && !GAMES[route.game] && (
          <p role="alert">Unknown game “{route.game}”.</p>
        )}
        {route.page === 'table' && game && (
          <game.Table key={route.id + route.watch} id={route.id} watch={route.watch} />
        )}
        {route.page === 'replay' && game && (
          <game.Replay key={route.id} id={route.id} at={route.at} />
        )}
        {route.page === 'audit' && game && (
          <game.Audit key={`${route.id}/${route.version}`} id={route.id} version={route.version} />
        )}
      </main>
    </>
  );
}

const root = document.getElementById('app');
if (!root) throw new Error('index.html has no #app element to render into');
root.textContent = '';
render(<App />, root);
