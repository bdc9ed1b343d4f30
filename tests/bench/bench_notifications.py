"""Notification and webhook figures, over real HTTP against `skald serve` on the real Redis.

    .venv/bin/python -m tests.bench.bench_notifications [--quick] [--own-redis]

Players' race games (two players each, whose tokens open their seats) are flooded with the
same seeded commands twice, each time on a fresh `skald serve` (API, workers with their
notification projector, the webhook dispatcher):
- `e2e_players_per_s`: no webhook endpoint registered;
- `e2e_webhooks_per_s`: one endpoint that receives every player's notifications (as one
  endpoint per player would, all together), a loopback receiver in a process of its own
  (standing for a remote push gateway: it does not verify signatures here, the tests do);
- `webhooks_vs_none`: their ratio (target: at least 0.9);
- `notifications_delivered_per_s`: distinct notifications the receiver accepted after the
  flood started, over the time from its start until the last one arrived (every notification
  in the players' feeds must arrive: `notifications_lost` counts those that did not);
- `notifications_per_delivery`: how many a delivery carried (a player's pending ones collapse);
- `skald_cpu_ms_per_command_*`, `redis_cpu_ms_per_command_*`, `cpu_none_vs_hooks`: the CPU
  each command cost without and with the endpoint, from the flood's start until its work was
  done (less what an idle Skald uses that long), in Skald's processes and in Redis (Redis's
  is Skald's own only with `--own-redis`, a redis-server of the run's own). CPU time barely
  depends on how busy a shared machine is, so `cpu_none_vs_hooks` is the steadier figure:
  what `webhooks_vs_none` tends to when Skald and its Redis alone saturate the cores;
- `cpu_ms_per_command_by_process_{none,hooks}`: the same by process: `api` (the `skald
  serve` process), `workers`, `dispatcher`, `redis`, and with webhooks the `receiver` (not
  Skald's: it stands for the push gateway). An idle Skald's CPU is measured after the same
  wait in both runs, as the least of a few short windows, so that the processes' start-up
  is not deducted from the flood.

The two kinds of run alternate (without, with, with, without) and the figures are means, so
the drift of a shared machine weighs on both alike.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import aiohttp
import httpx
from redis import Redis as SyncRedis
from redis.asyncio import Redis

from contracts.webhooks import Endpoint
from service.adapters.webhooks import WebhookStore
from service.core.notifying.signing import new_secret
from tests.bench.bench_peer import own_redis
from tests.bench.cpu import TICKS_PER_S, all_times, children_of, process_seconds, tree_seconds
from tests.bench.live import live_skald
from tests.bench.load import RACE_CONFIG, Table, flood, new_client, recorded_commands

REDIS_URL_DEFAULT = "redis://127.0.0.1:6379/0"
WARMUP = 2
RECEIVER = (sys.executable, "-m", "tests.fakes.webhook_receiver")


@dataclass(frozen=True)
class NotifyLoad:
    games: int
    commands_per_game: int
    workers: int = 2


QUICK_NOTIFY = NotifyLoad(60, 12)
FULL_NOTIFY = NotifyLoad(200, 25)


async def _json(http: aiohttp.ClientSession, method: str, path: str, **options: Any) -> Any:
    async with http.request(method, path, **options) as reply:
        content = await reply.read()
        if reply.status >= 300:
            raise RuntimeError(f"{method} {path}: {reply.status} {content[:300]!r}")
        return json.loads(content) if content else None


async def player_tables(http: aiohttp.ClientSession, count: int) -> list[Table]:
    """`count` race games created and joined by two players each, started."""
    gate = asyncio.Semaphore(16)

    async def one(n: int) -> Table:
        async with gate:
            tokens = [
                (await _json(http, "POST", "/players", json={"name": f"p{n}-{s}"}))["token"]
                for s in range(2)
            ]
            auth = [{"authorization": f"Bearer {t}"} for t in tokens]
            body = {"game": "race", "config": RACE_CONFIG}
            game_id = (await _json(http, "POST", "/games", json=body, headers=auth[0]))["game_id"]
            for seat in range(2):
                path = f"/games/{game_id}/seats"
                await _json(http, "POST", path, json={"seat": seat}, headers=auth[seat])
            while True:  # the start is queued when the last seat is taken
                turn = await _json(http, "GET", f"/games/{game_id}/turn")
                if turn["phase"] == "started" and turn["to_act"]:
                    return Table(game_id, tokens, turn["to_act"][0])
                await asyncio.sleep(0.05)

    return list(await asyncio.gather(*(one(n) for n in range(count))))


async def flood_players(
    url: str,
    load: NotifyLoad,
    seed: int,
    on_start: Callable[[], None] = lambda: None,
    on_stop: Callable[[], None] = lambda: None,
) -> tuple[float, float]:
    """(commands per second, when the timed flood started) over players' games; `on_start`
    is called as the timed flood starts, `on_stop` as it ends."""
    async with new_client(url, load.games) as http:
        tables = await player_tables(http, load.games)
        count = WARMUP + load.commands_per_game
        sequences = [recorded_commands(seed + n, count) for n in range(load.games)]
        await flood(http, tables, [s[:WARMUP] for s in sequences], echo=False)
        on_start()
        started = time.monotonic()
        seconds = await flood(http, tables, [s[WARMUP:] for s in sequences], echo=False)
        on_stop()
    return load.games * load.commands_per_game / seconds, started


def cpu_s(pid: int) -> float:
    """CPU seconds process `pid` used so far (user + system)."""
    return process_seconds(pid)


def tree_cpu_s(root: int) -> float:
    """CPU seconds used so far by process `root` and every live descendant of it."""
    return tree_seconds(root)


def process_cpu_s(root: int) -> dict[str, float]:
    """CPU seconds used so far by `skald serve` (`root`), by process: `api` (the serve
    process itself, which runs the HTTP API), `dispatcher`, and `workers` (every other child,
    each with its live descendants)."""
    table = all_times()
    used = {"api": 0.0, "workers": 0.0, "dispatcher": 0.0}
    if root not in table:
        return used
    used["api"] = table[root].own / TICKS_PER_S
    for child in children_of(root, table):
        used["dispatcher" if is_dispatcher(child) else "workers"] += tree_seconds(child, table)
    return used


def redis_cpu_s(redis_url: str) -> float:
    """CPU seconds the Redis server used so far (its own, user + system): Skald's alone only
    on a Redis of the run's own (`--own-redis`)."""
    client = SyncRedis.from_url(redis_url)
    try:
        info: dict[str, Any] = client.info("cpu")
    finally:
        client.close()
    return float(info["used_cpu_user"]) + float(info["used_cpu_sys"])


@dataclass
class FloodCpu:
    """CPU seconds used by one timed flood's work: Skald's processes (the API, the workers
    and the dispatcher), and the Redis server."""

    commands: int = 0
    skald_s: float = 0.0
    redis_s: float = 0.0
    # By process (api, workers, dispatcher, redis; with webhooks, the receiver): CPU seconds,
    # idle CPU deducted likewise.
    by_process: dict[str, float] = field(default_factory=dict)
    receiver_pid: int = 0  # the loopback receiver's, when there is one (not Skald's)
    _start: tuple[float, float, float] = (0.0, 0.0, 0.0)
    _idle: tuple[float, float] = (0.0, 0.0)  # CPU s per s of an idle Skald, of its Redis
    _idle_by: dict[str, float] = field(default_factory=dict)
    _start_by: dict[str, float] = field(default_factory=dict)

    def _by_process(self, serve_pid: int, redis_url: str) -> dict[str, float]:
        used = process_cpu_s(serve_pid)
        used["redis"] = redis_cpu_s(redis_url)
        if self.receiver_pid:
            used["receiver"] = cpu_s(self.receiver_pid)
        return used

    async def idle(
        self, serve_pid: int, redis_url: str, seconds: float = 0.5, windows: int = 4
    ) -> None:
        """Measure the CPU an idle Skald and Redis use (polling, timers), to deduct it: the
        least of `windows` windows of `seconds`, per process, since right after `skald serve`
        is up its processes may still be starting (importing, connecting), and a window
        holding that would deduct start-up CPU from every second of the flood."""
        rates: list[dict[str, float]] = []
        for _ in range(windows):
            began = time.monotonic()
            before = self._by_process(serve_pid, redis_url)
            await asyncio.sleep(seconds)
            after = self._by_process(serve_pid, redis_url)
            elapsed = time.monotonic() - began
            rates.append({k: (after[k] - before[k]) / elapsed for k in before})
        self._idle_by = {k: min(rate[k] for rate in rates) for k in rates[0]}
        skald = sum(v for k, v in self._idle_by.items() if k not in ("redis", "receiver"))
        self._idle = (skald, self._idle_by["redis"])

    def start(self, serve_pid: int, redis_url: str) -> None:
        self._start = (tree_cpu_s(serve_pid), redis_cpu_s(redis_url), time.monotonic())
        self._start_by = self._by_process(serve_pid, redis_url)

    def stop(self, serve_pid: int, redis_url: str, commands: int) -> None:
        """The CPU used since `start`, less what idling that long uses."""
        elapsed = time.monotonic() - self._start[2]
        self.skald_s = tree_cpu_s(serve_pid) - self._start[0] - self._idle[0] * elapsed
        self.redis_s = redis_cpu_s(redis_url) - self._start[1] - self._idle[1] * elapsed
        ended = self._by_process(serve_pid, redis_url)
        self.by_process = {
            k: ended[k] - self._start_by[k] - self._idle_by.get(k, 0.0) * elapsed for k in ended
        }
        self.commands = commands


async def projected(redis_url: str, prefix: str, limit_s: float = 60) -> None:
    """Wait until the projector has turned every game marked into notifications."""
    redis = Redis.from_url(redis_url)
    try:
        deadline = time.monotonic() + limit_s
        while await redis.zcard(f"{prefix}notify:marked") and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
    finally:
        await redis.aclose()


def per_command_ms(runs: list[FloodCpu], attribute: str) -> float:
    """Mean CPU ms per command over the runs."""
    return 1000 * sum(getattr(r, attribute) for r in runs) / max(1, sum(r.commands for r in runs))


def by_process_ms(runs: list[FloodCpu]) -> dict[str, float]:
    """Mean CPU ms per command over the runs, by process."""
    commands = max(1, sum(r.commands for r in runs))
    names = sorted({name for r in runs for name in r.by_process})
    return {n: 1000 * sum(r.by_process.get(n, 0.0) for r in runs) / commands for n in names}


def dispatcher_pid(serve_pid: int) -> int:
    """The webhook dispatcher process `skald serve` (`serve_pid`) started."""
    for child in children_of(serve_pid, all_times()):
        if is_dispatcher(child):
            return child
    raise RuntimeError("skald serve started no webhook dispatcher")


def is_dispatcher(pid: int) -> bool:
    """Whether process `pid` runs the webhook dispatcher (False once it is gone)."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
            return b"workers.dispatcher" in cmdline.read().split(b"\0")
    except OSError:
        return False


class ReceiverProcess:
    """The loopback webhook receiver in a process of its own."""

    def __init__(self, secret: str) -> None:
        self.process = subprocess.Popen(
            [*RECEIVER, "--secret", secret, "--no-verify"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
        )
        assert self.process.stdout is not None
        self.url, self.count_url = self.process.stdout.readline().decode().split()

    def cpu_s(self) -> float:
        """CPU seconds the receiver process used so far (user + system)."""
        return cpu_s(self.process.pid)

    def counts(self) -> dict[str, int]:
        counted: dict[str, int] = httpx.get(self.count_url, timeout=10).json()
        return counted

    def stop(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait(timeout=10)


async def feed_total(redis: Redis, prefix: str) -> int:
    """How many notifications the players' feeds hold under `prefix`."""
    total = 0
    async for key in redis.scan_iter(match=f"{prefix}notify:{{*}}:ids", count=1000):
        total += int(await redis.zcard(key))
    return total


async def notification_figures(redis_url: str, load: NotifyLoad) -> dict[str, Any]:
    """The e2e throughput over players' games without and with webhooks (interleaved:
    without, with, with, without, so the machine's drift weighs on both alike), and the
    notifications delivered."""
    without: list[float] = []
    with_hooks: list[float] = []
    delivered: list[tuple[int, int, float]] = []  # (made, delivered in the flood, seconds)
    cpu: dict[str, list[FloodCpu]] = {"none": [], "hooks": []}
    commands = load.games * load.commands_per_game
    for round_ in ("none", "hooks", "hooks", "none"):
        used = FloodCpu()
        cpu[round_].append(used)
        if round_ == "none":
            with live_skald(redis_url, load.workers, 64) as skald:
                pid = skald.pid
                await asyncio.sleep(1.5)  # as long as the run with webhooks waits (below)
                await used.idle(pid, redis_url)
                rate = (
                    await flood_players(
                        skald.url,
                        load,
                        seed=5,
                        on_start=partial(used.start, pid, redis_url),
                    )
                )[0]
                without.append(rate)
                await projected(redis_url, skald.settings.key_prefix)
                used.stop(pid, redis_url, commands)
        else:
            rate, made = await _with_webhooks(redis_url, load, used)
            with_hooks.append(rate)
            delivered.append(made)
    none_ms = per_command_ms(cpu["none"], "skald_s") + per_command_ms(cpu["none"], "redis_s")
    hooks_ms = per_command_ms(cpu["hooks"], "skald_s") + per_command_ms(cpu["hooks"], "redis_s")
    made = sum(d[0] for d in delivered)
    arrived = sum(d[1] for d in delivered)
    seconds = sum(d[2] for d in delivered)
    return {
        "e2e_players_per_s": sum(without) / len(without),
        "e2e_webhooks_per_s": sum(with_hooks) / len(with_hooks),
        "webhooks_vs_none": sum(with_hooks) / sum(without),
        "notifications_made": float(made),
        "notifications_lost": float(made - sum(d[3] for d in delivered)),
        "notifications_delivered_per_s": arrived / seconds,
        # Cores the loopback receiver (a remote gateway's stand-in) took during the floods.
        "receiver_cores": sum(d[4] for d in delivered) / len(delivered),
        # The dispatcher's CPU per notification delivered (flood start to the last arrival).
        "dispatcher_cpu_ms_per_notification": 1000
        * sum(d[5] for d in delivered)
        / max(1, sum(d[1] for d in delivered)),
        # How many notifications one delivery carried (a player's pending ones collapse).
        "notifications_per_delivery": sum(d[3] for d in delivered)
        / max(1, sum(d[6] for d in delivered)),
        # CPU per command from the timed flood's start until its work was done (every game
        # projected; with webhooks, every notification delivered), less what an idle Skald
        # uses that long: Skald's processes, and the Redis server (Skald's own only with
        # --own-redis). Their ratio is what the throughput ratio tends to when Skald and its
        # Redis alone saturate the machine.
        "skald_cpu_ms_per_command_none": per_command_ms(cpu["none"], "skald_s"),
        "skald_cpu_ms_per_command_hooks": per_command_ms(cpu["hooks"], "skald_s"),
        "redis_cpu_ms_per_command_none": per_command_ms(cpu["none"], "redis_s"),
        "redis_cpu_ms_per_command_hooks": per_command_ms(cpu["hooks"], "redis_s"),
        "cpu_none_vs_hooks": none_ms / hooks_ms if hooks_ms else 0.0,
        # The same CPU per command by process (the receiver, a remote gateway's stand-in, is
        # not Skald's and not in the figures above).
        "cpu_ms_per_command_by_process_none": by_process_ms(cpu["none"]),
        "cpu_ms_per_command_by_process_hooks": by_process_ms(cpu["hooks"]),
    }


async def _with_webhooks(
    redis_url: str, load: NotifyLoad, used: FloodCpu
) -> tuple[float, tuple[Any, ...]]:
    """One flood with an endpoint registered: its rate, and (notifications made, delivered
    after the flood started, seconds until the last arrived, delivered in all, the receiver's
    share of a core during the flood, the dispatcher's CPU seconds until the last arrived)."""
    secret = new_secret()
    receiver = ReceiverProcess(secret)
    try:
        # The receiver listens on the loopback: private addresses allowed for this run.
        with live_skald(redis_url, load.workers, 64, webhook_allow_private=True) as skald:
            redis = Redis.from_url(redis_url)
            store = WebhookStore(redis, skald.settings.key_prefix)
            endpoint = Endpoint("ep_bench", receiver.url, [], secret, int(time.time() * 1000))
            await store.add_endpoint(endpoint)
            await asyncio.sleep(1.5)  # kept from when the projector looked once a second
            used.receiver_pid = receiver.process.pid
            await used.idle(skald.pid, redis_url)
            at_start: list[int] = []

            dispatcher = dispatcher_pid(skald.pid)

            def count_at_start() -> None:
                at_start.append(receiver.counts()["notifications"])
                cpu_at_start.append(receiver.cpu_s())
                cpu_at_start.append(cpu_s(dispatcher))

            cpu_at_start: list[float] = []

            pid, commands = skald.pid, load.games * load.commands_per_game

            def begin() -> None:
                count_at_start()
                used.start(pid, redis_url)

            rate, started = await flood_players(skald.url, load, 5, begin)
            flood_s = time.monotonic() - started
            receiver_share = (receiver.cpu_s() - cpu_at_start[0]) / flood_s
            # Every notification in the players' feeds must reach the receiver.
            made = await feed_total(redis, skald.settings.key_prefix)
            deadline = time.monotonic() + 120
            arrived = receiver.counts()["notifications"]
            while arrived < made and time.monotonic() < deadline:
                await asyncio.sleep(0.05)
                arrived = receiver.counts()["notifications"]
                if arrived >= made:  # the last ones may still have been projected: recount
                    made = await feed_total(redis, skald.settings.key_prefix)
            seconds = time.monotonic() - started
            dispatcher_s = cpu_s(dispatcher) - cpu_at_start[1]
            used.stop(pid, redis_url, commands)
            deliveries = receiver.counts()["deliveries"]
            await redis.aclose()
    finally:
        receiver.stop()
    figures = (made, arrived - at_start[0], seconds, arrived, receiver_share, dispatcher_s)
    return rate, (*figures, deliveries)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--redis-url", default=REDIS_URL_DEFAULT)
    parser.add_argument(
        "--own-redis",
        action="store_true",
        help="run on a redis-server of this run's own (so that its CPU is Skald's alone)",
    )
    args = parser.parse_args()
    load = QUICK_NOTIFY if args.quick else FULL_NOTIFY
    if args.own_redis:
        with own_redis(persistent=False) as (url, _):
            figures = asyncio.run(notification_figures(url, load))
    else:
        figures = asyncio.run(notification_figures(args.redis_url, load))
    print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
