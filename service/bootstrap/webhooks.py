"""Webhooks: the operator's administration (the API and `skald webhooks`) and the dispatcher
process's graph."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator

import httpx
from redis.asyncio import Redis

from service.adapters.notification_feed import (
    Presence,
)
from service.adapters.webhook_hosts import (
    GuardedPoster,
    HostGuard,
    PublicOnlyResolver,
    Resolver,
    SystemResolver,
)
from service.adapters.webhook_http import AiohttpPoster, HttpxPoster, new_session
from service.adapters.webhooks import WebhookStore
from service.bootstrap.clients import event_client
from service.core.notifying.dispatch import Dispatcher
from service.core.ports.webhooks import Poster
from service.facade.webhook_side import WebhookAdmin
from service.shared.settings import Settings


def webhook_store(redis: Redis, settings: Settings) -> WebhookStore:
    """Webhook endpoints, their delivery queues and dead letters."""
    return WebhookStore(redis, settings.key_prefix)


def host_guard(settings: Settings, resolver: Resolver | None = None) -> HostGuard:
    """What refuses webhook endpoints on non-public addresses (names resolved by `resolver`,
    the system's by default), unless `webhook_allow_private`."""
    return HostGuard(resolver or SystemResolver(), settings.webhook_allow_private)


def webhook_admin(
    settings: Settings, redis: Redis, resolver: Resolver | None = None
) -> WebhookAdmin:
    """The operator's webhook operations (API and CLI)."""
    return WebhookAdmin(settings, webhook_store(redis, settings), host_guard(settings, resolver))


def dispatcher(
    settings: Settings,
    redis: Redis,
    client: httpx.AsyncClient | Poster,
    consumer: str,
    resolver: Resolver | None = None,
) -> Dispatcher:
    """A webhook dispatcher over `redis`, delivering with `client` (an httpx client, or a
    `Poster` such as the dispatcher process's aiohttp one), each endpoint's host checked
    again before each attempt."""
    poster = HttpxPoster(client) if isinstance(client, httpx.AsyncClient) else client
    # The dispatcher process's connector checks each name's addresses as it resolves them.
    names_checked = isinstance(poster, AiohttpPoster) and poster.names_checked
    return Dispatcher(
        webhook_store(redis, settings),
        Presence(redis, settings.key_prefix),
        GuardedPoster(poster, host_guard(settings, resolver), resolve_names=not names_checked),
        settings.webhook_retry_delays,
        settings.webhook_timeout_s,
        consumer,
        linger_ms=settings.webhook_linger_ms,
    )


@contextlib.asynccontextmanager
async def dispatcher_graph(settings: Settings, consumer: str) -> AsyncIterator[Dispatcher]:
    """The dispatcher process's dispatcher: aiohttp posting through a connector that resolves
    public addresses only (unless private ones are allowed), over the event client."""
    redis = event_client(settings)  # one Redis, or the cluster the settings name
    try:
        resolver = PublicOnlyResolver(settings.webhook_allow_private)
        async with new_session(resolver=resolver) as session:
            yield dispatcher(settings, redis, AiohttpPoster(session, names_checked=True), consumer)
    finally:
        await redis.aclose()
