"""The HTTP application: Litestar routes on the facade, wrapped in logging and metrics.

`create_app()` gives the ASGI application uvicorn serves; `create_litestar()` the bare Litestar
app (for the OpenAPI document). Routes only translate: HTTP in, a facade call, HTTP out.
"""

from __future__ import annotations

from typing import Any

from litestar import Litestar, Router
from litestar.config.compression import CompressionConfig
from litestar.config.cors import CORSConfig
from litestar.connection import ASGIConnection
from litestar.datastructures import State
from litestar.di import Provide
from litestar.handlers import BaseRouteHandler

from service import bootstrap
from service.facade.holder import Connect, FacadeHolder
from service.shared.logging import RequestLogMiddleware
from service.shared.settings import Settings, load_plugins

from .body_guard import bodyless_guard
from .history_gate import HISTORY_GATE_STATE_KEY, HistoryGate
from .metrics import ApiMetrics, MetricsMiddleware
from .negotiation import MAX_BODY_DEPTH_STATE_KEY, NegotiatingRequest, accept_guard
from .openapi import openapi_config
from .problems import exception_handlers
from .query_guard import single_query_guard
from .routes import (
    commands,
    echo,
    games,
    history,
    notifications,
    ops,
    players,
    ratings,
    reads,
    socket,
    stream,
    webhooks,
)
from .routes.per_game import FACADE_STATE, game_routers, pristine
from .web_client import web_client_routes

# The API, under /v1 (API_PREFIX). The same operations answer at their first paths, without
# the prefix, as deprecated aliases left out of the OpenAPI document.
API_PREFIX = "/v1"
ROUTES = [
    games.lobby_options,
    games.create_game,
    games.join_game,
    games.list_open_games,
    commands.submit_command,
    commands.get_command_outcome,
    reads.get_view,
    reads.list_events,
    reads.get_turn,
    stream.stream_game,
    stream.create_stream_ticket,
    history.get_replay,
    history.get_audit_by_version,
    history.get_audit_by_command,
    history.get_fairness,
    players.create_player,
    players.get_player,
    players.token_options,
    players.rotate_token,
    players.revoke_token,
    players.list_player_games,
    players.start_game,
    players.cancel_game,
    players.resign_seat,
    players.leave_game,
    players.rematch,
    ratings.get_leaderboard,
    ratings.get_player_ratings,
    ratings.get_player_rating_history,
    notifications.list_notifications,
    notifications.create_notification_ticket,
    notifications.stream_notifications,
    webhooks.webhooks_options,
    webhooks.create_webhook_endpoint,
    webhooks.list_webhook_endpoints,
    webhooks.delete_webhook_endpoint,
]
# Taken at import, before any app registers the handlers (see routes.per_game).
GAME_ROUTES = pristine(ROUTES)
# Probes, metrics and the documents themselves: not versioned.
OPS_ROUTES = [
    ops.health,
    ops.readiness,
    ops.metrics_exposition,
    ops.openapi_document,
    ops.asyncapi_document,
]
# Headers a browser client sends beyond the CORS-safe ones, and those it may read.
CORS_REQUEST_HEADERS = ["authorization", "content-type", "if-none-match", "last-event-id"]
CORS_EXPOSED_HEADERS = ["etag", "location", "retry-after", "vary"]


async def request_guard(
    connection: ASGIConnection[Any, Any, Any, Any], handler: BaseRouteHandler
) -> None:
    """Every request's checks before its route runs (`Accept`, repeated query parameters, a
    body to a route that takes none), as one guard: Litestar copies the route's handler for
    each guard it runs."""
    await accept_guard(connection, handler)
    await single_query_guard(connection, handler)
    await bodyless_guard(connection, handler)


def cors_config(settings: Settings) -> CORSConfig | None:
    """CORS for the configured origins only; None (off) when none is configured."""
    origins = settings.cors_origin_list
    if not origins:
        return None
    return CORSConfig(
        allow_origins=origins,
        allow_methods=["GET", "POST", "OPTIONS"],
        allow_headers=CORS_REQUEST_HEADERS,
        expose_headers=CORS_EXPOSED_HEADERS,
        max_age=600,
    )


def route_handlers(settings: Settings) -> list[Any]:
    """The API under /v1 (with each game's typed copies of the operations on a game), its
    unprefixed aliases, and the operations routes."""
    api = [*ROUTES, echo.echo_command] if settings.bench_echo else ROUTES
    return [
        Router(API_PREFIX, route_handlers=[*api, *game_routers(GAME_ROUTES)]),
        Router("/", route_handlers=api, include_in_schema=False),
        # A seat's WebSocket channel: /v1 only (docs/clients.md, "WebSocket channel").
        Router(API_PREFIX, route_handlers=[socket.game_socket]),
        *OPS_ROUTES,
        *web_client_routes(),
    ]


def create_litestar(settings: Settings, connect: Connect = bootstrap.connect) -> Litestar:
    """The Litestar app serving the Skald API with `settings`."""
    # Every game first, plugins' included: each gets its own typed routes and schemas.
    load_plugins(settings)
    facade = FacadeHolder(settings, connect)
    metrics = ApiMetrics()
    history_gate = HistoryGate.for_settings(settings)

    def constant(value: Any) -> Provide:
        return Provide(lambda: value, use_cache=True, sync_to_thread=False)

    return Litestar(
        route_handlers=route_handlers(settings),
        dependencies={
            "skald": Provide(facade.get),
            "facade": constant(facade),
        },
        exception_handlers=exception_handlers(settings.max_body_bytes),
        request_class=NegotiatingRequest,
        guards=[request_guard],
        request_max_body_size=settings.max_body_bytes,
        openapi_config=openapi_config(),
        cors_config=cors_config(settings),
        compression_config=CompressionConfig(
            backend="gzip",
            minimum_size=settings.compress_min_bytes,
            gzip_compress_level=6,
            exclude_opt_key=stream.SKIP_COMPRESSION,
        ),
        on_shutdown=[facade.close, history_gate.close],
        state=State(
            {
                "metrics": metrics,
                FACADE_STATE: facade,
                MAX_BODY_DEPTH_STATE_KEY: settings.max_body_depth,
                HISTORY_GATE_STATE_KEY: history_gate,
                stream.STREAMS_CLOSING_STATE_KEY: stream.StreamsClosing(),
            }
        ),
        # Logging is configured once per process by service.shared.logging, not by Litestar.
        logging_config=None,
    )


def create_app(settings: Settings | None = None, connect: Connect = bootstrap.connect) -> Any:
    """The ASGI application: the Litestar app inside request logging and metrics."""
    app = create_litestar(settings or Settings.from_env(), connect)
    return RequestLogMiddleware(MetricsMiddleware(app, app.state["metrics"]))


def litestar_of(app: Any) -> Litestar:
    """The Litestar app inside an application `create_app` made (through its middleware)."""
    while not isinstance(app, Litestar):
        app = app.app
    return app
