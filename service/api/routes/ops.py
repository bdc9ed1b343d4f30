"""Operations: liveness, readiness, Prometheus metrics and the OpenAPI document."""

from __future__ import annotations

from typing import Any

from litestar import Request, Response, get
from litestar.di import NamedDependency
from litestar.openapi import ResponseSpec
from redis.exceptions import RedisError

from contracts.api import Health
from service.facade.holder import FacadeHolder
from service.shared.errors import ServiceError

from ..asyncapi import cached_asyncapi_json
from ..metrics import api_metrics
from ..negotiation import JSON, OFFERS_KEY
from ..openapi import cached_openapi_json
from ..problems import UNAVAILABLE_RETRY_S, retry_after

TAGS = ["operations"]
JSON_ONLY = {OFFERS_KEY: (JSON,)}
PROMETHEUS_TEXT = "text/plain; version=0.0.4; charset=utf-8"


@get(
    "/healthz",
    operation_id="health",
    summary="Liveness",
    description="200 while the process serves; it does not touch Redis.",
    tags=TAGS,
    opt=JSON_ONLY,
)
async def health() -> Health:
    """The process is up and serving (it does not touch Redis)."""
    return Health(status="ok", checks={"process": "ok"})


@get(
    "/readyz",
    operation_id="readiness",
    summary="Readiness",
    description="200 when the API can reach Redis; 503 (with Retry-After) while it cannot.",
    tags=TAGS,
    responses={
        503: ResponseSpec(Health, description="Redis is unreachable", generate_examples=False)
    },
    opt=JSON_ONLY,
)
async def readiness(facade: NamedDependency[FacadeHolder]) -> Response[Health]:
    """Whether the API can serve: Redis answers."""
    try:
        skald = await facade.get()
        await skald.ping()
    except (ServiceError, RedisError, OSError) as exc:
        checks = {"redis": f"unavailable: {exc}"}
        return Response(
            Health(status="unavailable", checks=checks),
            status_code=503,
            headers=retry_after(UNAVAILABLE_RETRY_S),
        )
    return Response(Health(status="ok", checks={"redis": "ok"}))


@get(
    "/metrics",
    operation_id="metrics",
    summary="Prometheus metrics",
    description="The API's requests, latencies, commands and open streams, in Prometheus' "
    "text format.",
    tags=TAGS,
    media_type=PROMETHEUS_TEXT,
    opt={OFFERS_KEY: (PROMETHEUS_TEXT,)},
)
async def metrics_exposition(request: Request[Any, Any, Any]) -> bytes:
    """The API's metrics in Prometheus' text format."""
    return api_metrics(request).exposition()


@get(
    "/openapi.json",
    operation_id="openapi",
    summary="The OpenAPI document, with every game's own schemas",
    tags=TAGS,
    include_in_schema=False,
    media_type=JSON,
    opt=JSON_ONLY,
)
async def openapi_document(request: Request[Any, Any, Any]) -> bytes:
    """The document `skald openapi` exports."""
    return cached_openapi_json(request.app)


@get(
    "/asyncapi.json",
    operation_id="asyncapi",
    summary="The AsyncAPI document of the live channels (socket and streams)",
    tags=TAGS,
    include_in_schema=False,
    media_type=JSON,
    opt=JSON_ONLY,
)
async def asyncapi_document(request: Request[Any, Any, Any]) -> bytes:
    """The document `skald asyncapi` exports."""
    return cached_asyncapi_json(request.app)
