/** Audit of one move: the command as received, the table before it with the legal alternatives
 * drawn on it, its events or its refusal, the hash chain, and the fairness proof once over. */
import { useEffect, useMemo, useState } from 'preact/hooks';

import { reason } from '../api';
import type { GameUi } from '../boards/types';
import { type Command, choices, reachable, select, sentence } from '../moves';
import { namer, PlayerNames } from '../names';
import type { ReportOf } from '../ops';
import { link } from '../route';
import type { Picking } from '../target';
import { Choices, GameLinks, same, usePlayerNames } from './common';

export function AuditOf<V, C extends Command>(props: {
  ui: GameUi<V, C>;
  id: string;
  version: number;
}) {
  const { ui, id, version } = props;
  const game = ui.name;
  const [report, setReport] = useState<ReportOf<V, C> | null>(null);
  const [error, setError] = useState('');
  const [selection, setSelection] = useState<string[]>([]);
  const players = usePlayerNames(ui, id);

  useEffect(() => {
    ui.ops
      .audit(id, version)
      .then((read) => {
        setReport(read);
        setSelection([]);
      })
      .catch((err) => setError(reason(err)));
  }, [id, version]);

  const alternatives = useMemo(() => report?.legal_alternatives ?? [], [report]);
  const played = report?.command?.command;
  // The table as everyone saw it (the seat's own view only where there is no public one).
  const before = report?.public_view_before ?? report?.seat_view_before ?? null;
  const shown = choices(alternatives, ui.keysOf, selection);
  const picking: Picking = {
    reachable: reachable(alternatives, ui.keysOf),
    selection,
    pick: (key) => setSelection(select(selection, key)),
  };
  return (
    <PlayerNames players={players}>
      <div class="audit">
        <header class="table-head">
          <h1>
            {ui.label}: audit of version {version} <small class="game-id">{id}</small>
          </h1>
          <GameLinks game={game} id={id} />
          <nav aria-label="Moves">
            {version > 1 && <a href={link.audit(game, id, version - 1)}>◀ version {version - 1}</a>}{' '}
            ·{' '}
            <a href={link.replay(game, id, report?.version_before ?? version)}>
              this table in the replay
            </a>{' '}
            · <a href={link.audit(game, id, version + 1)}>version {version + 1} ▶</a>
          </nav>
        </header>
        {error && (
          <p role="alert" class="error">
            {error}
          </p>
        )}
        {report && (
          <div class="play">
            <div class="board-area">
              <h2>The table before (version {report.version_before})</h2>
              {before ? (
                <ui.Board view={before} picking={picking} />
              ) : (
                <p>No table before this version.</p>
              )}
              <p class="hint">
                Highlighted: the places of the {alternatives.length} legal alternatives. Click one
                to list the alternatives there; the move played is marked in the list.
              </p>
            </div>
            <aside class="side">
              <section aria-label="The command">
                <h3>The command as received</h3>
                {report.command ? (
                  <dl>
                    <dt>Seat</dt>
                    <dd>
                      {namer(players)(report.command.seat)} (seat {report.command.seat})
                    </dd>
                    <dt>Command</dt>
                    <dd class="played-command">{played ? ui.describe(played, before) : 'none'}</dd>
                    <dt>Command id</dt>
                    <dd>
                      <code>{report.command.command_id}</code>
                    </dd>
                    <dt>Received</dt>
                    <dd>{report.command.received_at}</dd>
                    <dt>Outcome</dt>
                    <dd>{report.status ?? 'unknown'}</dd>
                  </dl>
                ) : (
                  <p>{report.subject}: no player command (the game's own event).</p>
                )}
              </section>
              {report.refusal && (
                <p role="alert" class="error refusal">
                  Refused: {report.refusal.message} ({report.refusal.code})
                </p>
              )}
              <section aria-label="Events">
                <h3>Its events</h3>
                <ul class="log-list">
                  {(report.events ?? []).map((record) => (
                    <li key={record.version}>
                      <span class="version">{record.version}</span> {sentence(record.event)}
                    </li>
                  ))}
                </ul>
              </section>
              <section aria-label="Hash chain">
                <h3>Hash chain</h3>
                <p class={report.chain.holds ? 'ok' : 'error'}>
                  {report.chain.holds
                    ? `The chain holds up to version ${report.chain.up_to}.`
                    : `The chain breaks at version ${report.chain.first_broken_version}.`}
                </p>
                {(report.events ?? []).some((r) => r.hash) && (
                  <ul class="hashes">
                    {(report.events ?? []).map((r) => (
                      <li key={r.version}>
                        {r.version}: <code>{r.hash}</code>
                      </li>
                    ))}
                  </ul>
                )}
              </section>
              <section aria-label="Fairness">
                <h3>Fairness</h3>
                {report.fairness ? (
                  <p class={report.fairness.status === 'fair' ? 'ok' : ''}>
                    {report.fairness.detail.replace(/\.?$/, '.')} Seed commitment{' '}
                    <code>{report.fairness.seed_sha256.slice(0, 16)}…</code>
                    {report.fairness.seed_hex
                      ? `, revealed seed ${report.fairness.seed_hex.slice(0, 16)}…`
                      : ''}
                    ; {report.fairness.events_rederived} events re-derived.
                  </p>
                ) : (
                  <p>The fairness proof is given once the game is over.</p>
                )}
              </section>
              {(report.withheld ?? []).length > 0 && (
                <p class="small">
                  Withheld while the game is in play: {(report.withheld ?? []).join(', ')}.
                </p>
              )}
              <section aria-label="Legal alternatives">
                <h3>Legal alternatives ({alternatives.length})</h3>
                <Choices ui={ui} view={before} moves={shown} limit={500} played={played} />
                {played && alternatives.some((a) => same(a, played)) && (
                  <p class="small">The move played is one of them.</p>
                )}
              </section>
            </aside>
          </div>
        )}
      </div>
    </PlayerNames>
  );
}
