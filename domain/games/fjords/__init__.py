"""Fjords (Franz-Benno Delonge; Grail Games 2021 edition), the base game for 2 to 4 players.

The rules come from the rule book (shared/rules/000_..., French copy 001_...) and the project's
decisions in shared/games/fjords.md (cited as "decision N"). Modules, one concept each:

- `tiles`: the corner model and the tile set, loaded from `tiles.json` (format: README.md);
- `board`: placement geometry and the tile placement rules;
- `state`, `evolve`: the game state and how events change it;
- `exploration`: setup, the Exploration turn, the row refill and redraw, the phase's end;
- `settlement`: viking placement, players going out, the end of the game;
- `scoring`: the outcome with its per-rule breakdown and the tie-break;
- `moves`: legal (and candidate) commands; `views`: what a seat sees; `render`: text drawing;
- `game`: `GAME`, the object the registry serves (domain.engine.Game).
"""

from domain.games.fjords.game import GAME, FjordsGame

__all__ = ["GAME", "FjordsGame"]
