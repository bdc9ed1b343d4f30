"""How much history pollers slow moves: the median move (submit with `wait`) of a race game of
about 200 events, alone, then while 16 anonymous clients poll one route in a loop.

    .venv/bin/python -m tests.bench.bench_history_pollers [--poll replay] [--honour-retry-after]

Runs `skald serve` (one worker) in a child process over the Redis at SKALD_REDIS_URL (default
127.0.0.1:6379) under a key prefix of its own, deleted afterwards; SKALD_* variables pass on
(SKALD_HISTORY_PROCESSES=0 measures history in threads). `--poll` names the route polled under
/games/<id>/ (`turn` or an unknown route: what any tight loop of cheap requests costs).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import threading
import time
import uuid
from collections import Counter

import httpx
import redis

from service.adapters.embedded_redis import free_port

MOVES_BEFORE = 150
MOVES_MEASURED = 30
POLLERS = 16


class Table:
    """A race game on the server and its two seats."""

    def __init__(self, http: httpx.Client) -> None:
        self.http = http
        config = {"players": 2, "target": 100_000}
        self.game_id = http.post("/games", json={"game": "race", "config": config}).json()[
            "game_id"
        ]
        self.tokens = [http.post(f"/games/{self.game_id}/seats", json={}).json()["token"]]
        self.tokens.append(http.post(f"/games/{self.game_id}/seats", json={}).json()["token"])
        self.moves = 0

    def move_ms(self) -> float:
        """One move by the seat to act, waited for; its round trip in milliseconds."""
        seat = self.http.get(f"/games/{self.game_id}/turn").json()["to_act"][0]
        self.moves += 1
        started = time.perf_counter()
        response = self.http.post(
            f"/games/{self.game_id}/commands",
            params={"wait": "20"},
            json={"command_id": f"m{self.moves}", "command": {"type": "Move", "steps": 1}},
            headers={"authorization": f"Bearer {self.tokens[seat]}"},
        )
        assert response.status_code == 200, response.text
        return (time.perf_counter() - started) * 1000


def poll(url: str, stop: threading.Event, honour: bool, statuses: Counter[int]) -> None:
    with httpx.Client(timeout=60) as client:
        while not stop.is_set():
            response = client.get(url)
            statuses[response.status_code] += 1
            if honour and response.status_code == 429:
                stop.wait(int(response.headers["retry-after"]))


def main(route: str, honour: bool) -> None:
    run = uuid.uuid4().hex[:8]
    redis_url = os.environ.get("SKALD_REDIS_URL", "redis://127.0.0.1:6379/0")
    env = {
        **os.environ, "SKALD_REDIS_URL": redis_url, "SKALD_KEY_PREFIX": f"bench-poll-{run}:",
        "SKALD_QUEUE_NAME": f"bench-poll-{run}", "SKALD_PLUGINS": "tests.fakes.race",
        "SKALD_RATE_PER_SEAT": "0",
    }  # fmt: skip
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "service.cli", "serve", "--port", str(port), "--workers", "1",
         "--log-level", "WARNING"],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    try:
        with httpx.Client(base_url=url, timeout=30) as http:
            for _ in range(300):  # nothing signals when uvicorn starts listening
                try:
                    if http.get("/healthz").status_code == 200:
                        break
                except httpx.HTTPError:
                    time.sleep(0.1)
            table = Table(http)
            for _ in range(MOVES_BEFORE):
                table.move_ms()
            quiet = statistics.median(table.move_ms() for _ in range(MOVES_MEASURED))
            stop, statuses = threading.Event(), Counter[int]()
            target = f"{url}/games/{table.game_id}/{route}"
            pollers = [
                threading.Thread(target=poll, args=(target, stop, honour, statuses))
                for _ in range(POLLERS)
            ]
            for poller in pollers:
                poller.start()
            time.sleep(2)  # let the pollers reach their pace
            busy = statistics.median(table.move_ms() for _ in range(MOVES_MEASURED))
            stop.set()
            for poller in pollers:
                poller.join()
            events = http.get(f"/games/{table.game_id}/events").json()["last_version"]
        print(
            f"{events} events; median move alone {quiet:.1f} ms, with {POLLERS} pollers of "
            f"/{route}{' (honouring Retry-After)' if honour else ''} {busy:.1f} ms "
            f"(x{busy / quiet:.1f}); poll answers {dict(sorted(statuses.items()))}"
        )
    finally:
        server.terminate()
        server.wait(30)
        direct = redis.Redis.from_url(redis_url)
        for pattern in (f"bench-poll-{run}:*", f"rq:*bench-poll-{run}*"):
            keys = list(direct.scan_iter(match=pattern, count=1000))
            if keys:
                direct.delete(*keys)
        direct.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--poll", default="replay", help="route under /games/<id>/ to poll")
    parser.add_argument("--honour-retry-after", action="store_true")
    arguments = parser.parse_args()
    main(arguments.poll, arguments.honour_retry_after)
