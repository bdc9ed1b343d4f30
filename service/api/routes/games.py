"""Games and seats: create a game, take a seat, list the open games (the lobby)."""

from __future__ import annotations

from typing import Annotated, Any

from litestar import Request, Response, get, post, route
from litestar.di import NamedDependency
from litestar.enums import HttpMethod
from litestar.handlers import HTTPRouteHandler
from litestar.params import FromPath, JSONBody, QueryParameter

from contracts.api import CreateGameRequest, GameCreated, JoinRequest, Lobby, SeatJoined
from service.facade.player_side import is_player_token
from service.facade.skald import Skald
from service.shared.errors import InvalidInput
from service.shared.logging import log_fields

from ..auth import bearer_token
from ..docs import problems
from ..limits import admit_from_address, bounded_page
from ..negotiation import reply

TAGS = ["games"]
# The token is shown once: no cache, proxy or browser may keep a copy of the reply.
NO_STORE = {"cache-control": "no-store"}


@post(
    "/games",
    operation_id="createGame",
    summary="Create a game",
    description="A new game of `game` with its options in `config` (`players` plus the game's "
    "own fields). The game opens in the lobby until every seat is taken. Created without a "
    "player's token, games are limited per client address (429 `address.game_limit`, with "
    "Retry-After); with one, per player (429 `player.create_limit`, with Retry-After). A game "
    "a player created that waits for its players too long is cancelled by the service.",
    tags=TAGS,
    status_code=201,
    responses=problems(400, 401, 403, 413, 415, 422, 429, 503),
)
async def create_game(
    request: Request[Any, Any, Any],
    skald: NamedDependency[Skald],
    data: JSONBody[CreateGameRequest],
) -> Response[GameCreated]:
    """Create a game (a player's, waiting for its players, with a player's token)."""
    token = bearer_token(request)
    if token is not None and is_player_token(token):
        player_id = await skald.players.player_of(token)
        created = await skald.players.create_game(
            player_id, data.game, data.config, data.seed_hex, data.clock, data.rated
        )
    else:  # limited per client address (429 `address.game_limit`)
        await admit_from_address(skald, request, "games")
        created = await skald.commands.create_game(
            data.game, data.config, data.seed_hex, clock=data.clock, rated=data.rated
        )
    log_fields(request.scope)["game_id"] = created.game_id
    return reply(request, created, 201)


@post(
    "/games/{game_id:str}/seats",
    operation_id="joinGame",
    summary="Take a seat",
    description="Takes `seat`, or the lowest free seat when it is omitted. The reply carries "
    "the seat's token: the only time it is shown. Send it as `Authorization: Bearer <token>`. "
    "With a player's token no token is issued (`token` is empty: theirs opens the seat, and "
    "every seat request takes it) and a player holds one "
    "seat per game: asking again answers the seat they hold (a retry is safe), asking for "
    "another is 409 `seat.already_held`. 429 `player.active_limit`: as many games not over "
    "as the player may hold. 409 `seat.reserved_for_rematch` (with `Retry-After`): a rematch "
    "keeps its seats for the former game's players for a while.",
    tags=TAGS,
    status_code=201,
    responses=problems(400, 401, 404, 409, 413, 415, 422, 429, 503),
)
async def join_game(
    request: Request[Any, Any, Any],
    skald: NamedDependency[Skald],
    game_id: FromPath[str],
    data: JSONBody[JoinRequest],
) -> Response[SeatJoined]:
    """Take a seat and receive its token (none for a player: their token opens it)."""
    token = bearer_token(request)
    if token is not None and is_player_token(token):
        player_id = await skald.players.player_of(token)
        joined = await skald.players.join(player_id, game_id, data.seat)
    else:
        joined = await skald.commands.join(game_id, data.seat, data.name)
    log_fields(request.scope)["seat"] = joined.seat
    return reply(request, joined, 201, NO_STORE)


@get(
    "/games",
    operation_id="listOpenGames",
    summary="The lobby: open games",
    description="Games with free seats, newest first, optionally of one game only.",
    tags=TAGS,
    responses=problems(400, 503),
)
async def list_open_games(
    request: Request[Any, Any, Any],
    skald: NamedDependency[Skald],
    open_only: Annotated[
        bool,
        QueryParameter(
            name="open",
            description="Only open games (the only listing).",
            schema_extra={"const": True},
        ),
    ] = True,
    game: Annotated[str | None, QueryParameter(description="Only games of this name.")] = None,
    limit: Annotated[int, QueryParameter(ge=1, description="At most this many games.")] = 50,
) -> Response[Lobby]:
    """List the games that still have free seats."""
    if not open_only:
        raise InvalidInput(
            "lobby.open_only", "only open games can be listed: use open=true", status=400
        )
    bounded_page(limit, skald.settings.max_lobby_page)
    games = await skald.reads.open_games(game, limit)
    return reply(request, Lobby(games=games))


def options_route(path: str, *handlers: HTTPRouteHandler) -> HTTPRouteHandler:
    """OPTIONS for a path served by several handlers, registered before them: Litestar's own
    answers with the methods of the first handler registered on the path only."""
    allowed = sorted(
        {"OPTIONS", *(method for handler in handlers for method in handler.http_methods)}
    )

    def options() -> Response[None]:
        return Response(None, status_code=204, headers={"allow": ", ".join(allowed)})

    return route(
        path, http_method=HttpMethod.OPTIONS, include_in_schema=False, sync_to_thread=False
    )(options)


lobby_options = options_route("/games", create_game, list_open_games)
