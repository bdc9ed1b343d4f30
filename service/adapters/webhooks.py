"""Webhook endpoints and their deliveries on Redis, in one cluster slot (`{webhooks}`).

<prefix>{webhooks}:endpoints       hash: endpoint id -> Endpoint (JSON, with its secret)
<prefix>{webhooks}:inbox           stream: notifications to deliver {p: player, n: JSON}
<prefix>{webhooks}:queue:<e>:<p>   list: notifications waiting for endpoint e, player p
<prefix>{webhooks}:delivery:<e>:<p>  hash: the delivery in flight (id, body, attempts)
<prefix>{webhooks}:ready           sorted set: `<e>|<p>` by when to (re)try (ms, Redis clock)
<prefix>{webhooks}:dead            hash: delivery id -> DeadLetter (JSON)

The projector adds each notification to the inbox before its feed (a crash in between may
deliver one twice, with the same id; never zero times). The dispatcher's intake moves inbox
entries into the queues of the endpoints that want their kind (one script: moved and
acknowledged together, so exactly once). A delivery is frozen from a queue (the pending
notifications of one player collapse into it) with a stable id, and retried with that id and
body until delivered or dead-lettered. Taking a pair pushes its retry time past the attempt's
timeout first: a dispatcher killed mid-delivery leaves it to be taken again then.
"""

from __future__ import annotations

from typing import Any

import msgspec
from redis.asyncio import Redis

from contracts.webhooks import DeadLetter, Endpoint
from service.adapters.script_pipeline import Step, command_step, run_steps, script_step
from service.core.ports.webhooks import Delivery, PairOutcome

GROUP = "dispatch"

# Move inbox entries into the queues of the endpoints that want them, acknowledging each.
# KEYS: inbox, ready, endpoints; ARGV: queue key prefix, now ms, then entry id, player, kind,
# body per entry.
_INTAKE = """
local moved = 0
local stored = redis.call('HGETALL', KEYS[3])
local endpoints = {}  -- each endpoint's id and the kinds it wants (nil: every kind), decoded once
for e = 1, #stored, 2 do
    local kinds = cjson.decode(stored[e + 1])['kinds']
    local wants = nil
    if #kinds > 0 then
        wants = {}
        for _, kind in ipairs(kinds) do wants[kind] = true end
    end
    endpoints[#endpoints + 1] = {stored[e], wants}
end
for i = 3, #ARGV, 4 do
    if redis.call('XACK', KEYS[1], 'dispatch', ARGV[i]) == 1 then
        for _, endpoint in ipairs(endpoints) do
            local id, wants = endpoint[1], endpoint[2]
            if wants == nil or wants[ARGV[i + 2]] then
                redis.call('RPUSH', ARGV[1] .. id .. ':' .. ARGV[i + 1], ARGV[i + 3])
                redis.call('ZADD', KEYS[2], 'NX', ARGV[2], id .. '|' .. ARGV[i + 1])
                moved = moved + 1
            end
        end
        redis.call('XDEL', KEYS[1], ARGV[i])
    end
end
return moved
"""

# Take pairs due at ARGV[1], pushing each one's retry time to ARGV[2] (the attempt's lease).
# KEYS: ready; ARGV: now, lease until, limit.
_TAKE = """
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, ARGV[3])
for _, member in ipairs(due) do
    redis.call('ZADD', KEYS[1], ARGV[2], member)
end
return due
"""

# Freeze a delivery from a pair's queue: the first n queued notifications leave the queue
# and the delivery is stored, unless one is in flight already. KEYS: queue, delivery;
# ARGV: n, id, body ('' for nothing to send: the n are dropped), attempts.
_FREEZE = """
if redis.call('EXISTS', KEYS[2]) == 1 then return 0 end
redis.call('LTRIM', KEYS[1], ARGV[1], -1)
if ARGV[3] ~= '' then
    redis.call('HSET', KEYS[2], 'id', ARGV[2], 'body', ARGV[3], 'attempts', ARGV[4])
end
return 1
"""

# A delivery is over (delivered, or dead-lettered): forget it, and schedule the pair again
# now if more waits, else forget the pair. KEYS: delivery, queue, ready, dead;
# ARGV: member, now, dead letter id ('' for none), dead letter JSON.
_FINISH = """
redis.call('DEL', KEYS[1])
if ARGV[3] ~= '' then redis.call('HSET', KEYS[4], ARGV[3], ARGV[4]) end
if redis.call('LLEN', KEYS[2]) > 0 then
    redis.call('ZADD', KEYS[3], ARGV[2], ARGV[1])
else
    redis.call('ZREM', KEYS[3], ARGV[1])
end
return 1
"""

_endpoint_decoder = msgspec.json.Decoder(Endpoint)
_dead_decoder = msgspec.json.Decoder(DeadLetter)
_encoder = msgspec.json.Encoder()


class WebhookStore:
    """Endpoints, the delivery inbox and queues, and the dead letters."""

    def __init__(self, redis: Redis, prefix: str) -> None:
        self.redis = redis
        self.base = f"{prefix}{{webhooks}}:"
        self.endpoints_key = self.base + "endpoints"
        self.inbox = self.base + "inbox"
        self.ready = self.base + "ready"
        self.dead = self.base + "dead"
        self._intake = redis.register_script(_INTAKE)
        self._take = redis.register_script(_TAKE)
        self._freeze = redis.register_script(_FREEZE)
        self._finish = redis.register_script(_FINISH)

    def queue_key(self, endpoint_id: str, player_id: str) -> str:
        """The queue of one endpoint and player."""
        return f"{self.base}queue:{endpoint_id}:{player_id}"

    def delivery_key(self, endpoint_id: str, player_id: str) -> str:
        """The delivery in flight to one endpoint for one player."""
        return f"{self.base}delivery:{endpoint_id}:{player_id}"

    # Endpoints.
    async def add_endpoint(self, endpoint: Endpoint) -> None:
        """Register (or replace) an endpoint."""
        await self.redis.hset(self.endpoints_key, endpoint.id, _encoder.encode(endpoint))

    async def remove_endpoint(self, endpoint_id: str) -> bool:
        """Unregister an endpoint; whether it was registered."""
        return bool(await self.redis.hdel(self.endpoints_key, endpoint_id))

    async def endpoints(self) -> list[Endpoint]:
        """Every registered endpoint, by id."""
        stored: Any = await self.redis.hgetall(self.endpoints_key)
        return sorted((_endpoint_decoder.decode(v) for v in stored.values()), key=lambda e: e.id)

    async def endpoint(self, endpoint_id: str) -> Endpoint | None:
        """One endpoint, None if not registered."""
        stored: Any = await self.redis.hget(self.endpoints_key, endpoint_id)
        return None if stored is None else _endpoint_decoder.decode(stored)

    async def any_endpoint(self) -> bool:
        """Whether any endpoint is registered (else nothing need be queued for delivery)."""
        count: Any = await self.redis.hlen(self.endpoints_key)
        return int(count) > 0

    # The inbox.
    async def enqueue(self, player_id: str, notifications: list[tuple[str, bytes]]) -> None:
        """Queue (kind, JSON) notifications of a player for delivery."""
        await self.enqueue_many([(player_id, kind, body) for kind, body in notifications])

    async def enqueue_many(self, notifications: list[tuple[str, str, bytes]]) -> None:
        """Queue (player, kind, JSON) notifications for delivery, in one round trip."""
        if not notifications:
            return
        async with self.redis.pipeline(transaction=False) as pipe:
            for player_id, kind, body in notifications:
                pipe.xadd(self.inbox, {"p": player_id, "k": kind, "n": body})
            await pipe.execute()

    def queue_into(self, pipe: Any, notifications: list[tuple[str, str, bytes]]) -> int:
        """Queue (player, kind, JSON) notifications for delivery on `pipe` (a pipeline the
        caller executes); how many commands that queued."""
        for player_id, kind, body in notifications:
            pipe.xadd(self.inbox, {"p": player_id, "k": kind, "n": body})
        return len(notifications)

    async def ensure_group(self) -> None:
        """Create the dispatchers' consumer group on the inbox (once)."""
        try:
            await self.redis.xgroup_create(self.inbox, GROUP, id="0", mkstream=True)
        except Exception as exc:  # BUSYGROUP: it exists
            if "BUSYGROUP" not in str(exc):
                raise

    async def read_inbox(
        self, consumer: str, count: int, block_ms: int, reclaim_idle_ms: int, reclaim: bool = True
    ) -> list[tuple[str, str, str, bytes]]:
        """(entry id, player, kind, JSON) of inbox entries for this consumer: first (with
        `reclaim`) those a dead dispatcher left unacknowledged for `reclaim_idle_ms`, then
        new ones."""
        entries: list[Any] = []
        if reclaim:
            reclaimed: Any = await self.redis.xautoclaim(
                self.inbox, GROUP, consumer, reclaim_idle_ms, "0-0", count=count
            )
            entries = list(reclaimed[1])
        if not entries:
            read: Any = await self.redis.xreadgroup(
                GROUP, consumer, {self.inbox: ">"}, count=count, block=block_ms or None
            )
            entries = list(read[0][1]) if read else []
        found = []
        for entry_id, fields in entries:
            if not fields:
                continue
            found.append(
                (entry_id.decode(), fields[b"p"].decode(), fields[b"k"].decode(), fields[b"n"])
            )
        return found

    async def intake(self, entries: list[tuple[str, str, str, bytes]], now_ms: int) -> int:
        """Move inbox entries into their endpoints' queues; how many queue items were made."""
        if not entries:
            return 0
        args: list[Any] = [self.base + "queue:", now_ms]
        for entry in entries:
            args += list(entry)
        moved: Any = await self._intake(
            keys=[self.inbox, self.ready, self.endpoints_key], args=args
        )
        return int(moved)

    # Deliveries.
    async def take(self, now_ms: int, lease_ms: int, limit: int) -> list[tuple[str, str]]:
        """(endpoint, player) pairs due now, each leased until now + lease_ms."""
        members: Any = await self._take(keys=[self.ready], args=[now_ms, now_ms + lease_ms, limit])
        pairs = []
        for member in members:
            endpoint_id, _, player_id = member.decode().partition("|")
            pairs.append((endpoint_id, player_id))
        return pairs

    async def in_flight(self, endpoint_id: str, player_id: str) -> Delivery | None:
        """The pair's delivery in flight, if any."""
        stored: Any = await self.redis.hgetall(self.delivery_key(endpoint_id, player_id))
        if not stored:
            return None
        return Delivery(stored[b"id"].decode(), stored[b"body"], int(stored[b"attempts"]))

    async def pair_state(
        self, endpoint_id: str, player_id: str, limit: int, presence_key: str, now_ms: int
    ) -> tuple[Delivery | None, list[bytes], bool]:
        """In one round trip: the pair's delivery in flight, its first `limit` queued
        notifications, and whether the player has a live stream open (`presence_key`)."""
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.hgetall(self.delivery_key(endpoint_id, player_id))
            pipe.lrange(self.queue_key(endpoint_id, player_id), 0, limit - 1)
            pipe.zcount(presence_key, now_ms, "+inf")
            stored, queued, present = await pipe.execute()
        delivery = None
        if stored:
            delivery = Delivery(stored[b"id"].decode(), stored[b"body"], int(stored[b"attempts"]))
        return delivery, list(queued), int(present) > 0

    async def pair_states(
        self, pairs: list[tuple[str, str]], limit: int, presence_keys: list[str], now_ms: int
    ) -> tuple[list[Endpoint], list[tuple[Delivery | None, list[bytes], bool]]]:
        """In one round trip for a whole pass: the endpoints, and `pair_state` of each pair
        (`presence_keys[i]` is the presence key of the player of `pairs[i]`)."""
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.hgetall(self.endpoints_key)
            for (endpoint_id, player_id), presence_key in zip(pairs, presence_keys, strict=True):
                pipe.hgetall(self.delivery_key(endpoint_id, player_id))
                pipe.lrange(self.queue_key(endpoint_id, player_id), 0, limit - 1)
                pipe.zcount(presence_key, now_ms, "+inf")
            found = await pipe.execute()
        endpoints = [_endpoint_decoder.decode(v) for v in found[0].values()]
        states = []
        for i in range(1, len(found), 3):
            stored, queued, present = found[i : i + 3]
            delivery = None
            if stored:
                delivery = Delivery(
                    stored[b"id"].decode(), stored[b"body"], int(stored[b"attempts"])
                )
            states.append((delivery, list(queued), int(present) > 0))
        return endpoints, states

    async def freeze_many(self, frozen: list[tuple[str, str, int, Delivery | None]]) -> list[bool]:
        """`freeze` for several (endpoint, player, taken, delivery), in one round trip."""
        steps = [
            script_step(self._freeze, *self._freeze_call(endpoint_id, player_id, taken, delivery))
            for endpoint_id, player_id, taken, delivery in frozen
        ]
        return [bool(d) for d in await run_steps(self.redis, steps)]

    async def settle_pass(self, outcomes: list[PairOutcome]) -> None:
        """Record the outcomes of a pass's pairs in one round trip (in order)."""
        steps: list[Step] = []
        for outcome in outcomes:
            e, p = outcome.endpoint_id, outcome.player_id
            if outcome.drop:
                steps.append(command_step("DEL", self.queue_key(e, p), self.delivery_key(e, p)))
            if outcome.retry_attempts:
                steps.append(
                    command_step(
                        "HSET", self.delivery_key(e, p), "attempts", outcome.retry_attempts
                    )
                )
                steps.append(command_step("ZADD", self.ready, outcome.at_ms, f"{e}|{p}"))
                continue
            dead = outcome.dead
            steps.append(
                script_step(
                    self._finish,
                    [self.delivery_key(e, p), self.queue_key(e, p), self.ready, self.dead],
                    [
                        f"{e}|{p}",
                        outcome.at_ms,
                        "" if dead is None else dead.id,
                        b"" if dead is None else _encoder.encode(dead),
                    ],
                )
            )
        await run_steps(self.redis, steps)

    async def queued(self, endpoint_id: str, player_id: str, limit: int) -> list[bytes]:
        """The first `limit` notifications queued for the pair."""
        found: Any = await self.redis.lrange(self.queue_key(endpoint_id, player_id), 0, limit - 1)
        return list(found)

    async def freeze(
        self, endpoint_id: str, player_id: str, taken: int, delivery: Delivery | None
    ) -> bool:
        """Take `taken` queued notifications off the pair's queue into `delivery` (None: they
        are dropped, nothing to send); False if a delivery was in flight already."""
        keys, args = self._freeze_call(endpoint_id, player_id, taken, delivery)
        done: Any = await self._freeze(keys=keys, args=args)
        return bool(done)

    def _freeze_call(
        self, endpoint_id: str, player_id: str, taken: int, delivery: Delivery | None
    ) -> tuple[list[str], list[Any]]:
        """The freeze script's keys and arguments for one pair."""
        keys = [self.queue_key(endpoint_id, player_id), self.delivery_key(endpoint_id, player_id)]
        if delivery is None:
            return keys, [taken, "", b"", 0]
        return keys, [taken, delivery.id, delivery.body, delivery.attempts]

    async def retry_at(self, endpoint_id: str, player_id: str, attempts: int, at_ms: int) -> None:
        """Record a failed attempt and when to try again."""
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.hset(self.delivery_key(endpoint_id, player_id), "attempts", attempts)
            pipe.zadd(self.ready, {f"{endpoint_id}|{player_id}": at_ms})
            await pipe.execute()

    async def finish(
        self, endpoint_id: str, player_id: str, now_ms: int, dead: DeadLetter | None = None
    ) -> None:
        """The pair's delivery is over: delivered, or (with `dead`) dead-lettered."""
        await self._finish(
            keys=[
                self.delivery_key(endpoint_id, player_id),
                self.queue_key(endpoint_id, player_id),
                self.ready,
                self.dead,
            ],
            args=[
                f"{endpoint_id}|{player_id}",
                now_ms,
                "" if dead is None else dead.id,
                b"" if dead is None else _encoder.encode(dead),
            ],
        )

    # Dead letters.
    async def dead_letters(self) -> list[DeadLetter]:
        """Every dead-lettered delivery, oldest first."""
        stored: Any = await self.redis.hgetall(self.dead)
        return sorted((_dead_decoder.decode(v) for v in stored.values()), key=lambda d: d.at_ms)

    async def replay(self, dead_id: str, now_ms: int) -> bool:
        """Queue a dead letter's delivery again, as it was (same id and body), unless its
        pair has a delivery in flight; whether it did."""
        stored: Any = await self.redis.hget(self.dead, dead_id)
        if stored is None:
            return False
        dead = _dead_decoder.decode(stored)
        key = self.delivery_key(dead.endpoint_id, dead.player_id)
        if not await self.redis.hsetnx(key, "id", dead.id):
            return False
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.hset(key, mapping={"body": dead.body.encode(), "attempts": 0})
            pipe.zadd(self.ready, {f"{dead.endpoint_id}|{dead.player_id}": now_ms})
            pipe.hdel(self.dead, dead_id)
            await pipe.execute()
        return True

    async def now_ms(self) -> int:
        """The Redis clock, in ms."""
        seconds, micros = await self.redis.time()
        return int(seconds) * 1000 + int(micros) // 1000

    async def backlog(self) -> dict[str, int]:
        """How much waits: inbox entries, pairs scheduled, dead letters."""
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.xlen(self.inbox)
            pipe.zcard(self.ready)
            pipe.hlen(self.dead)
            inbox, ready, dead = await pipe.execute()
        return {"inbox": int(inbox), "ready": int(ready), "dead": int(dead)}
