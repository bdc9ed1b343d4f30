"""Reading a game: the caller's view (with ETag by version) and its events after a version."""

from __future__ import annotations

from typing import Annotated, Any

from litestar import Request, Response, get
from litestar.di import NamedDependency
from litestar.params import FromPath, QueryParameter

from contracts.api import EventPage, Turn, ViewEnvelope
from service.facade.skald import Skald

from ..auth import optional_seat, seat_for_view
from ..docs import OPTIONAL_SEAT_TOKEN, problems
from ..limits import bounded_page, bounded_wait
from ..negotiation import pre_encoded, reply, wants_msgpack

TAGS = ["reads"]


def etag_for(version: int, seated: str | None = None) -> str:
    """The strong ETag of a view: its version (representations differ by Vary headers), and
    while seats are free who sits where (a seat taken adds a name at the same version)."""
    return f'"{version}"' if seated is None else f'"{version}.{seated}"'


def etag_matches(if_none_match: str | None, wanted: str) -> bool:
    """Whether an If-None-Match header names this ETag (weak tags and `*` included)."""
    if not if_none_match:
        return False
    for candidate in if_none_match.split(","):
        tag = candidate.strip().removeprefix("W/")
        if tag in ("*", wanted):
            return True
    return False


@get(
    "/games/{game_id:str}/view",
    operation_id="getView",
    summary="Your view of the game",
    description="With a seat token: that seat's view. Without one: the public (spectator) view. "
    "`seat` may name the seat explicitly, and then needs that seat's token. `players` names "
    "the seated players. The ETag is the game's version (while seats are free, the version "
    "and who sits where): send it back in If-None-Match to get 304 while nothing "
    "changed.",
    tags=TAGS,
    security=OPTIONAL_SEAT_TOKEN,
    responses=problems(400, 401, 403, 404, 503),
)
async def get_view(
    request: Request[Any, Any, Any],
    skald: NamedDependency[Skald],
    game_id: FromPath[str],
    seat: Annotated[
        int | None,
        QueryParameter(
            ge=0, schema_extra={"minimum": 0}, description="The seat whose view to read."
        ),
    ] = None,
) -> Response[ViewEnvelope]:
    """The caller's view, pre-encoded by the workers."""
    viewer = await seat_for_view(skald, request, game_id, seat)
    version, body, taken = await skald.reads.seated_view(
        game_id, viewer, "msgpack" if wants_msgpack(request) else "json"
    )
    etag = etag_for(version, taken)
    headers = {
        "etag": etag,
        # Views differ by seat (the token) and encoding; caches must revalidate every time.
        "vary": "Accept, Authorization",
        "cache-control": "private, no-cache",
    }
    if etag_matches(request.headers.get("if-none-match"), etag):
        not_modified: Response[Any] = Response(b"", status_code=304, headers=headers)
        return not_modified
    return pre_encoded(request, body, headers)


@get(
    "/games/{game_id:str}/events",
    operation_id="listEvents",
    summary="Events after a version",
    description="The game's events with version greater than `after`, oldest first, filtered to "
    "what the caller may see (a seat with its token, or a spectator without). `last_version` "
    "is the stream's current version: page on with `after=<last event's version>`.",
    tags=TAGS,
    security=OPTIONAL_SEAT_TOKEN,
    responses=problems(400, 401, 404, 503),
)
async def list_events(
    request: Request[Any, Any, Any],
    skald: NamedDependency[Skald],
    game_id: FromPath[str],
    after: Annotated[int, QueryParameter(ge=0, description="Only events after this version.")] = 0,
    limit: Annotated[int, QueryParameter(ge=1, description="At most this many events.")] = 100,
) -> Response[EventPage]:
    """Events the caller may see, after a version."""
    bounded_page(limit, skald.settings.max_events_page)
    seat = await optional_seat(skald, request, game_id)
    page = await skald.reads.events_after(game_id, after, seat, limit)
    return reply(request, page)


@get(
    "/games/{game_id:str}/turn",
    operation_id="getTurn",
    summary="Whose move it is, and your legal commands",
    description="The game's version, the seats the game waits for, and, for the seat of the "
    "bearer token, every command the rules allow it now (ready to submit). Without a token "
    "(a spectator) the list is empty. `phase` is `open` (waiting for players), `started`, "
    "`finished` or `cancelled`; once the game is over, `finished` is true and `outcome` holds "
    "the final scores. With `after=<version>&wait=<seconds>` the reply waits until the game's "
    "version is past `after`, so one request waits for the start, for the seat's turn or for "
    "the end; after the wait it answers the turn as it stands (without `after`, at once).",
    tags=TAGS,
    security=OPTIONAL_SEAT_TOKEN,
    responses=problems(400, 401, 404, 503),
)
async def get_turn(
    request: Request[Any, Any, Any],
    skald: NamedDependency[Skald],
    game_id: FromPath[str],
    after: Annotated[
        int | None,
        QueryParameter(
            ge=0,
            schema_extra={"minimum": 0},
            description="With `wait`: answer once the game's version is past this one.",
        ),
    ] = None,
    wait: Annotated[
        float, QueryParameter(ge=0.0, description="Seconds to wait for a change (bounded).")
    ] = 0.0,
) -> Response[Turn]:
    """Where the game stands for the caller (once it moved past `after`, with `wait`)."""
    wait = bounded_wait(wait, skald.settings.max_wait_s)
    seat = await optional_seat(skald, request, game_id)
    if wait <= 0 or after is None:
        return reply(request, await skald.reads.turn(game_id, seat))
    return reply(request, await skald.reads.wait_turn(game_id, seat, after, wait))
