"""Players: their accounts and games (`Players`), the seats they hold (`PlayerSeats`) and the
rooms opened by a player and waiting for others (`OpenRooms`)."""

from __future__ import annotations

from typing import Protocol

PLAYER_SEAT_PREFIX = b"p:"  # the seats hash value of a seat a player holds: p:<player id>
BOT_SEAT = b"bot"  # the seats hash value of a seat a bot holds (no token hashes to it)


def player_seat_value(player_id: str) -> bytes:
    """The seats-hash value of a seat the player holds."""
    return PLAYER_SEAT_PREFIX + player_id.encode()


class ActiveIndexMissing(Exception):
    """The player's index of games not over was never built (a player made before it)."""


class ActiveLimitReached(Exception):
    """The player holds seats in as many games not over as their limit allows."""


class Players(Protocol):
    """Player records, their token index and their games."""

    def token_channel(self, player_id: str) -> str:
        """The channel announcing that the player's token changed (rotated or revoked)."""
        ...

    async def create(self, player_id: str, name: str, digest: bytes, now_ms: int) -> None:
        """Store a new player with its token hash."""
        ...

    async def profile(self, player_id: str) -> dict[str, str] | None:
        """The player's stored fields, None for no such player."""
        ...

    async def by_token(self, digest: bytes) -> str | None:
        """The player a token hash belongs to, None if no current token hashes to it."""
        ...

    async def replace_token(self, player_id: str, old: bytes, new: bytes | None) -> None:
        """Retire the token hashing to `old`; `new` (if any) opens the player's seats now.
        Then announce it, so every API process ends the connections the old token opened."""
        ...

    async def add_game(self, player_id: str, game_id: str, now_ms: int) -> None:
        """List a game among the player's games."""
        ...

    async def games(self, player_id: str, before: float, limit: int) -> list[tuple[str, int]]:
        """(game id, joined µs) of the player's games joined before `before`, newest first."""
        ...

    async def all_games(self, player_id: str) -> list[str]:
        """Every game the player holds a seat in."""
        ...

    async def count_creation(self, player_id: str, member: str, now_ms: int, limit: int) -> int:
        """Count a creation against the player's hourly limit (in one step): 0 when counted,
        else the ms until one of the hour's creations leaves the window."""
        ...

    async def forget_creation(self, player_id: str, member: str) -> None:
        """Give back a counted creation that did not happen (a refused config)."""
        ...

    async def claim_rematch(self, game_id: str) -> str | None:
        """Claim the right to create a game's rematch: None when claimed now, else what the
        first claimant left (the rematch's id, or "" while it is being created)."""
        ...

    async def set_rematch(self, game_id: str, rematch_id: str) -> None:
        """Record a game's rematch."""
        ...

    async def set_creator(self, game_id: str, player_id: str) -> None:
        """Record who created a game (the one who may start or cancel it)."""
        ...

    async def creator(self, game_id: str) -> str | None:
        """Who created a game; None for a guest's game."""
        ...


class PlayerSeats(Protocol):
    """Seats held by players, and each player's games not over."""

    async def take(
        self, game_id: str, seat: int | None, player_id: str, name: str, limit: int, now_us: int
    ) -> tuple[int, int, int, bool]:
        """The seat the player holds, or one taken now: (seat, seats taken, seats in the game,
        whether it was held before). ActiveLimitReached, ActiveIndexMissing, or the seat's
        refusal (Conflict, ...)."""
        ...

    async def leave(self, game_id: str, player_id: str) -> int:
        """Give back the seat the player holds in a game not started; the seat."""
        ...

    async def active(self, player_id: str) -> list[str]:
        """The games the player's index counts as not over."""
        ...

    async def unindex(self, player_id: str, game_ids: list[str]) -> None:
        """Drop games from the player's index of games not over."""
        ...

    async def build_index(self, player_id: str, game_ids: list[str]) -> None:
        """Fill the index of a player made before it, and mark it complete."""
        ...

    async def hold(self, game_id: str, player_ids: list[str], hold_ms: int) -> None:
        """Keep a rematch's seats for its former players for `hold_ms` (Redis clock)."""
        ...


class OpenRooms(Protocol):
    """The index of games waiting for their players."""

    async def opened(self, game_id: str, now_ms: int) -> None:
        """Index a game waiting for its players."""
        ...

    async def closed(self, game_id: str) -> None:
        """The game no longer waits (started or cancelled)."""
        ...

    async def opened_before(self, before_ms: int, limit: int) -> list[str]:
        """Games waiting since before `before_ms`, oldest first."""
        ...

    async def now_ms(self) -> int:
        """The Redis clock, in ms."""
        ...
