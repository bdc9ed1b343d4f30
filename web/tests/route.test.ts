/** Shareable links: every page's link reads back as that page, and a mangled link as the lobby or
 * the game's table. */
import { describe, expect, it } from 'vitest';

import { link, parse } from '../src/route';

describe('parse', () => {
  it('reads an empty or a bare link as the lobby', () => {
    expect(parse('')).toEqual({ page: 'lobby' });
    expect(parse('#/')).toEqual({ page: 'lobby' });
    expect(parse('#/fjords')).toEqual({ page: 'lobby' });
  });

  it('reads a game, its watch page, its replay (at a version or not) and a move audit', () => {
    expect(parse('#/fjords/g-1')).toEqual({
      page: 'table',
      game: 'fjords',
      id: 'g-1',
      watch: false,
    });
    expect(parse('#/looot/g-1/watch')).toEqual({
      page: 'table',
      game: 'looot',
      id: 'g-1',
      watch: true,
    });
    expect(parse('#/landnam/g-1/replay')).toEqual({
      page: 'replay',
      game: 'landnam',
      id: 'g-1',
      at: null,
    });
    expect(parse('#/landnam/g-1/replay/30')).toEqual({
      page: 'replay',
      game: 'landnam',
      id: 'g-1',
      at: 30,
    });
    expect(parse('#/fire-and-axe/g-1/audit/20')).toEqual({
      page: 'audit',
      game: 'fire-and-axe',
      id: 'g-1',
      version: 20,
    });
  });

  it('decodes a game id that the link encodes', () => {
    expect(parse('#/fjords/a%2Fb%20c')).toMatchObject({ page: 'table', id: 'a/b c' });
  });

  it('reads a version that is not a whole number as none', () => {
    expect(parse('#/fjords/g-1/replay/latest')).toMatchObject({ page: 'replay', at: null });
    expect(parse('#/fjords/g-1/replay/-3')).toMatchObject({ page: 'replay', at: null });
    expect(parse('#/fjords/g-1/audit/1.5')).toEqual({
      page: 'table',
      game: 'fjords',
      id: 'g-1',
      watch: false,
    });
    expect(parse('#/fjords/g-1/audit')).toMatchObject({ page: 'table' });
  });

  it('reads a link whose escapes are not text as the lobby, rather than failing', () => {
    expect(parse('#/fjords/%E0%A4%A')).toEqual({ page: 'lobby' });
  });
});

describe('link', () => {
  it('writes links that read back as the page they lead to', () => {
    const id = 'game/with space?';
    expect(parse(link.lobby())).toEqual({ page: 'lobby' });
    expect(parse(link.table('fjords', id))).toEqual({
      page: 'table',
      game: 'fjords',
      id,
      watch: false,
    });
    expect(parse(link.watch('fjords', id))).toMatchObject({ page: 'table', id, watch: true });
    expect(parse(link.replay('looot', id))).toMatchObject({ page: 'replay', id, at: null });
    expect(parse(link.replay('looot', id, 12))).toMatchObject({ page: 'replay', id, at: 12 });
    expect(parse(link.audit('landnam', id, 4))).toMatchObject({ page: 'audit', id, version: 4 });
  });

  it('keeps the id in one part of the link', () => {
    expect(link.audit('fjords', 'a/b', 3)).toBe('#/fjords/a%2Fb/audit/3');
  });
});
