/** The games the client draws, by the name the API gives them: each with its pages bound to
 * its own view and command types. */
import type { FunctionComponent } from 'preact';

import { fireAndAxe } from './boards/fire_and_axe';
import { fjords } from './boards/fjords';
import { landnam } from './boards/landnam';
import { looot } from './boards/looot';
import type { GameInfo, GameUi } from './boards/types';
import type { Command } from './moves';
import { AuditOf } from './pages/audit';
import { ReplayOf } from './pages/replay';
import { TableOf } from './pages/table';

fjords.config = [
  { name: 'variant', label: 'Variant', kind: 'select', options: ['base', 'epic', 'classic'], initial: 'base' },
  {
    name: 'runes',
    label: 'Rune stones',
    kind: 'checkboxes',
    options: ['strength', 'water', 'journey', 'horse', 'friendship', 'wisdom', 'home'],
    initial: [],
  },
];
landnam.config = [{ name: 'max_rounds', label: 'At most this many rounds', kind: 'number', initial: 60 }];
fireAndAxe.config = [
  { name: 'conflict_runes', label: 'Conflict runes in the deck', kind: 'boolean', initial: true },
  { name: 'round_limit', label: 'At most this many rounds', kind: 'number', initial: 60 },
];

/** A game and its pages, whatever its view and command types. */
export interface GameEntry extends GameInfo {
  Table: FunctionComponent<{ id: string; watch: boolean }>;
  Replay: FunctionComponent<{ id: string; at: number | null }>;
  Audit: FunctionComponent<{ id: string; version: number }>;
  /** Take a seat in one of this game's games. */
  join(id: string, body: { name: string }): Promise<unknown>;
}

function entry<V, C extends Command>(ui: GameUi<V, C>): GameEntry {
  return {
    name: ui.name,
    label: ui.label,
    players: ui.players,
    config: ui.config,
    Table: (props) => <TableOf ui={ui} {...props} />,
    Replay: (props) => <ReplayOf ui={ui} {...props} />,
    Audit: (props) => <AuditOf ui={ui} {...props} />,
    join: (id, body) => ui.ops.join(id, body),
  };
}

export const GAMES: Record<string, GameEntry> = Object.fromEntries(
  [entry(fjords), entry(looot), entry(landnam), entry(fireAndAxe)].map((game) => [game.name, game]),
);
