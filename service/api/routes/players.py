"""Players and the games they create: register, profile, token rotation and revocation,
their games, and starting or cancelling a game they created.

A player's token travels like a seat token (`Authorization: Bearer skp_…`) and opens every
seat the player holds; `POST /games` and `POST /games/{id}/seats` with it act for the player.
"""

from __future__ import annotations

from typing import Annotated, Any

from litestar import Request, Response, delete, get, post
from litestar.di import NamedDependency
from litestar.openapi import ResponseSpec
from litestar.params import FromPath, JSONBody, QueryParameter

from contracts.api import CommandOutcome
from contracts.players import (
    CreatePlayerRequest,
    GameFilter,
    PlayerGames,
    PlayerProfile,
    PlayerToken,
    Rematch,
    ResignRequest,
)
from domain.table import SYSTEM_SEAT
from service.facade.checks import token_hash
from service.facade.skald import Skald
from service.facade.token_sessions import TokenSession
from service.shared.errors import Forbidden, Unauthorized
from service.shared.logging import log_fields

from ..auth import SEAT_FORBIDDEN, bearer_token, required_seat
from ..docs import problems
from ..limits import admit_from_address, bounded_wait
from ..negotiation import reply
from .commands import outcome_response
from .games import options_route

TAGS = ["players"]
WaitQuery = Annotated[
    float, QueryParameter(ge=0.0, description="Seconds to wait for the decision (bounded).")
]
NO_STORE = {"cache-control": "no-store"}


async def acting_player(skald: Skald, request: Request[Any, Any, Any]) -> str:
    """The player the request's bearer token proves; Unauthorized without one."""
    return (await acting_session(skald, request)).player_id


async def acting_session(skald: Skald, request: Request[Any, Any, Any]) -> TokenSession:
    """The player the request's bearer token proves, with the token's hash (a connection
    opened with it ends when it is rotated or revoked); Unauthorized without one."""
    token = bearer_token(request)
    if token is None:
        raise Unauthorized(
            "token.missing", "this request acts for a player: send `Authorization: Bearer <token>`"
        )
    player_id = await skald.players.player_of(token)
    log_fields(request.scope)["player_id"] = player_id
    return TokenSession(player_id, token_hash(token))


async def system_reply(
    request: Request[Any, Any, Any],
    skald: Skald,
    game_id: str,
    outcome: CommandOutcome,
    wait: float,
) -> Response[Any]:
    """A start, cancel or resign answered like a command: waited for up to `wait` seconds
    (checked before the command was queued), 202 with where to read it while queued, 200
    applied, a 422 problem refused."""
    if outcome.status == "queued" and wait > 0:
        outcome = await skald.commands.wait_outcome(
            game_id, outcome.command_id, wait, seat=SYSTEM_SEAT
        )
    return outcome_response(request, game_id, outcome)


def decided_response() -> dict[int, ResponseSpec]:
    """The 200 of a system command decided while the reply waited."""
    return {
        200: ResponseSpec(
            CommandOutcome,
            description="Applied: the reply waited (`wait`) and the command was applied",
            generate_examples=False,
        )
    }


@post(
    "/players",
    operation_id="createPlayer",
    summary="Become a player",
    description="A player with a display name; the reply carries the player's token, shown "
    "once. It opens every seat the player takes. Limited per client address (429 "
    "`address.player_limit`, with Retry-After).",
    tags=TAGS,
    status_code=201,
    responses=problems(400, 413, 415, 422, 429, 503),
)
async def create_player(
    request: Request[Any, Any, Any],
    skald: NamedDependency[Skald],
    data: JSONBody[CreatePlayerRequest],
) -> Response[PlayerToken]:
    """Create a player (limited per client address: 429 `address.player_limit`)."""
    await admit_from_address(skald, request, "players")
    created = await skald.players.register(data.name)
    return reply(request, created, 201, NO_STORE)


@get(
    "/players/{player_id:str}",
    operation_id="getPlayer",
    summary="A player's public profile",
    tags=TAGS,
    responses=problems(400, 404, 503),
)
async def get_player(
    request: Request[Any, Any, Any], skald: NamedDependency[Skald], player_id: FromPath[str]
) -> Response[PlayerProfile]:
    """A player's display name and ratings."""
    return reply(request, await skald.public_profile(player_id))


@post(
    "/players/me/token",
    operation_id="rotatePlayerToken",
    summary="Rotate the player's token",
    description="A new token; the one sent stops working at once.",
    tags=TAGS,
    status_code=201,
    responses=problems(401, 503),
)
async def rotate_token(
    request: Request[Any, Any, Any], skald: NamedDependency[Skald]
) -> Response[PlayerToken]:
    """Replace the player's token."""
    await acting_player(skald, request)
    token = bearer_token(request) or ""
    return reply(request, await skald.players.rotate_token(token), 201, NO_STORE)


@delete(
    "/players/me/token",
    operation_id="revokePlayerToken",
    summary="Revoke the player's token",
    tags=TAGS,
    status_code=204,
    responses=problems(401, 503),
)
async def revoke_token(request: Request[Any, Any, Any], skald: NamedDependency[Skald]) -> None:
    """Retire the player's token."""
    await acting_player(skald, request)
    await skald.players.revoke_token(bearer_token(request) or "")


@get(
    "/players/me/games",
    operation_id="listPlayerGames",
    summary="The player's games",
    description="Newest joined first, each with its phase, whose turn it is and its deadline; "
    "`filter` keeps active, finished or my_turn games; `cursor` comes from the previous page.",
    tags=TAGS,
    responses=problems(400, 401, 503),
)
async def list_player_games(
    request: Request[Any, Any, Any],
    skald: NamedDependency[Skald],
    which: Annotated[GameFilter, QueryParameter(name="filter")] = "all",
    cursor: Annotated[str | None, QueryParameter()] = None,
    limit: Annotated[int, QueryParameter(ge=1, le=100)] = 20,
) -> Response[PlayerGames]:
    """A page of the player's games."""
    player_id = await acting_player(skald, request)
    return reply(request, await skald.players.games(player_id, which, cursor, limit))


@post(
    "/games/{game_id:str}/start",
    operation_id="startGame",
    summary="Start a game with bots in its free seats",
    description="Only the game's creator; the game starts once the start command is decided. "
    "Answered like a command: 202 while queued (its `location` reads the outcome), 200 once "
    "applied, a 422 problem if refused; `wait` waits for the decision.",
    tags=["games"],
    status_code=202,
    responses={**decided_response(), **problems(400, 401, 403, 404, 422, 503)},
)
async def start_game(
    request: Request[Any, Any, Any],
    skald: NamedDependency[Skald],
    game_id: FromPath[str],
    wait: WaitQuery = 0.0,
) -> Response[CommandOutcome]:
    """Start the game now."""
    wait = bounded_wait(wait, skald.settings.max_wait_s)  # a bad wait queues nothing
    player_id = await acting_player(skald, request)
    outcome = await skald.players.start(player_id, game_id)
    return await system_reply(request, skald, game_id, outcome, wait)


@post(
    "/games/{game_id:str}/resign",
    operation_id="resignSeat",
    summary="Resign your seat",
    description="A bot plays the seat for the rest of the game (each game's README states "
    "this rule). Answered like a command (`sys:resign:<seat>`): 202 while queued (its "
    "`location` reads the outcome with the seat's token), 200 once applied, a 422 problem if "
    'refused; `wait` waits for the decision. An optional body `{"seat": n}` must name the '
    "caller's own seat (else 403 `seat.forbidden`).",
    tags=["games"],
    status_code=202,
    responses={**decided_response(), **problems(400, 401, 403, 404, 422, 503)},
)
async def resign_seat(
    request: Request[Any, Any, Any],
    skald: NamedDependency[Skald],
    game_id: FromPath[str],
    data: JSONBody[ResignRequest | None] = None,
    wait: WaitQuery = 0.0,
) -> Response[CommandOutcome]:
    """Resign the caller's seat."""
    wait = bounded_wait(wait, skald.settings.max_wait_s)  # a bad wait queues nothing
    seat = await required_seat(skald, request, game_id)
    if data is not None and data.seat is not None and data.seat != seat:
        raise Forbidden(
            SEAT_FORBIDDEN,
            f"this token holds seat {seat}: seat {data.seat} is not yours to resign",
            details={"seat": seat, "asked_seat": data.seat},
        )
    outcome = await skald.players.resign(game_id, seat)
    return await system_reply(request, skald, game_id, outcome, wait)


@delete(
    "/games/{game_id:str}/seats/me",
    operation_id="leaveGame",
    summary="Give back your seat before the game starts",
    description="The player's seat in a game waiting for its players is free again (and no "
    "longer counts against the player's limit). Refused once the game has started, is "
    "starting (every seat held) or is over: 409 `seat.game_started`; 403 `player.no_seat` "
    "for a player holding no seat in it. Player tokens only (a guest's seat is kept).",
    tags=["games"],
    status_code=204,
    responses=problems(400, 401, 403, 404, 409, 503),
)
async def leave_game(
    request: Request[Any, Any, Any], skald: NamedDependency[Skald], game_id: FromPath[str]
) -> None:
    """Give back the player's seat."""
    player_id = await acting_player(skald, request)
    log_fields(request.scope)["seat"] = await skald.players.leave(player_id, game_id)


@post(
    "/games/{game_id:str}/rematch",
    operation_id="rematch",
    summary="The rematch of a finished game",
    description="Created once, by whichever of its players asks first: the same game, config "
    "and clock; its players find it, open, among their games and take their seats.",
    tags=["games"],
    status_code=201,
    responses=problems(400, 401, 403, 404, 409, 503),
)
async def rematch(
    request: Request[Any, Any, Any], skald: NamedDependency[Skald], game_id: FromPath[str]
) -> Response[Rematch]:
    """The finished game's rematch."""
    player_id = await acting_player(skald, request)
    return reply(request, await skald.players.rematch(player_id, game_id), 201)


@post(
    "/games/{game_id:str}/cancel",
    operation_id="cancelGame",
    summary="Cancel a game that has not started",
    description="Only the game's creator. Answered like a command (`sys:cancel`): 202 while "
    "queued (its `location` reads the outcome with the creator's token), 200 once applied, a "
    "422 problem if refused (`game.already_started` once it started); `wait` waits for the "
    "decision.",
    tags=["games"],
    status_code=202,
    responses={**decided_response(), **problems(400, 401, 403, 404, 422, 503)},
)
async def cancel_game(
    request: Request[Any, Any, Any],
    skald: NamedDependency[Skald],
    game_id: FromPath[str],
    wait: WaitQuery = 0.0,
) -> Response[CommandOutcome]:
    """Cancel the game."""
    wait = bounded_wait(wait, skald.settings.max_wait_s)  # a bad wait queues nothing
    player_id = await acting_player(skald, request)
    outcome = await skald.players.cancel(player_id, game_id)
    return await system_reply(request, skald, game_id, outcome, wait)


# Two handlers share /players/me/token: OPTIONS names both methods (Litestar's own would not).
token_options = options_route("/players/me/token", rotate_token, revoke_token)
