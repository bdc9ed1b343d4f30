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
import { choice, choices, count, flag, type GameSetup } from './setup';

const VARIANTS = ['base', 'epic', 'classic'] as const;
const RUNES = ['strength', 'water', 'journey', 'horse', 'friendship', 'wisdom', 'home'] as const;

/** Each game's options in the lobby, read back into its own typed request. */
const fjordsSetup: GameSetup = {
  fields: [
    { name: 'variant', label: 'Variant', kind: 'select', options: VARIANTS, initial: 'base' },
    { name: 'runes', label: 'Rune stones', kind: 'checkboxes', options: RUNES, initial: [] },
  ],
  request: ({ players, values, clock }) => ({
    game: 'fjords',
    config: {
      players,
      variant: choice(values.variant, VARIANTS),
      runes: choices(values.runes, RUNES),
      preset: null,
    },
    clock,
    rated: true,
  }),
};
const loootSetup: GameSetup = {
  fields: [],
  request: ({ players, clock }) => ({
    game: 'looot',
    config: { players, faces: [] },
    clock,
    rated: true,
  }),
};
const landnamSetup: GameSetup = {
  fields: [{ name: 'max_rounds', label: 'At most this many rounds', kind: 'number', initial: 60 }],
  request: ({ players, values, clock }) => ({
    game: 'landnam',
    config: { players, max_rounds: count(values.max_rounds, 60) },
    clock,
    rated: true,
  }),
};
const fireAndAxeSetup: GameSetup = {
  fields: [
    { name: 'conflict_runes', label: 'Conflict runes in the deck', kind: 'boolean', initial: true },
    { name: 'round_limit', label: 'At most this many rounds', kind: 'number', initial: 60 },
  ],
  request: ({ players, values, clock }) => ({
    game: 'fire-and-axe',
    config: {
      players,
      conflict_runes: flag(values.conflict_runes, true),
      round_limit: count(values.round_limit, 60),
    },
    clock,
    rated: true,
  }),
};

/** A game and its pages, whatever its view and command types. */
export interface GameEntry extends GameInfo {
  setup: GameSetup;
  Table: FunctionComponent<{ id: string; watch: boolean }>;
  Replay: FunctionComponent<{ id: string; at: number | null }>;
  Audit: FunctionComponent<{ id: string; version: number }>;
  /** Take a seat in one of this game's games. */
  join(id: string, body: { name: string }): Promise<unknown>;
}

function entry<V, C extends Command>(ui: GameUi<V, C>, setup: GameSetup): GameEntry {
  return {
    name: ui.name,
    label: ui.label,
    players: ui.players,
    setup,
    Table: (props) => <TableOf ui={ui} {...props} />,
    Replay: (props) => <ReplayOf ui={ui} {...props} />,
    Audit: (props) => <AuditOf ui={ui} {...props} />,
    join: (id, body) => ui.ops.join(id, body),
  };
}

export const GAMES: Record<string, GameEntry> = Object.fromEntries(
  [
    entry(fjords, fjordsSetup),
    entry(looot, loootSetup),
    entry(landnam, landnamSetup),
    entry(fireAndAxe, fireAndAxeSetup),
  ].map((game) => [game.name, game]),
);
