"""The facade's edge: input limits and checks, Redis failures as Unavailable, records as API
messages."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Coroutine
from typing import Any, ParamSpec, TypeVar

import redis.exceptions

from contracts.api import CommandOutcome
from service.errors import InvalidInput, Unavailable
from service.store.records import CommandRecord

MAX_ID_LENGTH = 128
MAX_NAME_LENGTH = 64
MAX_TOKEN_LENGTH = 256

P = ParamSpec("P")
T = TypeVar("T")


def redis_guarded(
    method: Callable[P, Coroutine[Any, Any, T]],
) -> Callable[P, Coroutine[Any, Any, T]]:
    """Turn Redis connection failures into Unavailable (503 with Retry-After)."""

    async def guarded(*args: P.args, **kwargs: P.kwargs) -> T:
        try:
            return await method(*args, **kwargs)
        except (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError) as exc:
            raise Unavailable("redis.unavailable", f"storage unavailable: {exc}") from None

    guarded.__name__ = method.__name__
    guarded.__doc__ = method.__doc__
    return guarded


def check_id(text: str, what: str) -> None:
    """InvalidInput unless `text` is a usable client-chosen id."""
    if not 0 < len(text) <= MAX_ID_LENGTH or not text.isascii() or not text.isprintable():
        raise InvalidInput(
            f"{what}.bad_id",
            f"a {what} id is 1 to {MAX_ID_LENGTH} printable ASCII characters",
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
