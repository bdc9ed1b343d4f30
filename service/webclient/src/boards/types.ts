/** What each game gives the pages: its drawing, its moves as board keys, their words, and its
 * own typed operations. `V` is the game's view and `C` its command, as its operations type them. */
import type { FunctionComponent } from 'preact';

import type { Command } from '../moves';
import type { GameOps } from '../ops';
import type { Picking } from '../target';

export interface ConfigField {
  name: string;
  label: string;
  kind: 'select' | 'checkboxes' | 'number' | 'boolean';
  options?: string[];
  initial: string | number | boolean | string[];
}

/** What the lobby knows of a game: its name, label, seat counts and options. */
export interface GameInfo {
  name: string;
  label: string;
  players: [number, number];
  config?: ConfigField[];
}

export interface GameUi<V, C extends Command> extends GameInfo {
  ops: GameOps<V, C>;
  Board: FunctionComponent<{ view: V; picking?: Picking }>;
  Side?: FunctionComponent<{ view: V }>;
  Preview?: FunctionComponent<{ command: C; view: V | null }>;
  keysOf(command: C): string[];
  describe(command: C, view: V | null): string;
  toAct?(view: V): number[];
}
