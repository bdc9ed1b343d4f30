"""Each game's own copy of the operations on a game: `/chess/games/{game_id}/...`.

They are the same handlers as `/games/{game_id}/...`, mounted once per registered game under
the game's name, and answer only for a game of that name (another game's id is not found).
They exist for the OpenAPI document: there each copy is typed by its game's schemas, so a
client generated from it needs no casts (see `service/api/openapi_games.py`).
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

from litestar import Router
from litestar.connection import ASGIConnection
from litestar.handlers import BaseRouteHandler, HTTPRouteHandler

from domain.games import game_names
from service.facade.holder import FacadeHolder
from service.shared.errors import NotFound

from ..openapi_games import GAME_PATH_PREFIX

FACADE_STATE = "facade"


def on_a_game(handler: HTTPRouteHandler) -> bool:
    """Whether a route acts on one game (its path starts with /games/{game_id})."""
    # Handler paths carry their parameters' types: /games/{game_id:str}/...
    return any(path.startswith(GAME_PATH_PREFIX[:-1]) for path in handler.paths)


def _only_game(game: str) -> Any:
    async def guard(connection: ASGIConnection[Any, Any, Any, Any], _: BaseRouteHandler) -> None:
        game_id = connection.path_params["game_id"]
        holder: FacadeHolder = connection.app.state[FACADE_STATE]
        meta = await (await holder.get()).metas.get(game_id)
        if meta.game != game:
            raise NotFound(
                "game.not_found", f"no {game} game {game_id!r} (it is a {meta.game} game)"
            )

    return guard


def pristine(handlers: Sequence[HTTPRouteHandler]) -> list[HTTPRouteHandler]:
    """Copies of the handlers that act on one game, taken before any app registers (and so
    resolves) them: a registered handler caches its owner's guards and dependencies."""
    return [copy.deepcopy(handler) for handler in handlers if on_a_game(handler)]


def game_routers(templates: Sequence[HTTPRouteHandler]) -> list[Router]:
    """A router per registered game, holding a fresh copy of each pristine handler."""
    return [
        Router(
            path=f"/{game}",
            route_handlers=[copy.deepcopy(handler) for handler in templates],
            guards=[_only_game(game)],
            include_in_schema=False,
        )
        for game in game_names()
    ]
