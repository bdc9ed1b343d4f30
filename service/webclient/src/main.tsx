import { render } from 'preact';

import { Audit } from './pages/audit';
import { Lobby } from './pages/lobby';
import { Replay } from './pages/replay';
import { Table } from './pages/table';
import { link, useRoute } from './route';
import './style.css';

function App() {
  const route = useRoute();
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
        {route.page === 'table' && <Table key={route.id + route.watch} game={route.game} id={route.id} watch={route.watch} />}
        {route.page === 'replay' && <Replay key={route.id} game={route.game} id={route.id} at={route.at} />}
        {route.page === 'audit' && <Audit key={`${route.id}/${route.version}`} game={route.game} id={route.id} version={route.version} />}
      </main>
    </>
  );
}

const root = document.getElementById('app')!;
root.textContent = '';
render(<App />, root);
