"""The webhook dispatcher: delivers every player's notifications to the registered endpoints.

A step takes new notifications from the inbox into the queues of the endpoints that want
them (`intake`), then delivers to every (endpoint, player) pair due (`deliver_due`): the
pair's delivery in flight if one is, else a new one frozen from its queue, where the
player's pending notifications collapse into one body with one stable id. It is POSTed (by a
`Poster`: aiohttp in the dispatcher process), signed per Standard Webhooks; a 2xx ends it;
anything else (an error status, a timeout, a refused connection) schedules the next attempt
after the next delay of the retry schedule, with jitter, and after the last one the delivery
is dead-lettered.

Quiet rule: "your turn" is not pushed to a player who has a live notification stream open
(the stream tells them already); the rest is.
"""

from __future__ import annotations

import asyncio
import hashlib
import math
import random
import time
from dataclasses import dataclass

import msgspec
import structlog

from contracts.notifications import Notification
from contracts.webhooks import DeadLetter, Endpoint, WebhookBody
from service.core.notifying.signing import headers
from service.core.ports.notifications import Presence, decode_notification
from service.core.ports.webhooks import Delivery, DeliveryFailed, PairOutcome, Poster, WebhookStore

log = structlog.get_logger("skald.webhooks")

MAX_PER_DELIVERY = 50  # notifications collapsed into one delivery at most
CLOCK_READ_S = 1.0  # how often a dispatcher reads the Redis clock again (its offset drifts slowly)
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
        poster: Poster,
        schedule_s: list[float],
        timeout_s: float,
        consumer: str,
        rng: random.Random | None = None,
        concurrency: int = 32,
        linger_ms: int = 0,
    ) -> None:
        self.linger_ms = linger_ms  # a new pair waits this long, collecting more to collapse
        self._clock_offset_ms = 0.0  # the Redis clock minus this process's
        self._clock_read_at = -math.inf  # when it was last read (monotonic s)
        self._reclaimed_at = -math.inf  # when abandoned inbox entries were last looked for
        self.store = store
        self.presence = presence
        self.poster = poster  # who POSTs (the composition root builds it)
        self.schedule_s = schedule_s  # the delay before each retry: len + 1 attempts in all
        self.timeout_s = timeout_s
        self.consumer = consumer
        self.rng = rng or random.Random()
        self.concurrency = concurrency
        self._endpoints: dict[str, Endpoint] = {}

    async def step(self, block_ms: int = 0) -> DispatchReport:
        """Take in new notifications, then deliver every pair due. What a dead dispatcher
        left unacknowledged in the inbox is looked for on the first step and then every
        `reclaim_idle_ms` / 2 (it can be taken over only once idle that long), and the Redis
        clock is read at most once a second: a step during a flood is a few round trips."""
        report = DispatchReport()
        reclaim_idle_ms = int(self.timeout_s * 1000) * 2
        now = time.monotonic()
        reclaim = now - self._reclaimed_at >= reclaim_idle_ms / 2000
        if reclaim:
            self._reclaimed_at = now
        entries = await self.store.read_inbox(
            self.consumer, 500, block_ms, reclaim_idle_ms=reclaim_idle_ms, reclaim=reclaim
        )
        if time.monotonic() - self._clock_read_at >= CLOCK_READ_S:
            self._clock_offset_ms = await self.store.now_ms() - time.time() * 1000
            self._clock_read_at = time.monotonic()
        report.taken_in = await self.store.intake(entries, self.now_ms() + self.linger_ms)
        await self.deliver_due(report)
        return report

    def now_ms(self) -> int:
        """Now on the Redis clock (as last read, moved on by this process's clock)."""
        return int(time.time() * 1000 + self._clock_offset_ms)

    async def deliver_due(self, report: DispatchReport) -> None:
        """Deliver to every (endpoint, player) pair due now (at most `concurrency * 4` per
        pass). The Redis work of the pass is batched: the pairs' states in one round trip,
        the new deliveries frozen in one, the outcomes recorded in one."""
        now = self.now_ms()
        lease_ms = int(self.timeout_s * 1000) + 5000  # past the attempt: a crash retries it
        pairs = await self.store.take(now, lease_ms, self.concurrency * 4)
        if not pairs:
            return
        presence_keys = [self.presence.key(player_id) for _, player_id in pairs]
        endpoints, states = await self.store.pair_states(
            pairs, MAX_PER_DELIVERY, presence_keys, now
        )
        self._endpoints = {e.id: e for e in endpoints}
        outcomes: list[PairOutcome] = []
        due: list[tuple[Endpoint, str, Delivery]] = []
        freezing: list[tuple[str, str, int, Delivery | None]] = []
        for (endpoint_id, player_id), (delivery, queued, present) in zip(
            pairs, states, strict=True
        ):
            endpoint = self._endpoints.get(endpoint_id)
            if endpoint is None:  # removed: its queue goes with it
                outcomes.append(PairOutcome(endpoint_id, player_id, now, drop=True))
            elif delivery is not None:
                due.append((endpoint, player_id, delivery))
            elif not queued:
                outcomes.append(PairOutcome(endpoint_id, player_id, now))
            else:
                fresh = self._collapse(endpoint_id, player_id, queued, present, report)
                freezing.append((endpoint_id, player_id, len(queued), fresh))
        for (endpoint_id, player_id, _, fresh), done in zip(
            freezing, await self.store.freeze_many(freezing), strict=True
        ):
            endpoint = self._endpoints[endpoint_id]
            if not done:  # frozen meanwhile (a replay): attempt that one
                in_flight = await self.store.in_flight(endpoint_id, player_id)
                if in_flight is not None:
                    due.append((endpoint, player_id, in_flight))
            elif fresh is None:  # nothing to send (all quiet)
                outcomes.append(PairOutcome(endpoint_id, player_id, now))
            else:
                due.append((endpoint, player_id, fresh))
        gate = asyncio.Semaphore(self.concurrency)

        async def one(endpoint: Endpoint, player_id: str, delivery: Delivery) -> PairOutcome:
            async with gate:
                return await self._attempt(endpoint, player_id, delivery, report)

        outcomes += await asyncio.gather(*(one(e, p, d) for e, p, d in due))
        await self.store.settle_pass(outcomes)

    def _collapse(
        self,
        endpoint_id: str,
        player_id: str,
        queued: list[bytes],
        present: bool,
        report: DispatchReport,
    ) -> Delivery | None:
        """The delivery the queued notifications collapse into (None: nothing to send)."""
        notifications = [decode_notification(data) for data in queued]
        if present:
            kept = [n for n in notifications if n.kind != "your_turn"]
            report.quiet += len(notifications) - len(kept)
            notifications = kept
        if not notifications:
            return None
        body = _encoder.encode(WebhookBody("notifications", player_id, notifications))
        return Delivery(delivery_id(endpoint_id, player_id, notifications), body, 0)

    async def _attempt(
        self, endpoint: Endpoint, player_id: str, delivery: Delivery, report: DispatchReport
    ) -> PairOutcome:
        """POST the delivery once; what to record: finished, retry later, or dead."""
        sent = headers(endpoint.secret, delivery.id, int(time.time()), delivery.body)
        try:
            status = await self.poster.post(endpoint.url, delivery.body, sent, self.timeout_s)
            error = f"HTTP {status}"
        except DeliveryFailed as exc:
            status, error = 0, str(exc)
        except Exception as exc:  # anything else the client raised: an attempt that failed
            status, error = 0, f"{type(exc).__name__}: {exc}"
        if 200 <= status < 300:
            report.delivered += 1
            report.notifications_delivered += delivery.body.count(b'"kind":')
            return PairOutcome(endpoint.id, player_id, self.now_ms() + self.linger_ms)
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
            report.dead += 1
            log.warning("webhook_dead_lettered", id=delivery.id, endpoint=endpoint.id, error=error)
            return PairOutcome(endpoint.id, player_id, now, dead=dead)
        delay_s = self.schedule_s[attempts - 1] * self.rng.uniform(0.8, 1.2)
        log.info("webhook_retry", id=delivery.id, attempts=attempts, error=error, delay_s=delay_s)
        return PairOutcome(endpoint.id, player_id, now + int(delay_s * 1000), attempts)
