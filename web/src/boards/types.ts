/** What each game gives the pages: its drawing, its moves as board keys, their words, and its
 * own typed operations. `V` is the game's view and `C` its command, as its operations type them. */
import type { FunctionComponent } from 'preact';

import type { Command } from '../moves';
import type { GameOps } from '../ops';
import type { Picking } from '../target';

/** What the lobby knows of a game: its name, label and seat counts. */
export interface GameInfo {
  name: string;
  label: string;
  players: [number, number];
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
