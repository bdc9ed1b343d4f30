"""Looot (Charles Chevallier & Laurent Escoffier, Gigamic 2023), 2 to 4 players.

The game in brief, where its data comes from, the rule points the code follows and the
project's numbered decisions are in this package's README; code cites a decision as "decision N
in this package's README". Modules: components (cards and values), board (the main board),
fjord (a player's board), state (incl. the turn's state machine), vikings (placement and
captures), setup, decide, evolve, legal, views, scoring, render, game (the `GAME` object).
"""

from __future__ import annotations

from domain.games.looot.game import GAME

__all__ = ["GAME"]
