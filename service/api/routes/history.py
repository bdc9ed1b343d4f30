"""History: replay a game at any version, audit any move, check that the draws were fair.

Reads need no token; with a seat's token the caller is that seat. While the game is in
progress a caller sees only what live play shows it (service.history.disclosure); once the
game is over, everything. Each record is read on the event loop and decoded, replayed or
audited in the history gate's threads (`..history_gate`): history load never holds up moves.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, TypeVar

from litestar import Request, Response, get
from litestar.di import NamedDependency
from litestar.params import FromPath, QueryParameter

from contracts.history import AuditReport, FairnessReport, ReplayFrame
from service.facade.skald import Skald
from service.history.audit import audit_command, audit_version
from service.history.disclosure import Audience
from service.history.fairness import fairness_report
from service.history.loading import StoredGame
from service.history.record import decode_history
from service.history.replay import replay_frame

from ..auth import optional_seat
from ..docs import OPTIONAL_SEAT_TOKEN, problems
from ..history_gate import history_gate
from ..negotiation import reply

T = TypeVar("T")
TAGS = ["history"]
# Replies depend on the token (what the caller may see) and the encoding.
PRIVATE = {"vary": "Accept, Authorization", "cache-control": "private, no-cache"}


def replayed(stored: StoredGame, audience: Audience, at: int | None, seat: int | None) -> Any:
    """The replay frame of a stored game (run in the history pool)."""
    return replay_frame(decode_history(stored), audience, at, seat)


def audited_version(stored: StoredGame, version: int, audience: Audience) -> Any:
    """The audit of a version of a stored game (run in the history pool)."""
    return audit_version(decode_history(stored), version, audience)


def audited_command(
    stored: StoredGame, seat: int | None, command_id: str, audience: Audience
) -> Any:
    """The audit of a seat's command of a stored game (run in the history pool)."""
    return audit_command(decode_history(stored), seat, command_id, audience)


def fairness_of(stored: StoredGame) -> Any:
    """The seed check of a stored game (run in the history pool)."""
    return fairness_report(decode_history(stored))


async def computed(
    request: Request[Any, Any, Any],
    skald: Skald,
    game_id: str,
    compute: Callable[..., T],
    *args: Any,
) -> T:
    """`compute(stored game, *args)` in the history gate (429 when it is full)."""
    gate = history_gate(request)
    with gate.admitted():
        stored = await skald.history.stored(game_id)
        return await gate.run(compute, stored, *args)


async def audience_of(skald: Skald, request: Request[Any, Any, Any], game_id: str) -> Audience:
    """The seat the bearer token proves, or a spectator without a token."""
    return Audience(await optional_seat(skald, request, game_id))


@get(
    "/games/{game_id:str}/replay",
    operation_id="getReplay",
    summary="The game at any version",
    description="The game as it stood at version `at` (the latest by default), replayed from "
    "its events: a view of the table and the move list up to then. Without a token, the "
    "public view; with a seat's token, that seat's own view. `seat` names another view: "
    "while the game is in progress only the token's own seat may be named, once it is over "
    "any seat. Versions count every event from 1 (GameCreated, where no table exists yet).",
    tags=TAGS,
    security=OPTIONAL_SEAT_TOKEN,
    responses=problems(400, 401, 403, 404, 409, 422, 429, 503),
)
async def get_replay(
    request: Request[Any, Any, Any],
    skald: NamedDependency[Skald],
    game_id: FromPath[str],
    at: Annotated[
        int | None,
        QueryParameter(
            ge=1,
            schema_extra={"minimum": 1},
            description="The version to replay (default: latest).",
        ),
    ] = None,
    seat: Annotated[
        int | None,
        QueryParameter(
            ge=0, schema_extra={"minimum": 0}, description="Whose view (default: the token's seat)."
        ),
    ] = None,
) -> Response[ReplayFrame]:
    """A game at a version, as a view."""
    audience = await audience_of(skald, request, game_id)
    view_seat = audience.seat if seat is None else seat
    frame: ReplayFrame = await computed(request, skald, game_id, replayed, audience, at, view_seat)
    return reply(request, frame, headers=PRIVATE)


@get(
    "/games/{game_id:str}/audit/{version:int}",
    operation_id="getAuditByVersion",
    summary="Audit the move that produced a version",
    description="The command that produced event `version` as received (seat, command id, "
    "time, request id), the table before it (public view and the acting seat's view), the "
    "legal alternatives then, the events it produced, whether the hash chain holds up to "
    "it, and once the game is over the seed check. Version 1 and the setup events are the "
    "opening, the last event of a finished game the revealed seed. While the game is in "
    "progress another seat's command, view, alternatives and refusals are withheld.",
    tags=TAGS,
    security=OPTIONAL_SEAT_TOKEN,
    responses=problems(400, 401, 404, 409, 429, 503),
)
async def get_audit_by_version(
    request: Request[Any, Any, Any],
    skald: NamedDependency[Skald],
    game_id: FromPath[str],
    version: FromPath[int],
) -> Response[AuditReport]:
    """The audit of one version's move."""
    audience = await audience_of(skald, request, game_id)
    report: AuditReport = await computed(
        request, skald, game_id, audited_version, version, audience
    )
    return reply(request, report, headers=PRIVATE)


@get(
    "/games/{game_id:str}/commands/{command_id:str}/audit",
    operation_id="getAuditByCommand",
    summary="Audit a command, applied, refused or queued",
    description="The audit of any command the game received, by its id: refused commands "
    "are kept with the reason they were refused. Command ids are per seat, so a command is "
    "named by its seat and its id: `seat` (the seat that sent it, -1 for the service's own "
    "commands), by default the seat of the bearer token. Without a token and without `seat`, "
    "the one command with that id (409 `command.ambiguous` when several seats sent it). What "
    "is shown follows the same rules as the audit by version.",
    tags=TAGS,
    security=OPTIONAL_SEAT_TOKEN,
    responses=problems(400, 401, 404, 409, 429, 503),
)
async def get_audit_by_command(
    request: Request[Any, Any, Any],
    skald: NamedDependency[Skald],
    game_id: FromPath[str],
    command_id: FromPath[str],
    seat: Annotated[
        int | None,
        QueryParameter(
            ge=-1,
            schema_extra={"minimum": -1},
            description="The seat that sent the command (default: the token's seat).",
        ),
    ] = None,
) -> Response[AuditReport]:
    """The audit of one seat's command."""
    audience = await audience_of(skald, request, game_id)
    sender = audience.seat if seat is None else seat
    report: AuditReport = await computed(
        request, skald, game_id, audited_command, sender, command_id, audience
    )
    return reply(request, report, headers=PRIVATE)


@get(
    "/games/{game_id:str}/fairness",
    operation_id="getFairness",
    summary="Prove the draws were fair",
    description="The seed's SHA-256 was published in the first event; the seed is revealed "
    "when the game ends. Then this checks that the revealed seed matches the commitment "
    "and re-derives every random draw from it, naming the first event that differs. While "
    "the game goes on the status is `pending` and only the commitment is shown.",
    tags=TAGS,
    responses=problems(400, 404, 409, 429, 503),
)
async def get_fairness(
    request: Request[Any, Any, Any], skald: NamedDependency[Skald], game_id: FromPath[str]
) -> Response[FairnessReport]:
    """The seed check of a game."""
    report: FairnessReport = await computed(request, skald, game_id, fairness_of)
    return reply(request, report)
