"""HTTP requests per move of a game played over the seats' WebSockets alone, counted by the
server.

    .venv/bin/python -m tests.bench.bench_socket_game [--games N]

Race games (the fake game, to its end) are created and joined over HTTP on a `skald serve`;
then each seat holds its socket (`/v1/games/{id}/socket`) and plays from its turn frames
alone: each says whether the seat acts and what it may send, and the seat sends its first
legal command. The server counts every HTTP request it answers
(`skald_http_requests_total` on `/metrics`, read before and after the games, its own scrapes
left out); `requests_per_move_socket` is the count of the games' part over their moves.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
from typing import Any

import aiohttp
import msgspec

from tests.bench.live import live_skald
from tests.bench.load import new_client
from tests.fakes.race import race_config

REDIS_URL_DEFAULT = "redis://127.0.0.1:6379/0"
RACE_TARGET = 40  # steps to the finish: some 20-40 moves per game
FRAME_TIMEOUT_S = 30.0
# One sample of the request counter: its labels, then its value.
REQUESTS_SAMPLE = re.compile(r"^skald_http_requests_total\{(.*)\} (\S+)$", re.MULTILINE)
METRICS_ROUTE = 'route="/metrics"'


def http_requests_answered(exposition: str) -> int:
    """The HTTP requests a server answered, by its Prometheus exposition (`/metrics`), the
    scrapes of `/metrics` left out."""
    return sum(
        int(float(value))
        for labels, value in REQUESTS_SAMPLE.findall(exposition)
        if METRICS_ROUTE not in labels
    )


async def _answered(http: aiohttp.ClientSession) -> int:
    """The count of answered requests once it stands still (a request is counted just after
    its reply is sent)."""
    counted = -1
    while True:
        async with http.get("/metrics") as reply:
            again = http_requests_answered(await reply.text())
        if again == counted:
            return counted
        counted = again
        await asyncio.sleep(0.05)


async def _seated_game(http: aiohttp.ClientSession) -> tuple[str, list[str]]:
    body = {"game": "race", "config": race_config(2, RACE_TARGET)}
    async with http.post("/v1/games", json=body) as created:
        game_id: str = (await created.json())["game_id"]
    tokens = []
    for seat in range(2):
        async with http.post(f"/v1/games/{game_id}/seats", json={"seat": seat}) as joined:
            tokens.append((await joined.json())["token"])
    return game_id, tokens


async def play_seat(http: aiohttp.ClientSession, game_id: str, token: str, seat: int) -> int:
    """Play one seat to the end from its socket's turn frames; the commands it sent."""
    sent = 0
    async with http.ws_connect(f"/v1/games/{game_id}/socket", max_msg_size=0) as socket:
        await socket.send_str(json.dumps({"type": "hello", "token": token}))
        moved_at: set[int] = set()
        while True:
            frame: dict[str, Any] = msgspec.json.decode(
                await socket.receive_str(timeout=FRAME_TIMEOUT_S)
            )
            if frame["type"] == "problem" or (
                frame["type"] == "outcome" and frame["outcome"]["status"] == "refused"
            ):
                raise RuntimeError(f"seat {seat} of {game_id}: {frame}")
            if frame["type"] != "turn":
                continue
            turn = frame["data"]
            if turn["finished"]:
                return sent
            if seat in turn["to_act"] and turn["version"] not in moved_at:
                moved_at.add(turn["version"])
                command_id = f"s{seat}-v{turn['version']}"
                command = {"command_id": command_id, "command": turn["legal_commands"][0]}
                await socket.send_str(json.dumps({"type": "command", **command}))
                sent += 1


async def socket_game_figures(redis_url: str, games: int) -> dict[str, float]:
    """The HTTP requests the server answered per move while `games` games were played over
    their sockets (after the joins), and the moves played."""
    with live_skald(redis_url, workers=1, batch_size=64) as live:
        async with new_client(live.url, 2 * games + 4) as http:
            seated = [await _seated_game(http) for _ in range(games)]
            before = await _answered(http)
            if before < 3 * games:  # the creations and joins: a counter that counts nothing
                raise RuntimeError(f"/metrics counted {before} requests, not the joins")
            seats = [
                play_seat(http, game_id, token, seat)
                for game_id, tokens in seated
                for seat, token in enumerate(tokens)
            ]
            moves = sum(await asyncio.gather(*seats))
            requests = await _answered(http) - before
    return {"requests_per_move_socket": requests / moves, "socket_moves": moves}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--redis-url", default=REDIS_URL_DEFAULT)
    args = parser.parse_args()
    print(json.dumps(asyncio.run(socket_game_figures(args.redis_url, args.games)), indent=2))


if __name__ == "__main__":
    main()
