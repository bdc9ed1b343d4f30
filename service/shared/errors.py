"""The service's errors: each carries a stable machine code, a message and an HTTP status.

The HTTP layer maps every `ServiceError` to an RFC 9457 problem; codes never change once
shipped (`game.not_found`, `seat.taken`, `token.invalid`, `command.bad_payload`, ...).
"""

from __future__ import annotations

from typing import Any, ClassVar


class ServiceError(Exception):
    """Base of every error the facade raises on purpose."""

    default_status: ClassVar[int] = 500

    def __init__(
        self,
        code: str,
        message: str,
        status: int | None = None,
        details: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = self.default_status if status is None else status
        self.details: dict[str, Any] = dict(details or {})

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.code!r}, {self.message!r}, status={self.status})"


class InvalidInput(ServiceError):
    """The request is malformed or names something that cannot exist (400 or 422)."""

    default_status = 422


class Unauthorized(ServiceError):
    """No valid seat token for this game (401)."""

    default_status = 401


class Forbidden(ServiceError):
    """The caller is known but may not do this (403)."""

    default_status = 403


class NotFound(ServiceError):
    """No such game or command (404)."""

    default_status = 404


class Conflict(ServiceError):
    """The request clashes with the current state: a seat taken, a stale stream version (409)."""

    default_status = 409


class RetryLater(Conflict):
    """A clash with a state that lapses: try again after `retry_after` seconds (409)."""

    def __init__(
        self,
        code: str,
        message: str,
        retry_after: float,
        details: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(code, message, details=details)
        self.retry_after = retry_after


class RuleRefused(ServiceError):
    """The game's rules refused the command; code, message and details are the domain's (422)."""

    default_status = 422


class RateLimited(ServiceError):
    """Too many requests; try again after `retry_after` seconds (429)."""

    default_status = 429

    def __init__(
        self,
        code: str,
        message: str,
        retry_after: float,
        details: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(code, message, details=details)
        self.retry_after = retry_after


class Unavailable(ServiceError):
    """A backing service (Redis) is down; try again after `retry_after` seconds (503)."""

    default_status = 503

    def __init__(
        self,
        code: str,
        message: str,
        retry_after: float = 1.0,
        details: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(code, message, details=details)
        self.retry_after = retry_after


class GameDamaged(ServiceError):
    """What the store holds of a game is damaged: a lost or corrupt record (500, our fault).

    Never served as if it were good: an operator runs `skald verify` and `skald repair`, or
    quarantines the game.
    """

    default_status = 500

    def __init__(self, game_id: str, damage: str, version: int | None = None) -> None:
        details: dict[str, Any] = {"game_id": game_id, "damage": damage}
        if version is not None:
            details["version"] = version
        super().__init__(
            "game.damaged",
            f"game {game_id!r} is damaged: {damage}; the operator has been told",
            details=details,
        )
        self.game_id = game_id
        self.damage = damage
        self.version = version


class GameQuarantined(ServiceError):
    """An operator took the game out of service (`skald quarantine`) (503)."""

    default_status = 503

    def __init__(self, game_id: str, reason: str) -> None:
        super().__init__(
            "game.quarantined",
            f"game {game_id!r} is quarantined by the operator ({reason}): it takes no "
            "command and serves no read until released",
            details={"game_id": game_id, "reason": reason},
        )
        self.game_id = game_id
        self.reason = reason


class ClientClosedRequest(ServiceError):
    """The client hung up before its request was read (499, nginx's "client closed request").

    Nobody reads the answer; the status is for the request's log line and metrics, so a client
    dropping its connection is never counted as the server's failure."""

    default_status = 499

    def __init__(self) -> None:
        super().__init__("client.closed_request", "the client closed the connection mid-request")
