"""Commands: submit one for the caller's seat, read what became of it."""

from __future__ import annotations

from typing import Annotated, Any
from urllib.parse import quote

import msgspec
from litestar import Request, Response, get, post
from litestar.di import NamedDependency
from litestar.openapi import ResponseSpec
from litestar.params import FromPath, JSONBody, QueryParameter

from contracts.api import CommandOutcome, SubmitCommand
from domain.table import CANCEL_ID, START_ID, SYSTEM_SEAT, resign_id
from service.facade.player_side import is_player_token
from service.facade.skald import Skald
from service.shared.logging import log_fields, request_id

from ..auth import bearer_token, required_seat
from ..docs import SEAT_TOKEN, problems
from ..limits import bounded_wait
from ..metrics import api_metrics
from ..negotiation import reply
from ..problems import problem_response

TAGS = ["commands"]

# Refusals that are about the game's state rather than the command itself: a conflict, as a
# command to an archived game (409 `game.finished`) already is.
CONFLICT_REFUSALS = frozenset({"command.stale", "game.finished"})


def command_path(game_id: str, command_id: str) -> str:
    """Where a command's outcome can be read (each id escaped as one path segment)."""
    return f"/games/{quote(game_id, safe='')}/commands/{quote(command_id, safe='')}"


def outcome_response(
    request: Request[Any, Any, Any], game_id: str, outcome: CommandOutcome
) -> Response[Any]:
    """202 while queued, 200 once applied, a 422 problem with the domain's code if refused
    (409 for a game finished or moved past the command's `expected_version`)."""
    log_fields(request.scope)["outcome"] = outcome.status
    # Under the path the client used: /v1, or a deprecated unprefixed alias.
    version = "/v1" if request.url.path.startswith("/v1/") else ""
    location = version + command_path(game_id, outcome.command_id)
    if outcome.status == "refused":
        code = outcome.code or "command.refused"
        return problem_response(
            request,
            409 if code in CONFLICT_REFUSALS else 422,
            code,
            outcome.message or "the rules refused this command",
            details=outcome.details,
            instance=location,
        )
    if outcome.status == "queued":
        return reply(request, outcome, 202, {"location": location})
    return reply(request, outcome, 200)


async def with_turn(skald: Skald, game_id: str, outcome: CommandOutcome) -> CommandOutcome:
    """An applied command's outcome with where the game stands now for its seat: the version,
    who acts, and the seat's legal commands (the turn the workers projected with the views)."""
    if outcome.status != "applied" or outcome.seat is None or outcome.seat < 0:
        return outcome  # the service's own commands (seat -1) have no seat's turn
    turn = await skald.reads.turn(game_id, outcome.seat)
    return msgspec.structs.replace(
        outcome, version=turn.version, to_act=turn.to_act, legal_commands=turn.legal_commands
    )


async def system_reader(
    skald: Skald, request: Request[Any, Any, Any], game_id: str, command_id: str
) -> int:
    """The seat under which the caller reads `command_id`: their own seat's command, or the
    service's (seat -1) for the game's start and cancel (its creator or any of its seats may
    read them) and for their own seat's resignation."""
    if command_id in (START_ID, CANCEL_ID):
        token = bearer_token(request)
        if token is not None and is_player_token(token):
            player_id = await skald.players.player_of(token)
            if await skald.players.players.creator(game_id) == player_id:
                return SYSTEM_SEAT
        await required_seat(skald, request, game_id)
        return SYSTEM_SEAT
    seat = await required_seat(skald, request, game_id)
    return SYSTEM_SEAT if command_id == resign_id(seat) else seat


@post(
    "/games/{game_id:str}/commands",
    operation_id="submitCommand",
    summary="Submit a command for your seat",
    description="Queues `command` for the seat of the bearer token. `command_id` is yours to "
    "choose and makes retries safe: the same id applies once and every reply names the same "
    "outcome. Without `wait` the reply is 202 (queued). With `wait=<seconds>` the reply waits "
    "up to that long: 200 once applied, a 422 problem carrying the rules' code if refused, "
    "still 202 if not yet decided. Out-of-turn and illegal commands are refused by the rules. "
    "With `expected_version` (the game's version the command was chosen at), the command is "
    "refused `command.stale` (409) if the game has moved past it when it is decided, so a late "
    "move never lands on the seat's next turn. A command to a game that is over is a 409 "
    "`game.finished`. "
    "An applied command's reply says where the game stands now: `version`, `to_act` and, "
    "while the seat still acts, its `legal_commands`: one round trip per move.",
    tags=TAGS,
    status_code=202,
    security=SEAT_TOKEN,
    responses={
        200: ResponseSpec(
            CommandOutcome,
            description="Applied: the reply waited (`wait`) and the command was applied",
            generate_examples=False,
        ),
        **problems(400, 401, 403, 404, 409, 413, 415, 422, 429, 503),
    },
)
async def submit_command(
    request: Request[Any, Any, Any],
    skald: NamedDependency[Skald],
    game_id: FromPath[str],
    data: JSONBody[SubmitCommand],
    wait: Annotated[
        float, QueryParameter(ge=0.0, description="Seconds to wait for the outcome (bounded).")
    ] = 0.0,
) -> Response[CommandOutcome]:
    """Submit a command; optionally wait for its outcome."""
    log_fields(request.scope)["command_id"] = data.command_id
    wait = bounded_wait(wait, skald.settings.max_wait_s)
    seat = await required_seat(skald, request, game_id)
    outcome = await skald.commands.submit(
        game_id,
        seat,
        data.command_id,
        data.command,
        request_id(request.scope),
        expected_version=data.expected_version,
    )
    if outcome.status == "queued" and wait > 0:
        outcome = await skald.commands.wait_outcome(game_id, data.command_id, wait, seat=seat)
    api_metrics(request).commands.labels(outcome.status).inc()
    return outcome_response(request, game_id, await with_turn(skald, game_id, outcome))


@get(
    "/games/{game_id:str}/commands/{command_id:str}",
    operation_id="getCommandOutcome",
    summary="What became of your command",
    description="The command's outcome: queued, applied (with the versions of its events) or "
    "refused (with the rules' code, message and details, which may mention what only the "
    "sending seat may see: hence the token of that seat is required). `wait` waits up to that "
    "many seconds for a queued command to be decided. The service's commands a reply named "
    "are read here too: `sys:resign:<seat>` with that seat's token, `sys:start` and "
    "`sys:cancel` with a seat's token or the creator's.",
    tags=TAGS,
    security=SEAT_TOKEN,
    responses=problems(400, 401, 404, 503),
)
async def get_command_outcome(
    request: Request[Any, Any, Any],
    skald: NamedDependency[Skald],
    game_id: FromPath[str],
    command_id: FromPath[str],
    wait: Annotated[
        float, QueryParameter(ge=0.0, description="Seconds to wait for a decision (bounded).")
    ] = 0.0,
) -> Response[CommandOutcome]:
    """Read a command's outcome (a refused one is a 200 here: the read itself succeeded)."""
    log_fields(request.scope)["command_id"] = command_id
    wait = bounded_wait(wait, skald.settings.max_wait_s)
    seat = await system_reader(skald, request, game_id, command_id)
    # Another seat's command is "not found": its existence is not the caller's business.
    if wait > 0:
        outcome = await skald.commands.wait_outcome(game_id, command_id, wait, seat=seat)
    else:
        outcome = await skald.commands.outcome(game_id, command_id, seat=seat)
    log_fields(request.scope)["outcome"] = outcome.status
    return reply(request, await with_turn(skald, game_id, outcome))
