"""The webhook dispatcher: delivers every player's notifications to the registered endpoints.

A step takes new notifications from the inbox into the queues of the endpoints that want
them (`intake`), then delivers to every (endpoint, player) pair due (`deliver_due`): the
pair's delivery in flight if one is, else a new one frozen from its queue, where the
player's pending notifications collapse into one body with one stable id. It is POSTed with
httpx, signed per Standard Webhooks; a 2xx ends it; anything else (an error status, a
timeout, a refused connection) schedules the next attempt after the next delay of the retry
schedule, with jitter, and after the last one the delivery is dead-lettered.

Quiet rule: "your turn" is not pushed to a player who has a live notification stream open
(the stream tells them already); the rest is.
"""

from __future__ import annotations

import asyncio
import hashlib
import random
import time
from dataclasses import dataclass

import httpx
import msgspec
import structlog

from contracts.notifications import Notification
from contracts.webhooks import DeadLetter, Endpoint, WebhookBody
from service.adapters.notification_feed import Presence, decode_notification
from service.adapters.webhooks import Delivery, WebhookStore
from service.core.notifying.signing import headers

log = structlog.get_logger("skald.webhooks")

MAX_PER_DELIVERY = 50  # notifications collapsed into one delivery at most
_encoder = msgspec.json.Encoder()


def delivery_id(endpoint_id: str, player_id: str, notifications: list[Notification]) -> str:
    """A delivery's stable id: the same endpoint, player and notifications give the same id."""
    text = "|".join([endpoint_id, player_id, *(n.id for n in notifications)])
    return "msg_" + hashlib.sha256(text.encode()).hexdigest()[:32]


@dataclass
class DispatchReport:
    """What one dispatcher step did."""

    taken_in: int = 0
    delivered: int = 0
    notifications_delivered: int = 0
    failed: int = 0
    dead: int = 0
    quiet: int = 0  # "your turn" notifications not pushed (the player was streaming)


class Dispatcher:
    """Delivers queued notifications to webhook endpoints (one instance per process)."""

    def __init__(
        self,
        store: WebhookStore,
        presence: Presence,
        client: httpx.AsyncClient,
        schedule_s: list[float],
        timeout_s: float,
        consumer: str,
        rng: random.Random | None = None,
        concurrency: int = 32,
        linger_ms: int = 0,
    ) -> None:
        self.linger_ms = linger_ms  # a new pair waits this long, collecting more to collapse
        self._clock_offset_ms = 0.0  # the Redis clock minus this process's, read each step
        self.store = store
        self.presence = presence
        self.client = client
        self.schedule_s = schedule_s  # the delay before each retry: len + 1 attempts in all
        self.timeout_s = timeout_s
        self.consumer = consumer
        self.rng = rng or random.Random()
        self.concurrency = concurrency
        self._endpoints: dict[str, Endpoint] = {}

    async def step(self, block_ms: int = 0) -> DispatchReport:
        """Take in new notifications, then deliver every pair due."""
        report = DispatchReport()
        entries = await self.store.read_inbox(
            self.consumer, 500, block_ms, reclaim_idle_ms=int(self.timeout_s * 1000) * 2
        )
        self._clock_offset_ms = await self.store.now_ms() - time.time() * 1000
        report.taken_in = await self.store.intake(entries, self.now_ms() + self.linger_ms)
        await self.deliver_due(report)
        return report

    def now_ms(self) -> int:
        """Now on the Redis clock (as last read, moved on by this process's clock)."""
        return int(time.time() * 1000 + self._clock_offset_ms)

    async def deliver_due(self, report: DispatchReport) -> None:
        """Deliver to every (endpoint, player) pair due now."""
        now = self.now_ms()
        lease_ms = int(self.timeout_s * 1000) + 5000  # past the attempt: a crash retries it
        pairs = await self.store.take(now, lease_ms, self.concurrency * 4)
        if not pairs:
            return
        self._endpoints = {e.id: e for e in await self.store.endpoints()}
        gate = asyncio.Semaphore(self.concurrency)

        async def one(endpoint_id: str, player_id: str) -> None:
            async with gate:
                try:
                    await self.deliver_pair(endpoint_id, player_id, report)
                except Exception:  # Redis lost mid-way: the lease makes it come back
                    log.exception("webhook_pair_failed", endpoint=endpoint_id, player=player_id)

        await asyncio.gather(*(one(e, p) for e, p in pairs))

    async def deliver_pair(self, endpoint_id: str, player_id: str, report: DispatchReport) -> None:
        """Attempt the pair's delivery in flight, or a new one from its queue."""
        endpoint = self._endpoints.get(endpoint_id)
        now = self.now_ms()
        if endpoint is None:  # removed: its queue goes with it
            await self.store.redis.delete(
                self.store.queue_key(endpoint_id, player_id),
                self.store.delivery_key(endpoint_id, player_id),
            )
            await self.store.finish(endpoint_id, player_id, now)
            return
        delivery, queued, present = await self.store.pair_state(
            endpoint_id, player_id, MAX_PER_DELIVERY, self.presence.key(player_id), now
        )
        if delivery is None:
            delivery = await self._freeze(endpoint_id, player_id, now, queued, present, report)
            if delivery is None:
                return
        await self._attempt(endpoint, player_id, delivery, report)

    async def _freeze(
        self,
        endpoint_id: str,
        player_id: str,
        now: int,
        queued: list[bytes],
        present: bool,
        report: DispatchReport,
    ) -> Delivery | None:
        if not queued:
            await self.store.finish(endpoint_id, player_id, now)
            return None
        notifications = [decode_notification(data) for data in queued]
        if present:
            kept = [n for n in notifications if n.kind != "your_turn"]
            report.quiet += len(notifications) - len(kept)
            notifications = kept
        delivery = None
        if notifications:
            body = _encoder.encode(WebhookBody("notifications", player_id, notifications))
            delivery = Delivery(delivery_id(endpoint_id, player_id, notifications), body, 0)
        if not await self.store.freeze(endpoint_id, player_id, len(queued), delivery):
            return await self.store.in_flight(endpoint_id, player_id)  # frozen meanwhile
        if delivery is None:
            await self.store.finish(endpoint_id, player_id, now)
        return delivery

    async def _attempt(
        self, endpoint: Endpoint, player_id: str, delivery: Delivery, report: DispatchReport
    ) -> None:
        sent = headers(endpoint.secret, delivery.id, int(time.time()), delivery.body)
        error = ""
        try:
            response = await self.client.post(
                endpoint.url, content=delivery.body, headers=sent, timeout=self.timeout_s
            )
            if 200 <= response.status_code < 300:
                await self.store.finish(endpoint.id, player_id, self.now_ms() + self.linger_ms)
                report.delivered += 1
                report.notifications_delivered += delivery.body.count(b'"kind":')
                return
            error = f"HTTP {response.status_code}"
        except httpx.HTTPError as exc:
            error = f"{type(exc).__name__}: {exc}"
        attempts = delivery.attempts + 1
        now = self.now_ms()
        report.failed += 1
        if attempts > len(self.schedule_s):
            dead = DeadLetter(
                id=delivery.id,
                endpoint_id=endpoint.id,
                player_id=player_id,
                body=delivery.body.decode(),
                attempts=attempts,
                last_error=error,
                at_ms=now,
            )
            await self.store.finish(endpoint.id, player_id, now, dead)
            report.dead += 1
            log.warning("webhook_dead_lettered", id=delivery.id, endpoint=endpoint.id, error=error)
            return
        delay_s = self.schedule_s[attempts - 1] * self.rng.uniform(0.8, 1.2)
        await self.store.retry_at(endpoint.id, player_id, attempts, now + int(delay_s * 1000))
        log.info("webhook_retry", id=delivery.id, attempts=attempts, error=error, delay_s=delay_s)
