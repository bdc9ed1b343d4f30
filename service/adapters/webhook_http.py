"""How the webhook dispatcher POSTs a delivery: a `Poster` answers the status an endpoint
gave, or raises `DeliveryFailed` when no answer came (refused, reset, timed out).

`AiohttpPoster` is what the dispatcher process uses: aiohttp's client costs a fraction of
httpx's CPU per request (httpcore's pool looks at every pooled connection on every request),
and its connector keeps HTTP/1.1 connections alive per endpoint host. `HttpxPoster` wraps an
`httpx.AsyncClient` (the tests' in-process transports use it).
"""

from __future__ import annotations

import aiohttp
import httpx
from aiohttp.abc import AbstractResolver

from service.core.ports.webhooks import DeliveryFailed


class AiohttpPoster:
    """POSTs with one aiohttp session (a pooled, keep-alive connector)."""

    def __init__(self, session: aiohttp.ClientSession, names_checked: bool = False) -> None:
        self.session = session
        # Whether the session's connector refuses names on non-public addresses itself as it
        # resolves them (`webhook_hosts.PublicOnlyResolver`): no lookup of its own needed.
        self.names_checked = names_checked

    async def post(self, url: str, body: bytes, headers: dict[str, str], timeout_s: float) -> int:
        """The status the endpoint answered (its body is read and dropped)."""
        try:
            async with self.session.post(
                url,
                data=body,
                headers=headers,
                timeout=aiohttp.ClientTimeout(total=timeout_s),
                allow_redirects=False,
            ) as response:
                await response.read()
                return response.status
        except (aiohttp.ClientError, TimeoutError) as exc:
            raise DeliveryFailed(f"{type(exc).__name__}: {exc}") from exc


class HttpxPoster:
    """POSTs with an httpx client."""

    def __init__(self, client: httpx.AsyncClient) -> None:
        self.client = client

    async def post(self, url: str, body: bytes, headers: dict[str, str], timeout_s: float) -> int:
        """The status the endpoint answered."""
        try:
            response = await self.client.post(url, content=body, headers=headers, timeout=timeout_s)
        except httpx.HTTPError as exc:
            raise DeliveryFailed(f"{type(exc).__name__}: {exc}") from exc
        return response.status_code


def new_session(
    max_connections: int = 256, per_host: int = 64, resolver: AbstractResolver | None = None
) -> aiohttp.ClientSession:
    """The dispatcher's session: connections kept alive and reused per endpoint host, no
    cookies kept (every delivery stands alone); names resolved by `resolver` (aiohttp's own
    by default; the dispatcher process's refuses non-public addresses)."""
    connector = aiohttp.TCPConnector(
        limit=max_connections, limit_per_host=per_host, resolver=resolver
    )
    return aiohttp.ClientSession(
        connector=connector, cookie_jar=aiohttp.DummyCookieJar(), auto_decompress=False
    )
