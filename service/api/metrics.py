"""Prometheus metrics of the API process, served at GET /metrics.

Each app gets its own registry (tests build many apps in one process). Routes are labelled by
their template (`/games/{game_id}/view`), never by the concrete path, so label cardinality
stays bounded however many games exist.
"""

from __future__ import annotations

import time
from collections.abc import MutableMapping
from typing import Any

from litestar import Request
from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    gc_collector,
    generate_latest,
    platform_collector,
    process_collector,
)

UNMATCHED_ROUTE = "<unmatched>"


class ApiMetrics:
    """The API's counters, histograms and gauges, in a registry of their own."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        process_collector.ProcessCollector(registry=self.registry)
        platform_collector.PlatformCollector(registry=self.registry)
        gc_collector.GCCollector(registry=self.registry)
        self.requests = Counter(
            "skald_http_requests",
            "HTTP requests answered, by method, route template and status.",
            ["method", "route", "status"],
            registry=self.registry,
        )
        self.latency = Histogram(
            "skald_http_request_duration_seconds",
            "Time to answer an HTTP request (server-sent event streams excluded).",
            ["method", "route"],
            registry=self.registry,
        )
        self.commands = Counter(
            "skald_commands_submitted",
            "Commands submitted, by the outcome named in the reply (queued, applied, refused).",
            ["outcome"],
            registry=self.registry,
        )
        self.streams_open = Gauge(
            "skald_sse_streams_open",
            "Server-sent event streams currently open.",
            registry=self.registry,
        )

    def exposition(self) -> bytes:
        """The registry in Prometheus' text format."""
        return generate_latest(self.registry)


def api_metrics(request: Request[Any, Any, Any]) -> ApiMetrics:
    """The metrics of the app serving `request` (read from its state, not injected: a route
    with two dependencies or more pays for a task group on every request)."""
    metrics: ApiMetrics = request.app.state["metrics"]
    return metrics


class MetricsMiddleware:
    """ASGI middleware counting every HTTP request (unknown routes included)."""

    def __init__(self, app: Any, metrics: ApiMetrics) -> None:
        self.app = app
        self.metrics = metrics

    async def __call__(self, scope: MutableMapping[str, Any], receive: Any, send: Any) -> None:
        """Handle one ASGI connection."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        status = 500
        streaming = False

        async def observe_start(message: MutableMapping[str, Any]) -> None:
            nonlocal status, streaming
            if message["type"] == "http.response.start":
                status = message["status"]
                content_type = dict(message.get("headers") or []).get(b"content-type", b"")
                streaming = content_type.startswith(b"text/event-stream")
            await send(message)

        started = time.perf_counter()
        try:
            await self.app(scope, receive, observe_start)
        finally:
            route = scope.get("path_template") or UNMATCHED_ROUTE
            method = scope["method"]
            self.metrics.requests.labels(method, route, str(status)).inc()
            if not streaming:
                self.metrics.latency.labels(method, route).observe(time.perf_counter() - started)
