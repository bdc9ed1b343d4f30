/** Picking a move on the board: keys narrow the legal commands, and commands read as sentences. */
import { describe, expect, it } from 'vitest';

import { fjords } from '../src/boards/fjords';
import { fieldKeys } from '../src/boards/generic';
import { choices, hexKey, reachable, select, sentence, words } from '../src/moves';
import type { CommandOf } from '../src/ops';

/** Three Fjords-like moves: two tiles that can go on the same space, one tile on another. */
const moves = [
  { type: 'PlaceTile', tile: 7, q: 0, r: 1 },
  { type: 'PlaceTile', tile: 9, q: 0, r: 1 },
  { type: 'PlaceTile', tile: 9, q: 2, r: -1 },
];
const keysOf = (move: (typeof moves)[number]) => [`tile:${move.tile}`, `hex:${move.q},${move.r}`];

describe('select', () => {
  it('adds a key to the selection', () => {
    expect(select([], 'hex:0,1')).toEqual(['hex:0,1']);
  });

  it('keeps at most one key of a kind: a new hex replaces the hex picked before', () => {
    expect(select(['tile:7', 'hex:0,1'], 'hex:2,-1')).toEqual(['tile:7', 'hex:2,-1']);
  });

  it('takes a key picked again off the selection', () => {
    expect(select(['tile:7', 'hex:0,1'], 'tile:7')).toEqual(['hex:0,1']);
  });
});

describe('choices', () => {
  it('leaves every move while nothing is selected', () => {
    expect(choices(moves, keysOf, [])).toEqual(moves);
  });

  it('leaves the moves whose keys hold every key selected', () => {
    expect(choices(moves, keysOf, ['hex:0,1'])).toEqual([moves[0], moves[1]]);
    expect(choices(moves, keysOf, ['hex:0,1', 'tile:9'])).toEqual([moves[1]]);
  });

  it('leaves none when the keys selected lead to no move', () => {
    expect(choices(moves, keysOf, ['tile:7', 'hex:2,-1'])).toEqual([]);
  });
});

describe('reachable', () => {
  it('is every key of the moves: what the board highlights', () => {
    expect(reachable(moves, keysOf)).toEqual(new Set(['tile:7', 'tile:9', 'hex:0,1', 'hex:2,-1']));
  });

  it('is empty without moves', () => {
    expect(reachable([], keysOf).size).toBe(0);
  });
});

describe('hexKey and fieldKeys', () => {
  it('names a hex by its axial coordinates, and nothing else', () => {
    expect(hexKey('hex', [3, -2])).toBe('hex:3,-2');
    expect(hexKey('hex', [3])).toBeNull();
    expect(hexKey('hex', 'north')).toBeNull();
  });

  it('reads the keys of a command from its hex, port, vertex and unit fields', () => {
    expect(
      fieldKeys({
        type: 'BuildSettlement',
        vertex: [
          [0, 0],
          [1, 0],
          [0, 1],
        ],
      }),
    ).toEqual(['vertex:[[0,0],[1,0],[0,1]]']);
    expect(fieldKeys({ type: 'MoveUnit', unit: 4, to: [1, 2] })).toEqual(['hex:1,2', 'unit:4']);
    expect(fieldKeys({ type: 'Sail', to: 'Dublin' })).toEqual(['port:Dublin']);
    expect(fieldKeys({ type: 'EndTurn' })).toEqual([]);
  });
});

describe('words and sentence', () => {
  it('spells a type name in words', () => {
    expect(words('PlaceViking')).toBe('Place viking');
    expect(words('second_viking')).toBe('Second viking');
    expect(words('fire-and-axe')).toBe('Fire and axe');
  });

  it('reads a command as its type, then its fields', () => {
    expect(sentence({ type: 'PlaceViking', space: [1, -2], second_viking: true })).toBe(
      'Place viking: space (1, -2); second viking yes',
    );
  });

  it('leaves out fields that are empty, false or asked to be skipped', () => {
    expect(
      sentence({ type: 'Trade', give: { wood: 2 }, colour: null, bonus: false, seat: 1 }, ['seat']),
    ).toBe('Trade: give wood 2');
  });

  it('reads lists and nested values, and a message without a type', () => {
    expect(sentence({ type: 'Discard', cards: ['axe', 'fire'] })).toBe('Discard: cards axe, fire');
    expect(sentence({ cards: [] })).toBe('Message: cards none');
    expect(sentence({ type: 'Offer', terms: { even: false, wood: 2 } })).toBe(
      'Offer: terms even no, wood 2',
    );
    expect(sentence({ type: 'EndTurn' })).toBe('End turn');
  });
});

describe("Fjords' moves on its board", () => {
  /** Tile 9 fits at (0, 1) turned two ways, and a viking can go to (2, -1) or, by the wisdom
   * rune on the space (1, 0), to (0, 1). */
  const placeTile = {
    type: 'PlaceTile',
    tile: 9,
    q: 0,
    r: 1,
    longhouse: false,
    home: false,
    colour: null,
  } as const;
  const legal: CommandOf<'fjords'>[] = [
    { ...placeTile, rotation: 0 },
    { ...placeTile, rotation: 3 },
    { type: 'PlaceViking', q: 2, r: -1, colour: null },
    { type: 'UseWisdomRune', rune_q: 1, rune_r: 0, q: 0, r: 1, colour: null },
    { type: 'DrawTile' },
  ];

  it('leads to a tile placement by its row tile and its space', () => {
    expect(fjords.keysOf(legal[0])).toEqual(['tile:9', 'hex:0,1']);
    expect(fjords.keysOf(legal[3])).toEqual(['space:1,0', 'hex:0,1']);
    expect(fjords.keysOf(legal[4])).toEqual([]);
  });

  it('narrows by the keys clicked: a space, then a row tile, leaves the turns of that tile', () => {
    let selection = select([], 'hex:0,1');
    expect(choices(legal, fjords.keysOf, selection)).toEqual([legal[0], legal[1], legal[3]]);
    selection = select(selection, 'tile:9');
    expect(choices(legal, fjords.keysOf, selection)).toEqual([legal[0], legal[1]]);
  });

  it('describes a move in words', () => {
    expect(fjords.describe(legal[2], null)).toBe('Place a viking at (2, -1)');
    expect(fjords.describe(legal[1], null)).toBe('Place tile 9 at (0, 1), turned 180°');
  });
});
