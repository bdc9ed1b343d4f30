"""Fjords (Franz-Benno Delonge; Grail Games 2021 edition): the base game for 2 to 4 players, the
Epic and Classic variants and the seven rune stones.

The game in brief, where its data comes from (the tile set is provisional) and the project's
numbered decisions are in this package's README; code cites a decision as "decision N in this
package's README". Modules, one concept each:

- `game`: `GAME`, the object the registry serves (domain.engine.Game), thin over the rest;
- `state`, `setup`, `decide`, `evolve`: the state, the opening events, the rules that check a
  command and emit its events, and how events change the state;
- `legal`: legal (and candidate) commands; `views`: what a seat sees; `scoring`: the outcome
  with its per-rule breakdown, the tie-break, a match's combined score; `render`: text drawing;
- `tiles`: the corner model and the tile set, loaded from `tiles.json` (format: the README);
- `board`: placement geometry and the tile placement rules;
- `variants`: the options (variant, rune stones, the rule book's presets) and their setup;
- `exploration`: the Exploration turn, the row refill and redraw, the phase's end;
- `classic`: the Classic variant's draw-and-place Exploration and its match of three games;
- `colours`: which colour a placed piece is (Epic players have two);
- `targets`: how tiles connect (one step, or a chain), and where any viking may land;
- `settlement`: viking placement, players going out, the end of the game;
- `runes`: rune stones placed in Exploration (Strength, Water, Friendship, Home), rune points;
- `rune_moves`: rune stones used instead of a Settlement turn (Journey, Horse, Wisdom).
"""

from domain.games.fjords.game import GAME, FjordsGame

__all__ = ["GAME", "FjordsGame"]
