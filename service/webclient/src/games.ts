/** The games the client draws, by the name the API gives them. */
import { fireAndAxe } from './boards/fire_and_axe';
import { fjords } from './boards/fjords';
import { landnam } from './boards/landnam';
import { looot } from './boards/looot';
import type { GameUi } from './boards/types';

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

export const GAMES: Record<string, GameUi> = Object.fromEntries(
  [fjords, looot, landnam, fireAndAxe].map((game) => [game.name, game]),
);
