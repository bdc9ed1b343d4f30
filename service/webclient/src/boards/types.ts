/** What each game gives the pages: its drawing, its moves as board keys, and their words. */
import type { FunctionComponent } from 'preact';

import type { Command, KeysOf } from '../moves';
import type { Picking } from '../target';

export interface ConfigField {
  name: string;
  label: string;
  kind: 'select' | 'checkboxes' | 'number' | 'boolean';
  options?: string[];
  initial: string | number | boolean | string[];
}

export interface GameUi {
  name: string;
  label: string;
  players: [number, number];
  config?: ConfigField[];
  Board: FunctionComponent<{ view: unknown; picking?: Picking }>;
  Side?: FunctionComponent<{ view: unknown }>;
  Preview?: FunctionComponent<{ command: Command; view: unknown }>;
  keysOf: KeysOf;
  describe(command: Command, view: unknown): string;
  toAct?(view: unknown): number[];
}
