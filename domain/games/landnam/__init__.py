"""Landnám (Tor Gjerde), 3 to 5 players: settle an island explored as it is played.

See README.md in this package for the rules in brief, the data provenance and the numbered
decisions the code cites.
"""

from __future__ import annotations

from domain.games.landnam.game import GAME

__all__ = ["GAME"]
