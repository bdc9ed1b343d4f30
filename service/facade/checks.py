"""The facade's edge: input limits and checks, Redis failures as Unavailable, records as API
messages."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Coroutine
from typing import Any, ParamSpec, TypeVar

from contracts.api import CommandOutcome
from contracts.stream import Clock
from domain.engine import Game
from service.core.ports.failures import is_outage
from service.core.ports.records import CommandRecord
from service.shared.errors import InvalidInput, Unavailable

MAX_ID_LENGTH = 128
MAX_NAME_LENGTH = 64
MAX_TOKEN_LENGTH = 256
# Client-chosen ids travel in URL paths and headers: only characters that need no escaping
# anywhere (RFC 3986 "unreserved"), so an id reads back under the very URL it was sent to.
SAFE_ID = re.compile(rf"[A-Za-z0-9._~-]{{1,{MAX_ID_LENGTH}}}")
SAFE_ID_CHARACTERS = "A-Z a-z 0-9 . _ ~ -"
# Of those, the two ids a URL path resolves away (RFC 3986 5.2.4): `/commands/..` is not a
# command's URL.
DOT_SEGMENTS = frozenset({".", ".."})
P = ParamSpec("P")
T = TypeVar("T")


def redis_guarded(
    method: Callable[P, Coroutine[Any, Any, T]],
) -> Callable[P, Coroutine[Any, Any, T]]:
    """Turn Redis connection failures into Unavailable (503 with Retry-After)."""

    async def guarded(*args: P.args, **kwargs: P.kwargs) -> T:
        try:
            return await method(*args, **kwargs)
        except Exception as exc:
            if not is_outage(exc):
                raise
            raise Unavailable("redis.unavailable", f"storage unavailable: {exc}") from None

    guarded.__name__ = method.__name__
    guarded.__doc__ = method.__doc__
    return guarded


def check_id(text: str, what: str) -> None:
    """InvalidInput (422) unless `text` is a usable client-chosen id (`.` and `..` are not)."""
    if text in DOT_SEGMENTS:
        raise InvalidInput(
            f"{what}.bad_id",
            f"a {what} id may not be {text!r}: as a URL path segment it means a directory, so "
            "the id would not read back under its own URL",
            details={"pattern": SAFE_ID.pattern, "refused": sorted(DOT_SEGMENTS)},
        )
    if not SAFE_ID.fullmatch(text):
        raise InvalidInput(
            f"{what}.bad_id",
            f"a {what} id is 1 to {MAX_ID_LENGTH} of the characters {SAFE_ID_CHARACTERS}",
            details={"pattern": SAFE_ID.pattern},
        )


def api_outcome(command_id: str, record: CommandRecord) -> CommandOutcome:
    """A stored command record as the API's CommandOutcome."""
    return CommandOutcome(
        command_id=command_id,
        status=record.status,
        seat=record.seat,
        first_version=record.first_version,
        last_version=record.last_version,
        code=record.code,
        message=record.message,
        details=record.details,
    )


def token_hash(token: str) -> bytes:
    """What is stored of a seat token: its SHA-256 (the token itself never is)."""
    return hashlib.sha256(token.encode()).digest()


def check_clock(clock: Clock) -> None:
    """InvalidInput unless a turn timer is usable."""
    if not 1 <= clock.per_move_s <= 366 * 86400 or clock.total_s < 0 or clock.increment_s < 0:
        raise InvalidInput(
            "clock.bad",
            "a clock gives 1 s to a year per move, and no negative total or increment",
        )
    if clock.abandon_after < 1 or clock.on_timeout not in ("bot", "skip", "forfeit"):
        raise InvalidInput(
            "clock.bad",
            "abandon_after is 1 or more; on_timeout is `bot` (a bot plays the seat's turn), "
            "`skip` (the turn is passed) or `forfeit` (the seat is out, ranked last)",
        )


def check_timeout_policy(game: Game, clock: Clock) -> None:
    """InvalidInput when the clock skips timed-out turns in a game whose rules never pass."""
    if clock.on_timeout == "skip" and not game.may_pass:
        raise InvalidInput(
            "clock.skip_not_allowed",
            f"{game.name}'s rules never let a seat pass its turn, so a timed-out turn cannot "
            "be skipped: choose on_timeout `bot` or `forfeit`",
        )
