/** Replay: any game, finished or not, at any version: a slider, step buttons, the move list
 * beside the board. The board at version N is the API's replay at N (the public view). */
import { useEffect, useState } from 'preact/hooks';

import { reason } from '../api';
import type { GameUi } from '../boards/types';
import type { Command } from '../moves';
import { namer, PlayerNames } from '../names';
import type { FrameOf } from '../ops';
import { link, replaceLink } from '../route';
import { GameLinks, OutcomeText, usePlayerNames } from './common';

export function ReplayOf<V, C extends Command>(props: {
  ui: GameUi<V, C>;
  id: string;
  at: number | null;
}) {
  const { ui, id } = props;
  const game = ui.name;
  const [at, setAt] = useState<number | null>(props.at);
  const [frame, setFrame] = useState<FrameOf<V, C> | null>(null);
  const [error, setError] = useState('');
  const players = usePlayerNames(ui, id);

  useEffect(() => {
    let current = true;
    ui.ops
      .replay(id, at)
      .then((read) => {
        if (!current) return;
        setFrame(read);
        setError('');
        replaceLink(link.replay(game, id, read.version));
      })
      .catch((err) => current && setError(reason(err)));
    return () => {
      current = false;
    };
  }, [id, at]);

  const last = frame?.last_version ?? 0;
  const version = at ?? frame?.version ?? 0;
  // Version 1 is the first event (the game's creation); the API has no table before it.
  const go = (n: number) => setAt(Math.max(1, Math.min(last, n)));
  const name = namer(players);
  return (
    <PlayerNames players={players}>
      <div class="replay">
        <header class="table-head">
          <h1>
            {ui.label} replay <small class="game-id">{id}</small>
          </h1>
          <GameLinks game={game} id={id} />
        </header>
        {/* biome-ignore lint/a11y/useSemanticElements: a row of buttons and a slider, not a form's fieldset */}
        <div class="controls" role="group" aria-label="Versions">
          <button type="button" onClick={() => go(1)} aria-label="First version">
            ⏮
          </button>
          <button type="button" onClick={() => go(version - 1)} aria-label="Previous version">
            ◀
          </button>
          <input
            type="range"
            min={1}
            max={last}
            value={version}
            aria-label="Version"
            onInput={(e) => go(Number(e.currentTarget.value))}
          />
          <button type="button" onClick={() => go(version + 1)} aria-label="Next version">
            ▶
          </button>
          <button type="button" onClick={() => go(last)} aria-label="Last version">
            ⏭
          </button>
          <output class="at" aria-live="polite">
            version {frame?.version ?? '…'} of {last}
          </output>
        </div>
        {error && (
          <p role="alert" class="error">
            {error}
          </p>
        )}
        {frame && (
          <div class="play">
            <div class="board-area">
              {frame.view ? (
                <ui.Board view={frame.view} />
              ) : (
                <p>Nothing to draw at this version.</p>
              )}
            </div>
            <aside class="side">
              <p class="status">
                {frame.finished ? 'Finished' : 'In play'} · rules {frame.rules_version}
                {frame.to_act.length ? ` · to play: ${frame.to_act.map(name).join(', ')}` : ''}
              </p>
              {frame.view && ui.Side && <ui.Side view={frame.view} />}
              <OutcomeText outcome={frame.version === last ? frame.outcome : null} />
              <section class="moves" aria-label="Moves">
                <h3>Moves</h3>
                <ol>
                  {frame.moves.map((move) => {
                    const first = move.first_version ?? null;
                    const current =
                      first !== null &&
                      first <= frame.version &&
                      frame.version <= (move.last_version ?? first);
                    return (
                      <li
                        key={move.command_id}
                        class={`${move.status}${current ? ' current' : ''}`}
                      >
                        {first !== null ? (
                          <button
                            type="button"
                            class="link"
                            onClick={() => go(move.last_version ?? first)}
                          >
                            v{first}: {name(move.seat)}: {move.text}
                          </button>
                        ) : (
                          <span>
                            {name(move.seat)}: {move.text} ({move.status})
                          </span>
                        )}{' '}
                        {first !== null && <a href={link.audit(game, id, first)}>audit</a>}
                      </li>
                    );
                  })}
                </ol>
              </section>
            </aside>
          </div>
        )}
      </div>
    </PlayerNames>
  );
}
