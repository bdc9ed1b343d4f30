"""The HTTP server's own limits: uvicorn on httptools, configured from the settings.

What each layer refuses (docs/reliability.md lists the figures):
- httptools refuses malformed HTTP with uvicorn's own 400 before the app sees anything, and
  `BoundedHttpToolsProtocol` refuses a request head (request line and headers) longer than
  `max_header_bytes` the same way: the parser bounds neither the head's size nor its count of
  headers, so the protocol counts the head's bytes as they arrive and as the parser reads them.
- `BoundedHttpToolsProtocol` closes a connection accepted past `max_connections` at once, and
  one that has not sent a whole request head within `header_timeout_s` of opening (or of its
  previous reply), however slowly its bytes trickle in: slow clients cannot pile up until the
  process runs out of file descriptors.
- uvicorn answers 503 by itself past `limit_concurrency` requests at once, and closes a
  keep-alive connection idle for `timeout_keep_alive_s`.
- The app refuses bodies over `max_body_bytes` (413) or nested deeper than `max_body_depth`
  (400), and everything else a problem names (service.api.problems).
httptools, not h11: the same requests cost the API about an eighth less CPU (docs/benchmarks.md).
"""

from __future__ import annotations

import asyncio
import resource
from typing import Any

import uvicorn
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from service.shared.settings import Settings

from .asgi import litestar_of
from .routes.stream import STREAMS_CLOSING_STATE_KEY, StreamsClosing
from .ws_protocol import WS_FRAME_SLACK_BYTES, CoalescingWebSocketProtocol

# What a header line adds to its name and value: ": " and CRLF.
HEADER_LINE_OVERHEAD = 4


class HeadTooLarge(Exception):
    """Raised from a parser callback to stop reading a head past the limit."""


def bounded_httptools(
    max_connections: int, header_timeout_s: float, max_head_bytes: int
) -> type[HttpToolsProtocol]:
    """uvicorn's httptools protocol with a bound on a request head's bytes, a cap on open
    connections and a deadline for request heads."""

    class BoundedHttpToolsProtocol(HttpToolsProtocol):
        _head_deadline: asyncio.TimerHandle | None = None
        # Between two requests' heads being complete: the bytes received meanwhile are head.
        _awaiting_head = True
        _head_bytes = 0  # of the head awaited, as received
        _head_read = 0  # of the head being parsed, as the parser hands it over
        _head_too_large = False

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            if len(self.connections) > max_connections:
                transport.close()  # connection_lost() then forgets it
                return
            self._arm_head_deadline()

        def connection_lost(self, exc: Exception | None) -> None:
            if self._head_deadline is not None:
                self._head_deadline.cancel()
            super().connection_lost(exc)

        def data_received(self, data: bytes) -> None:
            if self._awaiting_head:
                self._head_bytes += len(data)
            super().data_received(data)
            # A head still incomplete past the limit (the parser keeps a header line it has
            # not seen the end of): refused before any more of it is read.
            over = self._awaiting_head and self._head_bytes > max_head_bytes
            if over and not self.transport.is_closing():
                self._head_too_large = True
                self.send_400_response("")

        def send_400_response(self, msg: str) -> None:
            if self._head_too_large:
                msg = f"Request head (request line and headers) over {max_head_bytes} bytes."
            super().send_400_response(msg)

        def on_message_begin(self) -> None:
            self._head_read = 0
            super().on_message_begin()

        def on_url(self, url: bytes) -> None:
            self._count_head(len(url))
            super().on_url(url)

        def on_header(self, name: bytes, value: bytes) -> None:
            self._count_head(len(name) + len(value) + HEADER_LINE_OVERHEAD)
            super().on_header(name, value)

        def _count_head(self, size: int) -> None:
            # A head arriving whole in one read is counted here, as the parser reads it.
            self._head_read += size
            if self._head_read > max_head_bytes:
                self._head_too_large = True
                raise HeadTooLarge  # the parser stops; uvicorn answers with send_400_response

        def on_headers_complete(self) -> None:
            self._awaiting_head = False
            self._head_bytes = 0
            super().on_headers_complete()

        def on_message_complete(self) -> None:
            self._awaiting_head = True
            super().on_message_complete()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing():
                self._arm_head_deadline()

        def handle_websocket_upgrade(self) -> None:
            # The connection is the WebSocket protocol's from now on (its own pings and
            # limits): the head deadline must not close it.
            if self._head_deadline is not None:
                self._head_deadline.cancel()
                self._head_deadline = None
            super().handle_websocket_upgrade()

        def _arm_head_deadline(self) -> None:
            if self._head_deadline is not None:
                self._head_deadline.cancel()
            self._head_deadline = self.loop.call_later(header_timeout_s, self._head_overdue)

        def _head_overdue(self) -> None:
            self._head_deadline = None
            if self.cycle is not None and not self.cycle.response_complete:
                return  # a request is being served: its head arrived in time
            if not self.transport.is_closing():
                self.transport.close()

    return BoundedHttpToolsProtocol


class SkaldServer(uvicorn.Server):
    """uvicorn that ends the app's open event streams as soon as it starts shutting down.

    uvicorn waits for every open connection before it stops, and a stream never ends by
    itself: one open stream kept SIGINT (Ctrl+C) from stopping the server at all.
    """

    async def shutdown(self, sockets: list[Any] | None = None) -> None:
        """End open streams, then uvicorn's own graceful shutdown."""
        closing = litestar_of(self.config.app).state.get(STREAMS_CLOSING_STATE_KEY)
        if isinstance(closing, StreamsClosing):
            closing.close()
        await super().shutdown(sockets)


def raise_open_files_limit(wanted: int) -> int:
    """Raise the process's soft limit on open files towards `wanted` (up to the hard limit):
    each open connection, an idle server-sent stream included, holds one. Returns the limit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        return target
    return soft


def uvicorn_config(app: Any, settings: Settings, host: str, port: int) -> uvicorn.Config:
    """The uvicorn configuration serving `app` with the limits of `settings`."""
    # Room for every connection allowed, and the process's own files and Redis connections.
    raise_open_files_limit(settings.max_connections + 1024)
    return uvicorn.Config(
        app,
        host=host,
        port=port,
        http=bounded_httptools(
            settings.max_connections, settings.header_timeout_s, settings.max_header_bytes
        ),
        # A seat's WebSocket (routes.socket): a frame is bounded as a request body is; uvicorn's
        # websockets-sansio protocol, each event-loop turn's frames in one write (ws_protocol).
        ws=CoalescingWebSocketProtocol,
        ws_max_size=settings.max_body_bytes + WS_FRAME_SLACK_BYTES,
        limit_concurrency=settings.limit_concurrency,
        timeout_keep_alive=settings.timeout_keep_alive_s,
        # X-Forwarded-For (and -Proto) only from the proxies the settings name (the client
        # address the per-address limits count; uvicorn would otherwise trust 127.0.0.1).
        proxy_headers=bool(settings.forwarded_allow_ips),
        forwarded_allow_ips=settings.forwarded_allow_ips or None,
        log_config=None,  # service.shared.logging has configured the process
        access_log=False,  # RequestLogMiddleware logs each request once
        lifespan="on",
        # Requests still running this long after SIGINT/SIGTERM are cancelled.
        timeout_graceful_shutdown=max(1, round(settings.shutdown_grace_s)),
    )
