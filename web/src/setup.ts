/** A new game as the lobby's form sets it up: each game's options as form fields, read back into
 * the request the API types (`CreateGameRequest`, one shape a game), and the turn clock. */
import type { Schemas } from './api';

/** What a form field holds: a choice, several, a number (as typed), a yes or no. */
export type FormValue = string | number | boolean | string[];

export type ConfigField = { name: string; label: string } & (
  | { kind: 'select'; options: readonly string[]; initial: string }
  | { kind: 'checkboxes'; options: readonly string[]; initial: string[] }
  | { kind: 'number'; initial: number }
  | { kind: 'boolean'; initial: boolean }
);

/** The form as filled in: the seats, each field's value (by its name) and the clock. */
export interface GameForm {
  players: number;
  values: Record<string, FormValue>;
  clock: Schemas['Clock'] | null;
}

export type CreateGame = Schemas['CreateGameRequest'];

/** A game's options in the lobby, and the request they make. */
export interface GameSetup {
  fields: ConfigField[];
  request(form: GameForm): CreateGame;
}

/** The option picked among `options` (the first where the value is none of them). */
export function choice<T extends string>(value: FormValue | undefined, options: readonly T[]): T {
  return options.find((option) => option === value) ?? options[0];
}

/** The options ticked, in their order. */
export function choices<T extends string>(
  value: FormValue | undefined,
  options: readonly T[],
): T[] {
  return Array.isArray(value) ? options.filter((option) => value.includes(option)) : [];
}

/** A number as typed (not a number where the text is none: the API says so, and creates nothing). */
export function count(value: FormValue | undefined, initial: number): number {
  return Number(value ?? initial);
}

export function flag(value: FormValue | undefined, initial: boolean): boolean {
  return typeof value === 'boolean' ? value : initial;
}

/** The turn clock the lobby offers: none, a time per move, or a total time with an increment. */
export type ClockMode = 'none' | 'move' | 'total';
export const TIMEOUTS = ['bot', 'skip', 'forfeit'] as const;
export interface ClockForm {
  mode: ClockMode;
  perMoveS: string;
  totalMin: string;
  incrementS: string;
  onTimeout: (typeof TIMEOUTS)[number];
}
export const NO_CLOCK: ClockForm = {
  mode: 'none',
  perMoveS: '60',
  totalMin: '10',
  incrementS: '5',
  onTimeout: 'bot',
};

/** The clock a game is created with (the contract's defaults for what the form does not ask). */
export function clockOf(form: ClockForm): Schemas['Clock'] | null {
  if (form.mode === 'none') return null;
  const total = form.mode === 'total';
  return {
    per_move_s: Number(form.perMoveS),
    total_s: total ? Number(form.totalMin) * 60 : 0,
    increment_s: total ? Number(form.incrementS) : 0,
    abandon_after: 3,
    on_timeout: form.onTimeout,
    take_back: false,
  };
}
