"""Skald on a Redis Cluster against one Redis, in the same run: commands per second through
the facade and an in-process drain runner, and what WAIT for a replica costs per command.

    .venv/bin/python -m tests.bench.bench_cluster [--games 32] [--commands 40]

Both sides run on servers of this run's own on loopback, configured alike (AOF fsynced every
second): one redis-server, and a cluster of 3 masters and 3 replicas
(tests/cluster/local_cluster.py). `games` race games each get `commands` moves, submitted
interleaved, then drained by one runner in rounds, as a worker does under load:
- `cluster_per_s` / `single_per_s`: decided commands per second (submit + drain);
  `cluster_vs_single` their ratio (target: at least 0.75);
- `single_replicated_per_s`: one redis-server with one replica (the cluster's durability);
  `cluster_vs_single_replicated` the cluster against it;
- `cluster_masters_per_s`: the cluster's 3 masters without replicas; `cluster_masters_vs_single`
  what is left of the gap without the replicas' processes on the same cores;
- `submit_us_cluster`, `submit_us_cluster_wait`: one submission on the cluster without and
  with `SKALD_WAIT_REPLICAS=1`; `wait_cost_us` the difference;
- `single_concurrent_per_s`, `cluster_concurrent_per_s`: `submitters` tasks (16) submitting at
  once while the runner drains, as a service is loaded; `cluster_vs_single_concurrent` their
  ratio.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import shutil
import subprocess
import tempfile
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec
import redis as sync_redis
import structlog
from redis.asyncio import Redis

from service import bootstrap
from service.adapters.embedded_redis import free_port
from service.adapters.notifications import Publisher
from service.adapters.redis_clients import event_redis
from service.adapters.store.side import Lobby, Views
from service.core.pipeline.drain import Drainer
from service.core.pipeline.runner import DrainRunner
from service.core.pipeline.session import SessionCache
from service.shared.settings import Settings
from tests.cluster.local_cluster import LocalCluster
from tests.fakes.race import RaceConfig, register_race
from tests.fakes.scheduler import RecordingScheduler


class Harness:
    """A facade and an in-process drain runner on `redis`, under a fresh prefix."""

    def __init__(self, redis: Redis, url: str, cluster: bool, wait_replicas: int) -> None:
        prefix = f"bench-cluster-{uuid.uuid4().hex[:8]}:"
        self.settings = Settings(
            redis_url=url,
            redis_cluster=cluster,
            key_prefix=prefix,
            rate_per_seat=0,
            runner_idle_s=0.0,
            wait_replicas=wait_replicas,
        )
        self.scheduler = RecordingScheduler()
        self.skald = bootstrap.skald(self.settings, redis, self.scheduler)
        store = self.skald.store
        drainer = Drainer(
            store,
            Views(redis, prefix, store.scripts),
            Lobby(redis, prefix),
            Publisher(redis, prefix),
            SessionCache(1024),
            64,
            10_000,
        )
        self.runner = DrainRunner.configured(self.settings, store, drainer, self.scheduler)

    async def throughput(self, games: int, commands: int) -> float:
        """Decided commands per second over `games` games of `commands` moves each."""
        config = msgspec.to_builtins(RaceConfig(players=2, target=10**9))
        created = [
            (await self.skald.commands.create_game("race", config)).game_id for _ in range(games)
        ]
        first = {
            game_id: (await self.skald.reads.turn(game_id, None)).to_act[0] for game_id in created
        }
        started = time.perf_counter()
        for n in range(commands):
            for game_id in created:
                seat = first[game_id] if n % 2 == 0 else 1 - first[game_id]
                await self.skald.commands.submit(
                    game_id, seat, f"c{n}", {"type": "Move", "steps": 1}, "r"
                )
        await self.scheduler.run_all(self.runner)
        elapsed = time.perf_counter() - started
        for game_id in created:
            outcome = await self.skald.commands.outcome(game_id, f"c{commands - 1}")
            assert outcome.status == "applied", outcome
        return games * commands / elapsed

    async def throughput_concurrent(self, games: int, commands: int, submitters: int) -> float:
        """Decided commands per second with `submitters` tasks submitting at once (each its
        share of the games, one command at a time per game) while the runner drains, as a
        service is loaded."""
        config = msgspec.to_builtins(RaceConfig(players=2, target=10**9))
        created = [
            (await self.skald.commands.create_game("race", config)).game_id for _ in range(games)
        ]
        first = {
            game_id: (await self.skald.reads.turn(game_id, None)).to_act[0] for game_id in created
        }
        submitting = True

        async def submitter(mine: list[str]) -> None:
            for n in range(commands):
                for game_id in mine:
                    seat = first[game_id] if n % 2 == 0 else 1 - first[game_id]
                    await self.skald.commands.submit(
                        game_id, seat, f"c{n}", {"type": "Move", "steps": 1}, "r"
                    )

        async def drain() -> None:
            while submitting or self.scheduler.scheduled:
                await self.scheduler.run_all(self.runner)
                await asyncio.sleep(0.001)

        started = time.perf_counter()
        draining = asyncio.create_task(drain())
        await asyncio.gather(*(submitter(created[k::submitters]) for k in range(submitters)))
        submitting = False
        await draining
        elapsed = time.perf_counter() - started
        for game_id in created:
            outcome = await self.skald.commands.outcome(game_id, f"c{commands - 1}")
            assert outcome.status == "applied", outcome
        return games * commands / elapsed

    async def submit_us(self, commands: int) -> float:
        """Microseconds per submission (one game, nothing drained)."""
        config = msgspec.to_builtins(RaceConfig(players=2, target=10**9))
        game_id = (await self.skald.commands.create_game("race", config)).game_id
        seat = (await self.skald.reads.turn(game_id, None)).to_act[0]
        started = time.perf_counter()
        for n in range(commands):
            await self.skald.commands.submit(
                game_id, seat, f"s{n}", {"type": "Move", "steps": 1}, "r"
            )
        return (time.perf_counter() - started) / commands * 1e6


class SingleRedis:
    """A redis-server of this run's own, configured as the cluster's nodes are; a replica of
    the server on port `replica_of` when given (returns once it is in sync)."""

    def __init__(self, root: Path, replica_of: int | None = None) -> None:
        self.port = free_port()
        root.mkdir(parents=True, exist_ok=True)
        replication = [] if replica_of is None else ["--replicaof", "127.0.0.1", str(replica_of)]
        self.process = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1",
             "--appendonly", "yes", "--appendfsync", "everysec", "--save", "",
             "--dir", str(root), *replication],
            stdout=subprocess.DEVNULL,
        )  # fmt: skip
        for _ in range(200):
            try:
                info = sync_redis.Redis(port=self.port).info("replication")
                if replica_of is None or info.get("master_link_status") == "up":
                    break
            except sync_redis.exceptions.ConnectionError:
                pass
            time.sleep(0.05)
        self.url = f"redis://127.0.0.1:{self.port}/0"

    def stop(self) -> None:
        self.process.kill()
        self.process.wait()


async def cluster_figures(
    games: int = 32,
    commands: int = 40,
    replica_sides: bool = True,
    submitters: int = 16,
    rounds: int = 3,
) -> dict[str, float]:
    """The cluster against one Redis (see the module's doc); `replica_sides` adds one Redis
    with a replica and the cluster's masters without replicas."""
    if shutil.which("redis-server") is None or shutil.which("redis-cli") is None:
        return {}
    register_race()
    root = Path(tempfile.mkdtemp(prefix="skald-bench-cluster-"))
    stops: list[Callable[[], None]] = []
    figures: dict[str, float] = {}
    sides: dict[str, tuple[Redis, str, bool]] = {}
    try:
        single = SingleRedis(root / "single")
        stops.append(single.stop)
        cluster = LocalCluster(root / "cluster").start()
        stops.append(cluster.stop)
        sides["single"] = (Redis.from_url(single.url), single.url, False)
        sides["cluster"] = (event_redis(cluster.url, cluster=True), cluster.url, True)
        if replica_sides:
            replicated = SingleRedis(root / "replicated")
            stops.append(replicated.stop)
            replica = SingleRedis(root / "replica", replica_of=replicated.port)
            stops.append(replica.stop)
            masters = LocalCluster(root / "masters").start(nodes=3, replicas=0)
            stops.append(masters.stop)
            sides["single_replicated"] = (Redis.from_url(replicated.url), replicated.url, False)
            sides["cluster_masters"] = (event_redis(masters.url, cluster=True), masters.url, True)
        # Alternate the sides, `rounds` times each, and keep each side's best: the machine is
        # shared.
        best: dict[str, float] = {}
        for _ in range(rounds):
            for side, (client, url, on_cluster) in sides.items():
                per_s = await Harness(client, url, on_cluster, 0).throughput(games, commands)
                best[side] = max(best.get(side, 0.0), per_s)
        # Many submitters at once, the runner draining meanwhile: one Redis and the cluster.
        for _ in range(rounds):
            for side in ("single", "cluster"):
                client, url, on_cluster = sides[side]
                harness = Harness(client, url, on_cluster, 0)
                per_s = await harness.throughput_concurrent(games, commands, submitters)
                key = f"{side}_concurrent"
                best[key] = max(best.get(key, 0.0), per_s)
        for side, per_s in best.items():
            figures[f"{side}_per_s"] = per_s
        figures["cluster_vs_single"] = figures["cluster_per_s"] / figures["single_per_s"]
        figures["cluster_vs_single_concurrent"] = (
            figures["cluster_concurrent_per_s"] / figures["single_concurrent_per_s"]
        )
        if replica_sides:
            # The same durability on both sides: one Redis with a replica, as each master has.
            figures["cluster_vs_single_replicated"] = (
                figures["cluster_per_s"] / figures["single_replicated_per_s"]
            )
            # What the replicas' processes cost on this machine's cores.
            figures["cluster_masters_vs_single"] = (
                figures["cluster_masters_per_s"] / figures["single_per_s"]
            )
        single_client, cluster_client = sides["single"][0], sides["cluster"][0]
        submits = games * commands // 2
        no_wait = Harness(cluster_client, cluster.url, True, 0)
        with_wait = Harness(cluster_client, cluster.url, True, 1)
        figures["submit_us_single"] = await Harness(single_client, single.url, False, 0).submit_us(
            submits
        )
        figures["submit_us_cluster"] = await no_wait.submit_us(submits)
        figures["submit_us_cluster_wait"] = await with_wait.submit_us(submits)
        figures["wait_cost_us"] = figures["submit_us_cluster_wait"] - figures["submit_us_cluster"]
    finally:
        for client, _, _ in sides.values():
            await client.aclose()
        for stop in reversed(stops):
            stop()
        shutil.rmtree(root, ignore_errors=True)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--games", type=int, default=32)
    parser.add_argument("--commands", type=int, default=40)
    parser.add_argument("--submitters", type=int, default=16)
    parser.add_argument("--no-replica-sides", action="store_true")
    parser.add_argument("--rounds", type=int, default=3, help="alternations; each side's best")
    args = parser.parse_args()
    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.WARNING))
    figures: dict[str, Any] = asyncio.run(
        cluster_figures(
            args.games, args.commands, not args.no_replica_sides, args.submitters, args.rounds
        )
    )
    print(json.dumps({k: round(v, 3) for k, v in figures.items()}, indent=2))


if __name__ == "__main__":
    main()
