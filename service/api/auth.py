"""Seat tokens on the wire: `Authorization: Bearer <token>`, checked by the facade.

Tokens travel only in that header (never in a query string, which ends up in logs and
proxies) and are never logged: the log line records the seat the token proved, not the token.
"""

from __future__ import annotations

from typing import Any

from litestar import Request

from service.facade.skald import Skald
from service.facade.token_sessions import TokenSession
from service.shared.errors import Forbidden, Unauthorized
from service.shared.logging import log_fields

TOKEN_MISSING = "token.missing"
TOKEN_MALFORMED = "token.malformed"
SEAT_FORBIDDEN = "seat.forbidden"


def bearer_token(request: Request[Any, Any, Any]) -> str | None:
    """The bearer token of the request, None without an Authorization header."""
    header = request.headers.get("authorization")
    if header is None:
        return None
    scheme, _, token = header.strip().partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token:
        raise Unauthorized(
            TOKEN_MALFORMED, "the Authorization header must be `Bearer <seat token>`"
        )
    return token


async def seat_session(
    skald: Skald, request: Request[Any, Any, Any], game_id: str
) -> tuple[int | None, TokenSession | None]:
    """The seat the caller's token proves in this game (None without a token: a spectator),
    and the session a connection opened with it ends with (a player's token's)."""
    token = bearer_token(request)
    if token is None:
        return None, None
    seat, session = await skald.open_seat(game_id, token)
    log_fields(request.scope)["seat"] = seat
    return seat, session


async def optional_seat(skald: Skald, request: Request[Any, Any, Any], game_id: str) -> int | None:
    """The seat the caller's token proves in this game; None without a token (a spectator)."""
    seat, _ = await seat_session(skald, request, game_id)
    return seat


async def required_seat_session(
    skald: Skald, request: Request[Any, Any, Any], game_id: str
) -> tuple[int, TokenSession | None]:
    """The seat the caller's token proves in this game, and its session; Unauthorized without
    a token."""
    seat, session = await seat_session(skald, request, game_id)
    if seat is None:
        raise Unauthorized(
            TOKEN_MISSING,
            "this request acts for a seat: send `Authorization: Bearer <seat token>` "
            "with the token returned when the seat was joined",
        )
    return seat, session


async def required_seat(skald: Skald, request: Request[Any, Any, Any], game_id: str) -> int:
    """The seat the caller's token proves in this game; Unauthorized without one."""
    seat, _ = await required_seat_session(skald, request, game_id)
    return seat


async def seat_for_view(
    skald: Skald, request: Request[Any, Any, Any], game_id: str, asked_seat: int | None
) -> int | None:
    """The seat whose view the caller may read: its own with a token, else the public view.

    Asking for a seat explicitly needs that seat's token: another seat's view is refused.
    """
    if asked_seat is None:
        return await optional_seat(skald, request, game_id)
    seat = await required_seat(skald, request, game_id)
    if asked_seat != seat:
        raise Forbidden(
            SEAT_FORBIDDEN,
            f"this token belongs to seat {seat}; seat {asked_seat}'s view is not yours to read",
            details={"seat": seat, "asked_seat": asked_seat},
        )
    return seat
