"""Ratings: leaderboards per game and variant, a player's ratings and rating history.

All public (like a profile): players' ids, names, ranks and ratings, nothing a game hides.
"""

from __future__ import annotations

from typing import Annotated, Any

from litestar import Request, Response, get
from litestar.di import NamedDependency
from litestar.params import FromPath, QueryParameter

from contracts.ratings import Leaderboard, PlayerRatings, RatingHistory
from service.facade.rating_side import RatingSide
from service.facade.skald import Skald
from service.shared.errors import Unavailable

from ..docs import problems
from ..negotiation import reply

TAGS = ["ratings"]


def rating_side(skald: Skald) -> RatingSide:
    """The facade's rating side (every facade bootstrap builds has one)."""
    if skald.ratings is None:
        raise Unavailable("ratings.unavailable", "this server keeps no ratings")
    return skald.ratings


@get(
    "/leaderboards/{game:str}",
    operation_id="getLeaderboard",
    summary="A game's leaderboard",
    description="Players by displayed rating (mu - 3 sigma, OpenSkill's ordinal), best first, "
    "in one variant of the game (`variant`; the game's standard one by default: `base` for "
    "Fjords, `standard` for the others; docs/ratings.md lists them). `cursor` comes from the "
    "previous page: it names the last player shown and their score, so a page starts right "
    "after them even if ratings moved meanwhile.",
    tags=TAGS,
    responses=problems(400, 404, 503),
)
async def get_leaderboard(
    request: Request[Any, Any, Any],
    skald: NamedDependency[Skald],
    game: FromPath[str],
    variant: Annotated[str | None, QueryParameter(max_length=63)] = None,
    cursor: Annotated[str | None, QueryParameter(max_length=100)] = None,
    limit: Annotated[int, QueryParameter(ge=1, le=100)] = 20,
) -> Response[Leaderboard]:
    """A page of a leaderboard."""
    board = await rating_side(skald).leaderboard(game, variant, cursor, limit)
    return reply(request, board)


@get(
    "/players/{player_id:str}/ratings",
    operation_id="getPlayerRatings",
    summary="A player's ratings",
    description="One rating per game and variant the player played rated games in.",
    tags=TAGS,
    responses=problems(400, 404, 503),
)
async def get_player_ratings(
    request: Request[Any, Any, Any], skald: NamedDependency[Skald], player_id: FromPath[str]
) -> Response[PlayerRatings]:
    """A player's ratings."""
    return reply(request, await rating_side(skald).player_ratings(player_id))


@get(
    "/players/{player_id:str}/rating-history",
    operation_id="getPlayerRatingHistory",
    summary="A player's rating history",
    description="One entry per rated game, newest first: the game, the player's rank in it, "
    "their rating after it and before. `cursor` comes from the previous page.",
    tags=TAGS,
    responses=problems(400, 404, 503),
)
async def get_player_rating_history(
    request: Request[Any, Any, Any],
    skald: NamedDependency[Skald],
    player_id: FromPath[str],
    cursor: Annotated[str | None, QueryParameter(max_length=18)] = None,
    limit: Annotated[int, QueryParameter(ge=1, le=100)] = 20,
) -> Response[RatingHistory]:
    """A page of a player's rating history."""
    return reply(request, await rating_side(skald).history(player_id, cursor, limit))
