"""Rebuilding players' notification feeds from their games' events (`skald notifications
rebuild`).

A feed holds the notifications of every game of its player, so rebuilding one game's
players' feeds means deriving every game of theirs again: the games named are widened to all
the games of their players (the player's games index) before the projector rebuilds them
(`NotificationProjector.rebuild`: up to each game's notified cursor, nothing queued for webhook
delivery, deadline reminders derived too).
"""

from __future__ import annotations

from dataclasses import dataclass

from service.core.notifying.projector import NotificationProjector
from service.core.ports.players import Players


@dataclass(frozen=True)
class FeedsRebuilt:
    """What a rebuild did: the games derived again, the players whose feeds were rebuilt,
    the notifications written."""

    games: int
    players: int
    notifications: int


async def rebuild_feeds(
    projector: NotificationProjector, players: Players, game_ids: list[str]
) -> FeedsRebuilt:
    """Rebuild the feeds of every player of `game_ids`, from all of those players' games."""
    found: set[str] = set()
    for game_id in game_ids:
        found.update((await projector.players(game_id)).values())
    games = set(game_ids)
    for player_id in sorted(found):
        games.update(await players.all_games(player_id))
    ordered = sorted(games)
    written = await projector.rebuild(ordered)
    return FeedsRebuilt(len(ordered), len(found), written)
