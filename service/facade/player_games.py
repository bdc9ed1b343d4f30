"""A player's games listing: pages of the games they joined (or were invited to), newest
joined first, each with its phase, whose turn it is and the player's deadline."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from contracts.api import Turn
from contracts.players import GameFilter, PlayerGame, PlayerGames
from service.core.ports.players import Players
from service.shared.errors import InvalidInput

MAX_GAMES_PAGE = 100


async def games_page(
    players: Players,
    entry_of: Callable[[str, str], Awaitable[PlayerGame | None]],
    player_id: str,
    which: GameFilter,
    cursor: str | None,
    limit: int,
) -> PlayerGames:
    """A page of the player's games, newest joined first, filtered (`entry_of` gives a
    game's entry, None for one not to list)."""
    if not 1 <= limit <= MAX_GAMES_PAGE:
        raise InvalidInput("games.bad_limit", f"limit is 1 to {MAX_GAMES_PAGE}", status=400)
    before = _decode_cursor(cursor)
    found: list[PlayerGame] = []
    while len(found) < limit:
        rows = await players.games(player_id, before, limit)
        if not rows:
            return PlayerGames(games=found)
        for game_id, joined in rows:
            before = joined
            entry = await entry_of(player_id, game_id)
            if entry is not None and _matches(entry, which):
                found.append(entry)
                if len(found) == limit:
                    break
    return PlayerGames(games=found, cursor=str(before))


def game_entry(game_id: str, game: str, seat: int | None, turn: Turn) -> PlayerGame | None:
    """A game's entry in its player's listing; None for a game that started without them
    (invited to a rematch they did not join)."""
    if seat is None:
        if turn.phase != "open":
            return None
        seat = -1  # invited (a rematch), not seated yet
    phase = "finished" if turn.finished and turn.phase == "started" else turn.phase
    return PlayerGame(
        game_id=game_id,
        game=game,
        seat=seat,
        phase=phase,
        to_act=turn.to_act,
        my_turn=seat in turn.to_act and not turn.finished,
        version=turn.version,
        deadline_ms=turn.deadlines.get(seat),
    )


def _decode_cursor(cursor: str | None) -> float:
    if cursor is None:
        return float("inf")
    try:
        return float(int(cursor))
    except ValueError:
        raise InvalidInput("games.bad_cursor", "a cursor is one a previous page gave") from None


def _matches(entry: PlayerGame, which: GameFilter) -> bool:
    if which == "active":
        return entry.phase in ("open", "started")
    if which == "finished":
        return entry.phase in ("finished", "cancelled")
    if which == "my_turn":
        return entry.my_turn
    return True
