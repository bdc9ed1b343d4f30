"""Many idle server-sent streams on one API process: its memory per stream, and how fast it
still answers `GET /turn` while holding them.

    .venv/bin/python -m tests.bench.bench_connections [--streams 10000] [--games 200]

One `skald serve --workers 0` process (the API alone) on the real Redis, under a prefix of its
own. `games` race games are created; then `streams` public streams are opened over raw
loopback sockets (`GET /v1/games/{id}/stream`, spread over the games), each read up to its
first message, and left open and idle. Figures:
- `bytes_per_idle_stream`: the API process's resident memory (VmRSS) with the streams open,
  less before, per stream;
- `turn_p99_ms_idle` and `turn_p99_ms_streams`: the p99 of `GET /v1/games/{id}/turn`
  (sequential, one keep-alive connection) without streams and while they are open (target
  under 50 ms), and their ratio `turn_p99_streams_vs_idle`.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import Any

import httpx
import redis

from service.adapters.embedded_redis import free_port
from tests.fakes.race import race_config

REDIS_URL = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")
TURN_REQUESTS = 400
OPEN_AT_ONCE = 200  # streams being opened at a time


def rss_bytes(pid: int) -> int:
    """Resident memory of a process (VmRSS)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise RuntimeError("no VmRSS")


async def open_stream(port: int, game_id: str) -> asyncio.StreamWriter:
    """A public stream opened and read up to its first message; the writer keeps it open."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(
        f"GET /v1/games/{game_id}/stream HTTP/1.1\r\nHost: bench\r\n"
        "Accept: text/event-stream\r\n\r\n".encode()
    )
    await writer.drain()
    head = await reader.readuntil(b"\r\n\r\n")
    if not head.startswith(b"HTTP/1.1 200"):
        raise RuntimeError(f"stream refused: {head[:200]!r}")
    await reader.readuntil(b"data:")  # the first message: the current view
    await reader.readline()
    return writer


async def turn_p99_ms(http: httpx.AsyncClient, game_ids: list[str]) -> float:
    """p99 of sequential GET /turn requests over the games."""
    times = []
    for n in range(TURN_REQUESTS):
        started = time.perf_counter()
        reply = await http.get(f"/v1/games/{game_ids[n % len(game_ids)]}/turn")
        times.append(time.perf_counter() - started)
        assert reply.status_code == 200, reply.text
    times.sort()
    return times[int(len(times) * 0.99) - 1] * 1000


async def connection_figures(
    streams: int = 10_000, games: int = 200, redis_url: str = REDIS_URL
) -> dict[str, float]:
    """Memory per idle stream and /turn p99 with them open (see the module's doc)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = streams + 1024
    if soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(wanted, hard), hard))
    run = uuid.uuid4().hex[:8]
    prefix = f"bench-conn-{run}:"
    port = free_port()
    env = dict(os.environ)
    env.update(
        SKALD_REDIS_URL=redis_url,
        SKALD_KEY_PREFIX=prefix,
        SKALD_QUEUE_NAME=f"bench-conn-{run}",
        SKALD_PLUGINS="tests.fakes.race",
        SKALD_MAX_CONNECTIONS=str(streams + 500),
        SKALD_LIMIT_CONCURRENCY=str(streams + 500),
        SKALD_SSE_PER_GAME=str(streams // games + 1),
        SKALD_SSE_HEARTBEAT_S="600",
        SKALD_ARCHIVE_AFTER_S="-1",
        SKALD_GUEST_GAMES_PER_ADDRESS="0",  # every game from this one address
    )
    command = [sys.executable, "-m", "service.cli", "serve", "--workers", "0"]
    api = subprocess.Popen(
        [*command, "--port", str(port), "--log-level", "WARNING"], env=env,
        stdout=subprocess.DEVNULL,
    )  # fmt: skip
    writers: list[asyncio.StreamWriter] = []
    figures: dict[str, float] = {}
    try:
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=60) as http:
            for _ in range(300):
                try:
                    if (await http.get("/readyz")).status_code == 200:
                        break
                except httpx.TransportError:
                    pass
                await asyncio.sleep(0.1)
            config = {"game": "race", "config": race_config(2, 30)}
            game_ids = [(await http.post("/v1/games", json=config)).json()["game_id"]
                        for _ in range(games)]  # fmt: skip
            figures["turn_p99_ms_idle"] = await turn_p99_ms(http, game_ids)
            before = rss_bytes(api.pid)
            for start in range(0, streams, OPEN_AT_ONCE):  # a few at a time, as phones come
                count = min(OPEN_AT_ONCE, streams - start)
                writers += await asyncio.gather(
                    *(open_stream(port, game_ids[(start + n) % games]) for n in range(count))
                )
            await asyncio.sleep(1.0)
            after = rss_bytes(api.pid)
            figures["streams_open"] = len(writers)
            figures["bytes_per_idle_stream"] = (after - before) / len(writers)
            figures["api_rss_mb_with_streams"] = after / 2**20
            figures["turn_p99_ms_streams"] = await turn_p99_ms(http, game_ids)
            figures["turn_p99_streams_vs_idle"] = (
                figures["turn_p99_ms_streams"] / figures["turn_p99_ms_idle"]
            )
    finally:
        for writer in writers:
            writer.close()
        api.terminate()
        try:
            api.wait(timeout=30)
        except subprocess.TimeoutExpired:
            api.kill()
            api.wait()
        client = redis.Redis.from_url(redis_url)
        keys = list(client.scan_iter(match=f"{prefix}*", count=1000))
        if keys:
            client.delete(*keys)
        client.close()
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--streams", type=int, default=10_000)
    parser.add_argument("--games", type=int, default=200)
    args = parser.parse_args()
    figures: dict[str, Any] = asyncio.run(connection_figures(args.streams, args.games))
    print(json.dumps({k: round(v, 2) for k, v in figures.items()}, indent=2))


if __name__ == "__main__":
    main()
