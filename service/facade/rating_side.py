"""The facade's rating side: leaderboards, a player's ratings and their rating history.

Ratings are folded from the log of rated results by the workers (service.core.ratings); this
side only reads them. Everything here is public, as a profile is: players, ranks and ratings,
nothing a game hides.
"""

from __future__ import annotations

import math

import msgspec

from contracts.ratings import (
    Leaderboard,
    LeaderboardEntry,
    PlayerRatings,
    Rating,
    RatingChange,
    RatingHistory,
)
from domain.games import game_names
from service.core.ports.players import Players
from service.core.ports.ratings import RatingsBoard
from service.core.ratings.openskill_fold import STANDING_DECODER
from service.core.ratings.variants import (
    VARIANT_PATTERN,
    default_variant,
    rating_key,
    split_rating_key,
)
from service.facade.checks import redis_guarded
from service.shared.errors import InvalidInput, NotFound

MAX_PAGE = 100
HISTORY_DECODER = msgspec.msgpack.Decoder(RatingChange)


class RatingSide:
    """Reads of the ratings the workers fold."""

    def __init__(self, store: RatingsBoard, players: Players) -> None:
        self.store = store
        self.players = players

    @redis_guarded
    async def leaderboard(
        self, game: str, variant: str | None, cursor: str | None, limit: int
    ) -> Leaderboard:
        """A page of a game and variant's leaderboard, best displayed rating first."""
        if game not in game_names():
            raise NotFound("game.unknown", f"no game {game!r}: one of {sorted(game_names())}")
        variant = default_variant(game) if variant is None else variant
        if not VARIANT_PATTERN.match(variant):
            raise InvalidInput(
                "ratings.bad_variant",
                "a variant is 1 to 63 lowercase letters, digits and dashes (docs/ratings.md)",
                status=400,
            )
        _check_limit(limit)
        key = rating_key(game, variant)
        after = _board_cursor(cursor)
        if isinstance(after, int):  # an offset (the cursors of earlier versions)
            offset = after
            ids = await self.store.board_page(key, offset, limit + 1)
            scores = await self.store.board_scores(key, ids)
            rows = list(zip(ids, scores, strict=True))
        else:
            offset, rows = await self.store.board_after(key, after, limit + 1)
        player_ids = [player_id for player_id, _ in rows]
        stored = await self.store.standings(key, player_ids[:limit])
        entries: list[LeaderboardEntry] = []
        for place, player_id in enumerate(player_ids[:limit], offset + 1):
            if player_id not in stored:
                continue  # folded again since the page was read: it is back on its next read
            profile = await self.players.profile(player_id)
            standing = STANDING_DECODER.decode(stored[player_id])
            entries.append(
                LeaderboardEntry(
                    place=place,
                    player_id=player_id,
                    name="" if profile is None else profile["name"],
                    display=standing.display,
                    mu=standing.mu,
                    sigma=standing.sigma,
                    games=standing.games,
                )
            )
        more = len(player_ids) > limit
        last_id, last_score = rows[limit - 1] if more else ("", 0.0)
        return Leaderboard(game, variant, entries, f"{last_score!r}:{last_id}" if more else None)

    @redis_guarded
    async def ratings(self, player_id: str) -> list[Rating]:
        """Every rating of a player (none for a player who played no rated game)."""
        ratings = []
        for key, stored in sorted((await self.store.player_standings(player_id)).items()):
            game, variant = split_rating_key(key)
            standing = STANDING_DECODER.decode(stored)
            ratings.append(
                Rating(game, variant, standing.display, standing.mu, standing.sigma, standing.games)
            )
        return ratings

    @redis_guarded
    async def player_ratings(self, player_id: str) -> PlayerRatings:
        """A player's ratings; NotFound for no such player."""
        await self._known(player_id)
        return PlayerRatings(player_id, await self.ratings(player_id))

    @redis_guarded
    async def history(self, player_id: str, cursor: str | None, limit: int) -> RatingHistory:
        """A page of the player's rated games, newest first."""
        await self._known(player_id)
        _check_limit(limit)
        before = float("inf") if cursor is None else _decode_cursor(cursor, "ratings.bad_cursor")
        rows = await self.store.history_page(player_id, before, limit + 1)
        entries = [HISTORY_DECODER.decode(row) for row in rows[:limit]]
        more = len(rows) > limit
        return RatingHistory(player_id, entries, str(entries[-1].seq) if more else None)

    async def _known(self, player_id: str) -> None:
        plausible = 0 < len(player_id) <= 64 and player_id.replace("_", "").isalnum()
        if not plausible or await self.players.profile(player_id) is None:
            raise NotFound("player.not_found", f"no player {player_id!r}")


def _check_limit(limit: int) -> None:
    if not 1 <= limit <= MAX_PAGE:
        raise InvalidInput("ratings.bad_limit", f"limit is 1 to {MAX_PAGE}", status=400)


def _board_cursor(cursor: str | None) -> int | tuple[float, str] | None:
    """A leaderboard cursor: `<score>:<player id>` (the last entry of the page before), or
    an offset as earlier versions gave; None for the first page."""
    if cursor is None:
        return None
    if cursor.isdigit():
        return _decode_cursor(cursor, "ratings.bad_cursor")
    score, _, player_id = cursor.partition(":")
    try:
        value = float(score)
    except ValueError:
        value = math.nan
    plausible = 0 < len(player_id) <= 64 and player_id.replace("_", "").isalnum()
    if not math.isfinite(value) or not plausible:
        raise InvalidInput("ratings.bad_cursor", "a cursor is one a previous page gave", status=400)
    return value, player_id


def _decode_cursor(cursor: str | None, code: str) -> int:
    if cursor is None:
        return 0
    if not cursor.isdigit() or len(cursor) > 18:
        raise InvalidInput(code, "a cursor is one a previous page gave", status=400)
    return int(cursor)
