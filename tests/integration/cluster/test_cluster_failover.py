"""Skald on a real Redis Cluster loses nothing acknowledged when a master dies.

A cluster of 3 masters and 3 replicas on loopback, 2 API processes and 4 workers on it (the
RQ queue on its own Redis), `SKALD_WAIT_REPLICAS=1`. Clients play race games over HTTP,
half on each API process; once a third of the expected moves are decided, the master that
serves the drain indexes' slot (the busiest one) is SIGKILLed, and its replica takes over.
The killed node is then restarted (as a supervisor would) and rejoins as a replica: with
`SKALD_WAIT_REPLICAS=1` its slots acknowledge nothing while they have no replica. Then every
acknowledged command was applied exactly once, every game finished, and `skald verify` passes
on every game.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
import uuid
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import msgspec
import pytest
from redis.crc import key_slot

from service import bootstrap
from service.adapters.embedded_redis import free_port
from service.adapters.store.keys import drain_prefix, ready_key
from service.core.ports.records import NO_INBOX_ID
from service.shared.settings import Settings
from tests.cluster.local_cluster import LocalCluster
from tests.fakes.players import ClientBot
from tests.fakes.race import race_config
from tests.integration.conftest import PLUGINS, REDIS_URL, Workers, clean_up, worker_env

pytestmark = [pytest.mark.anyio, pytest.mark.redis]

TARGET = 12  # race length: about ten moves a game
MOVES_PER_GAME = 10
WAIT_S = 5
RETRY_S = 0.2


class ApiProcesses:
    """`skald serve --workers 0` processes (the API alone), each on its own port, each logging
    to a file of its own in `logs`."""

    def __init__(self, settings: Settings, logs: Path) -> None:
        self.settings = settings
        self.logs = logs
        self.processes: list[subprocess.Popen[bytes]] = []
        self.urls: list[str] = []

    def start(self, count: int) -> None:
        for _ in range(count):
            port = free_port()
            command = [sys.executable, "-m", "service.cli", "serve", "--workers", "0"]
            self.logs.mkdir(parents=True, exist_ok=True)
            with (self.logs / f"api-{port}.log").open("wb") as log:
                self.processes.append(
                    subprocess.Popen(
                        [*command, "--port", str(port), "--log-level", "WARNING"],
                        env=worker_env(self.settings),
                        stdout=log,
                        stderr=subprocess.STDOUT,
                    )
                )
            self.urls.append(f"http://127.0.0.1:{port}")

    def errors(self) -> str:
        """The error lines the API processes logged (what an unexpected 500 was)."""
        lines = []
        for path in sorted(self.logs.glob("api-*.log")):
            lines += [f"{path.name}: {line}" for line in path.read_text().splitlines()]
        return "\n".join(line for line in lines if '"level": "error"' in line)

    async def wait_ready(self, http: httpx.AsyncClient) -> None:
        for url in self.urls:
            for _ in range(300):
                try:
                    if (await http.get(f"{url}/readyz")).status_code == 200:
                        break
                except httpx.TransportError:
                    pass
                await asyncio.sleep(0.1)
            else:
                raise AssertionError(f"the API at {url} did not become ready")

    def stop(self) -> None:
        for process in self.processes:
            process.terminate()
        for process in self.processes:
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


@pytest.fixture
def cluster_settings(fresh_cluster: LocalCluster) -> Iterator[Settings]:
    run = uuid.uuid4().hex[:10]
    settings = Settings(
        redis_url=fresh_cluster.url,
        redis_cluster=True,
        queue_url=REDIS_URL,  # RQ on its own Redis: the shared test server
        key_prefix=f"it-failover-{run}:",
        queue_name=f"it-failover-{run}",
        plugins=PLUGINS,
        wait_replicas=1,
        wait_timeout_ms=2000,
        rate_per_seat=0,
        max_wait_s=10.0,
        lease_ttl_s=2.0,
        sweep_interval_s=0.3,
        sweep_grace_s=0.5,
        runner_slot_ttl_s=2.0,
        archive_after_s=-1,
    )
    yield settings
    clean_up(msgspec.structs.replace(settings, redis_url=REDIS_URL))


class Client:
    """HTTP calls that ride out a failover: a 503 or a broken connection is tried again."""

    def __init__(self, http: httpx.AsyncClient, url: str, counts: Counter[str]) -> None:
        self.http = http
        self.url = url
        self.counts = counts

    async def call(self, method: str, path: str, **kwargs: Any) -> httpx.Response:
        while True:
            try:
                response = await self.http.request(method, self.url + path, **kwargs)
            except httpx.TransportError:
                self.counts["retried_transport"] += 1
                await asyncio.sleep(RETRY_S)
                continue
            if response.status_code == 503:
                self.counts["retried_503"] += 1
                await asyncio.sleep(RETRY_S)
                continue
            assert response.status_code < 500, f"{method} {path}: {response.text}"
            return response


async def play(
    client: Client, game_id: str, tokens: list[str], seed: int,
    acknowledged: dict[str, tuple[str, int]], decided: asyncio.Queue[None],
) -> None:  # fmt: skip
    """Play a game to its end; every command acknowledged (202 or 200) is recorded."""
    bot = ClientBot(seed)
    sent = 0
    while True:
        turn = (await client.call("GET", f"/v1/games/{game_id}/turn")).json()
        if turn["finished"]:
            return
        seat = min(turn["to_act"])
        headers = {"authorization": f"Bearer {tokens[seat]}"}
        own = (await client.call("GET", f"/v1/games/{game_id}/turn", headers=headers)).json()
        if not own["legal_commands"]:
            continue
        command_id = f"{game_id}-{sent}"
        body = {"command_id": command_id, "command": bot.choose(own["legal_commands"])}
        while True:
            reply = await client.call(
                "POST", f"/v1/games/{game_id}/commands", params={"wait": WAIT_S},
                json=body, headers=headers,
            )  # fmt: skip
            assert reply.status_code in (200, 202), reply.text
            acknowledged[command_id] = (game_id, seat)
            if reply.status_code == 200:
                break
            client.counts["still_queued"] += 1  # the same id again: one outcome
        assert reply.json()["status"] == "applied", reply.text
        decided.put_nowait(None)
        sent += 1


async def new_game(client: Client) -> tuple[str, list[str]]:
    created = await client.call(
        "POST", "/v1/games", json={"game": "race", "config": race_config(2, TARGET)}
    )
    assert created.status_code == 201, created.text
    game_id: str = created.json()["game_id"]
    tokens = []
    for _ in range(2):
        joined = await client.call("POST", f"/v1/games/{game_id}/seats", json={})
        assert joined.status_code == 201, joined.text
        tokens.append(joined.json()["token"])
    return game_id, tokens


def drain_master(cluster: LocalCluster, settings: Settings) -> int:
    """The master serving the slot of the ready set, runner slots and pending index."""
    slot = key_slot(ready_key(drain_prefix(settings.key_prefix, True)).encode())
    for port, ranges in cluster.masters().items():
        if any(start <= slot <= end for start, end in ranges):
            return port
    raise AssertionError("no master serves the drain slot")


@pytest.mark.parametrize(
    "games", [pytest.param(40, id="short"), pytest.param(200, id="long", marks=pytest.mark.slow)]
)
async def test_a_master_killed_mid_load_loses_nothing_acknowledged(
    fresh_cluster: LocalCluster, cluster_settings: Settings, games: int, tmp_path: Path
) -> None:
    # Given 2 API processes and 4 workers on a cluster, clients playing games on both
    apis = ApiProcesses(cluster_settings, tmp_path / "api-logs")
    workers = Workers(cluster_settings)
    counts: Counter[str] = Counter()
    acknowledged: dict[str, tuple[str, int]] = {}
    decided: asyncio.Queue[None] = asyncio.Queue()
    try:
        apis.start(2)
        workers.start(4)
        limits = httpx.Limits(max_connections=200)
        async with httpx.AsyncClient(timeout=WAIT_S + 20, limits=limits) as http:
            await apis.wait_ready(http)
            clients = [Client(http, url, counts) for url in apis.urls]
            created = await asyncio.gather(*(new_game(clients[n % 2]) for n in range(games)))

            async def kill_mid_load() -> int:
                for _ in range(games * MOVES_PER_GAME // 3):
                    await decided.get()
                # When the busiest master is SIGKILLed mid-load (its replica takes over; the
                # killed node, restarted by its supervisor, comes back as the new replica:
                # until then the slots it served acknowledge nothing, for want of a replica)
                port = drain_master(fresh_cluster, cluster_settings)
                await asyncio.to_thread(fresh_cluster.kill_master, port)
                await asyncio.to_thread(fresh_cluster.restart, port)
                return port

            killer = asyncio.create_task(kill_mid_load())
            await asyncio.gather(
                *(
                    play(clients[n % 2], game_id, tokens, 100 + n, acknowledged, decided)
                    for n, (game_id, tokens) in enumerate(created)
                )
            )
            # Then its replica took over (the kill happened before the games ended)
            assert killer.done() and not killer.cancelled()
            killed = killer.result()
            assert killed not in fresh_cluster.masters()
    except AssertionError:
        apis.stop()
        print(apis.errors())  # shown with the failure: an unexpected 500's own error
        raise
    finally:
        apis.stop()
        workers.stop()

    # And every acknowledged command was applied exactly once, every game finished
    client = bootstrap.event_client(cluster_settings)
    try:
        store = bootstrap.store(client, cluster_settings)
        game_ids = [game_id for game_id, _ in created]
        for game_id in game_ids:
            events = await store.read(game_id)
            events_of = Counter(event.command_id for event in events)
            inbox = await store.inbox(game_id, NO_INBOX_ID, 100_000)
            ids = [received.command_id for received in inbox]
            assert len(ids) == len(set(ids)), "a command queued twice"
            head = await store.head(game_id)
            assert head is not None and head.finished and head.cursor == inbox[-1].inbox_id
            for received in inbox:
                record = await store.command(game_id, received.seat, received.command_id)
                assert record is not None and record.status == "applied", record
                span = (record.last_version or 0) - (record.first_version or 0) + 1
                assert events_of[received.key] == span
        for command_id, (game_id, seat) in acknowledged.items():
            record = await store.command(game_id, seat, command_id)
            assert record is not None and record.status == "applied", (command_id, record)
        counts["acknowledged"] = len(acknowledged)
    finally:
        await client.aclose()

    # And `skald verify` passes on every game
    verified = subprocess.run(
        [sys.executable, "-m", "service.cli", "verify"],
        env=worker_env(cluster_settings),
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert verified.returncode == 0, verified.stdout[-3000:] + verified.stderr[-3000:]
    print(f"failover: games={games} killed={killed} {dict(sorted(counts.items()))}")
