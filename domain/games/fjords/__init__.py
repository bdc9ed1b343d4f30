"""Fjords (Franz-Benno Delonge; Grail Games 2021 edition): the base game for 2 to 4 players, the
Epic and Classic variants and the seven rune stones.

The rules come from the rule book (shared/rules/000_..., French copy 001_...) and the project's
decisions in shared/games/fjords.md (cited as "decision N"). Modules, one concept each:

- `tiles`: the corner model and the tile set, loaded from `tiles.json` (format: README.md);
- `board`: placement geometry and the tile placement rules;
- `state`, `evolve`: the game state and how events change it;
- `variants`: the options (variant, rune stones, the rule book's presets) and their setup;
- `exploration`: setup, the Exploration turn, the row refill and redraw, the phase's end;
- `classic`: the Classic variant's draw-and-place Exploration and its match of three games;
- `colours`: which colour a placed piece is (Epic players have two);
- `targets`: how tiles connect, and where any viking may land;
- `settlement`: viking placement, players going out, the end of the game;
- `runes`: rune stones placed in Exploration (Strength, Water, Friendship, Home), rune points;
- `rune_moves`: rune stones used instead of a Settlement turn (Journey, Horse, Wisdom);
- `scoring`: the outcome with its per-rule breakdown, the tie-break, a match's combined score;
- `moves`: legal (and candidate) commands; `views`: what a seat sees; `render`: text drawing;
- `game`: `GAME`, the object the registry serves (domain.engine.Game).
"""

from domain.games.fjords.game import GAME, FjordsGame

__all__ = ["GAME", "FjordsGame"]
