"""Fire & Axe: A Viking Saga (Steve and Phil Kendall; IDW 2015), 3 to 5 players.

Modules: data (the map, weather, treasures, Sagas and Runes of data.json, and the rule book's
numbers), state, setup, evolve, tape (events applied as they are decided), decide (checks and
dispatch), voyage (Actions, weather losses, wintering), tasks (Trade, Raid, Settle), runes
(Rune effects and their timing windows), sagas, turns, legal, views, scoring, render, game.
The README numbers the decisions taken where the rule book is silent.
"""

from __future__ import annotations

from domain.games.fire_and_axe.game import GAME

__all__ = ["GAME"]
