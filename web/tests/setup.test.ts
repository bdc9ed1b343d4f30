/** A new game from the lobby's form: each game's fields read back into the request the API types,
 * and the turn clock. */
import { describe, expect, it } from 'vitest';

import { GAMES } from '../src/games';
import { type ClockForm, choice, choices, clockOf, count, flag, NO_CLOCK } from '../src/setup';

describe('reading a field', () => {
  const variants = ['base', 'epic', 'classic'] as const;

  it('takes the option picked, or the first where the value is none of them', () => {
    expect(choice('epic', variants)).toBe('epic');
    expect(choice('chess', variants)).toBe('base');
    expect(choice(undefined, variants)).toBe('base');
  });

  it('takes the options ticked in their own order, and only those', () => {
    expect(choices(['home', 'water', 'chess'], ['water', 'home', 'wisdom'])).toEqual([
      'water',
      'home',
    ]);
    expect(choices('water', ['water'])).toEqual([]);
  });

  it('takes a number as typed, the initial one where nothing was typed', () => {
    expect(count('40', 60)).toBe(40);
    expect(count(undefined, 60)).toBe(60);
    expect(count('forty', 60)).toBeNaN();
  });

  it('takes a yes or no, the initial one where the value is not one', () => {
    expect(flag(false, true)).toBe(false);
    expect(flag('no', true)).toBe(true);
  });
});

describe('clockOf', () => {
  it('is no clock for none', () => {
    expect(clockOf(NO_CLOCK)).toBeNull();
  });

  it('is a time per move, without total or increment', () => {
    const form: ClockForm = { ...NO_CLOCK, mode: 'move', perMoveS: '45', onTimeout: 'skip' };
    expect(clockOf(form)).toEqual({
      per_move_s: 45,
      total_s: 0,
      increment_s: 0,
      abandon_after: 3,
      on_timeout: 'skip',
      take_back: false,
    });
  });

  it('is a total time in seconds (asked in minutes) with its increment', () => {
    const form: ClockForm = {
      mode: 'total',
      perMoveS: '60',
      totalMin: '10',
      incrementS: '5',
      onTimeout: 'forfeit',
    };
    expect(clockOf(form)).toMatchObject({
      per_move_s: 60,
      total_s: 600,
      increment_s: 5,
      on_timeout: 'forfeit',
    });
  });
});

describe("each game's request", () => {
  const clock = clockOf({ ...NO_CLOCK, mode: 'move' });

  it('Fjords: its variant and the rune stones ticked', () => {
    const request = GAMES.fjords.setup.request({
      players: 3,
      values: { variant: 'epic', runes: ['wisdom', 'water', 'dragon'] },
      clock,
    });
    expect(request).toEqual({
      game: 'fjords',
      config: { players: 3, variant: 'epic', runes: ['water', 'wisdom'], preset: null },
      clock,
      rated: true,
    });
  });

  it('Looot: the seats alone', () => {
    expect(GAMES.looot.setup.request({ players: 2, values: {}, clock: null })).toEqual({
      game: 'looot',
      config: { players: 2, faces: [] },
      clock: null,
      rated: true,
    });
  });

  it('Landnám: at most the rounds typed, or its initial 60', () => {
    const typed = GAMES.landnam.setup.request({ players: 4, values: { max_rounds: '30' }, clock });
    expect(typed).toMatchObject({ game: 'landnam', config: { players: 4, max_rounds: 30 } });
    const left = GAMES.landnam.setup.request({ players: 4, values: {}, clock });
    expect(left).toMatchObject({ config: { max_rounds: 60 } });
  });

  it('Fire & Axe: its conflict runes and round limit', () => {
    const request = GAMES['fire-and-axe'].setup.request({
      players: 2,
      values: { conflict_runes: false, round_limit: '25' },
      clock: null,
    });
    expect(request).toEqual({
      game: 'fire-and-axe',
      config: { players: 2, conflict_runes: false, round_limit: 25 },
      clock: null,
      rated: true,
    });
  });
});
