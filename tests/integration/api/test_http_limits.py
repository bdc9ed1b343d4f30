"""Bad requests, outages and history load, against a real uvicorn server, worker and Redis.

Every bad body is a 4xx problem; an oversized head, a head sent too slowly and a connection past
the cap are refused by the server itself; a client hanging up mid-body is counted as 499, not
500; busy history neither holds up a move nor queues without bound; and while Redis is down
every route answers 503 with Retry-After.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import select
import socket
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
import redis

from service.adapters.embedded_redis import EmbeddedRedis, free_port
from service.api.asgi import litestar_of
from service.api.history_gate import HISTORY_GATE_STATE_KEY, HistoryGate
from service.cli.processes import WORKER_MODULE, ApiServer, settings_env, spawn, stop_process
from service.shared.settings import Settings
from tests.fakes.race import race_config
from tests.integration.reliability.figures import record_figures

from .conftest import PLUGINS, REDIS_URL, LiveService, _delete_keys

pytestmark = pytest.mark.redis
MOVE = {"type": "Move", "steps": 1}
HEADER_TIMEOUT_S = 1.0
MAX_CONNECTIONS = 24
HISTORY_BOUND = 2


@dataclass
class Limited:
    """A server of this module's own, with small limits, and a worker."""

    server: ApiServer
    settings: Settings

    @property
    def address(self) -> tuple[str, int]:
        host, port = self.server.url.removeprefix("http://").rsplit(":", 1)
        return host, int(port)


@pytest.fixture(scope="module")
def limited() -> Iterator[Limited]:
    run = uuid.uuid4().hex[:10]
    settings = Settings(
        redis_url=REDIS_URL, key_prefix=f"it-limits-{run}:", queue_name=f"it-limits-{run}",
        plugins=PLUGINS, max_wait_s=15.0, sweep_interval_s=0.5,
        header_timeout_s=HEADER_TIMEOUT_S, max_connections=MAX_CONNECTIONS,
        history_processes=1, history_max_inflight=HISTORY_BOUND,
    )  # fmt: skip
    worker = spawn(
        [sys.executable, "-m", WORKER_MODULE, "--log-level", "WARNING"], settings_env(settings)
    )
    server = ApiServer(settings, "127.0.0.1", free_port())
    server.start_in_thread()
    direct = redis.Redis.from_url(REDIS_URL)
    try:
        yield Limited(server, settings)
    finally:
        server.stop()
        stop_process(worker)
        _delete_keys(direct, f"{settings.key_prefix}*")
        _delete_keys(direct, f"rq:*{settings.queue_name}*")
        direct.close()


def seated(http: httpx.Client) -> tuple[str, list[str], int]:
    """A race with both seats taken: its id, the tokens by seat, and the seat to act."""
    game_id = http.post("/games", json={"game": "race", "config": race_config()}).json()["game_id"]
    tokens = [http.post(f"/games/{game_id}/seats", json={}).json()["token"] for _ in "ab"]
    return game_id, tokens, http.get(f"/games/{game_id}/turn").json()["to_act"][0]


def problem_of(response: httpx.Response, status: int) -> str:
    """The code of a problem response of this status."""
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == "application/problem+json"
    code: str = response.json()["code"]
    return code


BAD_BODIES: list[tuple[str, bytes, str, str]] = [
    ("json utf-8", b'{"command_id": "c\xff", "command": {}}', "application/json",
     "request.not_utf8"),
    ("msgpack utf-8", b"\x81\xaacommand_id\xa2c\xff", "application/msgpack", "request.not_utf8"),
    ("json 990 deep", b"[" * 990 + b"]" * 990, "application/json", "request.too_deep"),
    ("msgpack 990 deep", b"\x91" * 990 + b"\xc0", "application/msgpack", "request.too_deep"),
    ("text/plain", b'{"command_id": "c", "command": {}}', "text/plain",
     "request.unsupported_media_type"),
]  # fmt: skip


@pytest.mark.parametrize("route", ["create", "join", "submit"])
@pytest.mark.parametrize(
    ("name", "body", "media_type", "code"), BAD_BODIES, ids=[b[0] for b in BAD_BODIES]
)
def test_bad_bodies_are_4xx_problems_on_every_route_that_takes_one(
    live_service: LiveService, route: str, name: str, body: bytes, media_type: str, code: str
) -> None:
    with httpx.Client(base_url=live_service.url, timeout=15) as http:
        game_id, tokens, seat = seated(http)
        url, headers = {
            "create": ("/games", {}),
            "join": (f"/games/{game_id}/seats", {}),
            "submit": (f"/games/{game_id}/commands", {"authorization": f"Bearer {tokens[seat]}"}),
        }[route]
        before = http.get(f"/games/{game_id}/events").json()["last_version"]
        response = http.post(url, content=body, headers={**headers, "content-type": media_type})
        status = 415 if code == "request.unsupported_media_type" else 400
        assert problem_of(response, status) == code
        assert http.get(f"/games/{game_id}/events").json()["last_version"] == before


def test_accept_is_honoured_with_its_quality_values(live_service: LiveService) -> None:
    with httpx.Client(base_url=live_service.url, timeout=15) as http:
        game_id, _, _ = seated(http)
        refused = http.get(f"/games/{game_id}/view", headers={"accept": "application/json;q=0"})
        chosen = http.get(
            f"/games/{game_id}/view", headers={"accept": "application/json;q=0, */*;q=0.5"}
        )
    assert problem_of(refused, 406) == "request.not_acceptable"
    assert chosen.headers["content-type"] == "application/msgpack"


def test_an_oversized_head_is_refused_by_the_server_and_a_normal_one_is_served(
    limited: Limited,
) -> None:
    with httpx.Client(base_url=limited.server.url, timeout=15) as http:
        huge = http.get("/healthz", headers={"x-padding": "a" * (10 * 1024 * 1024)})
    with httpx.Client(base_url=limited.server.url, timeout=15) as http:
        fine = http.get("/healthz", headers={"x-padding": "a" * 8 * 1024})
    assert huge.status_code == 400  # the server's own answer: the app never saw the request
    assert f"over {limited.settings.max_header_bytes} bytes" in huge.text
    assert fine.status_code == 200
    record_figures(
        "http_head_size", head_10_mib=huge.status_code, head_8_kib=fine.status_code,
        limit_bytes=limited.settings.max_header_bytes,
    )  # fmt: skip


def exchange(address: tuple[str, int], *chunks: bytes) -> bytes:
    """Send `chunks` on one connection, each written on its own until the server answers, and
    read until the server closes it (a refusal, or a request saying `connection: close`)."""
    with socket.create_connection(address, timeout=15) as raw:
        for chunk in chunks:
            raw.sendall(chunk)
            # Each chunk its own read on the server; stop sending once it has answered (more
            # bytes to a closed connection would reset it, and its answer with it)
            if select.select([raw], [], [], 0.05)[0]:
                break
        answer = b""
        with contextlib.suppress(OSError):
            while data := raw.recv(65536):
                answer += data
    return answer


def head(path: str, padding: int, extra: bytes = b"") -> bytes:
    """A GET's head with a header of `padding` bytes; `extra` more headers before its end."""
    return (
        f"GET {path} HTTP/1.1\r\nhost: x\r\nx-padding: {'a' * padding}\r\n".encode()
        + extra
        + b"\r\n"
    )


def test_a_head_over_the_limit_is_refused_however_it_arrives(limited: Limited) -> None:
    limit = limited.settings.max_header_bytes
    whole = head("/healthz", limit + 100)
    # In one write (the parser reads it whole), and in pieces none of which is over the limit
    in_one = exchange(limited.address, whole)
    in_pieces = exchange(limited.address, whole[: limit // 2], whole[limit // 2 :])
    # A header line that never ends, sent in pieces (the parser holds it unread)
    never_ending = exchange(
        limited.address, b"GET /healthz HTTP/1.1\r\nx-padding: ", *[b"a" * 4096] * 8
    )
    for answer in (in_one, in_pieces, never_ending):
        assert answer.startswith(b"HTTP/1.1 400 "), answer[:200]
        assert f"over {limit} bytes".encode() in answer
        assert b"connection: close" in answer.lower()


def test_heads_under_the_limit_and_bodies_over_it_are_served(limited: Limited) -> None:
    limit = limited.settings.max_header_bytes
    # Heads just under the limit, one after the other on a kept-alive connection and two
    # pipelined in one write: the count starts again with each request
    padding = "a" * (limit - 200)
    with httpx.Client(base_url=limited.server.url, timeout=15) as http:
        statuses = [http.get("/healthz", headers={"x-padding": padding}).status_code for _ in "ab"]
    assert statuses == [200, 200]
    near = head("/healthz", limit - 200)
    last = head("/healthz", limit - 200, b"connection: close\r\n")
    pipelined = exchange(limited.address, near + last)
    assert pipelined.count(b"HTTP/1.1 200 ") == 2, pipelined[:300]
    # A small head with a body larger than a head may be, in one write
    body = b'{"game": "race"' + b" " * (limit * 2) + b"}"
    post = (
        b"POST /games HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n"
        + f"content-length: {len(body)}\r\nconnection: close\r\n\r\n".encode()
        + body
    )
    answer = exchange(limited.address, post)
    # The app read the whole body and answered: its problem names the missing config (not the
    # server's plain-text refusal of a head)
    assert answer.startswith(b"HTTP/1.1 400 "), answer[:300]
    assert b"content-type: application/problem+json" in answer.lower()
    assert b"missing required field `config`" in answer
    assert b"over " + str(limit).encode() not in answer


def test_a_head_trickling_in_is_cut_off_at_the_deadline(limited: Limited) -> None:
    with socket.create_connection(limited.address, timeout=15) as slow:
        slow.sendall(b"GET /healthz HTTP/1.1\r\nhost: x\r\n")
        started, closed = time.monotonic(), False
        for line in range(300):  # a header every 0.1 s: never idle, never done (30 s at most)
            try:
                slow.sendall(f"x-line-{line}: y\r\n".encode())
            except OSError:
                closed = True
                break
            readable, _, _ = select.select([slow], [], [], 0.1)
            if readable and slow.recv(1024) == b"":
                closed = True
                break
        held_for = time.monotonic() - started
    assert closed
    assert held_for >= HEADER_TIMEOUT_S * 0.9  # cut off by the head deadline, not at once
    record_figures(
        "http_head_deadline", deadline_s=HEADER_TIMEOUT_S, cut_after_s=round(held_for, 2),
        header_lines_sent=line,
    )  # fmt: skip
    with httpx.Client(base_url=limited.server.url, timeout=15) as http:
        assert http.get("/healthz").status_code == 200


def test_connections_past_the_cap_are_closed_at_once(limited: Limited) -> None:
    extra = 6
    sockets = [
        socket.create_connection(limited.address, timeout=15)
        for _ in range(MAX_CONNECTIONS + extra)
    ]
    try:
        # Closed at once: at end of file well before the head deadline
        closed: set[socket.socket] = set()
        deadline = time.monotonic() + HEADER_TIMEOUT_S / 2
        while (left := deadline - time.monotonic()) > 0:
            readable, _, _ = select.select([s for s in sockets if s not in closed], [], [], left)
            closed |= {s for s in readable if s.recv(1) == b""}
    finally:
        for s in sockets:
            s.close()
    assert extra <= len(closed) < MAX_CONNECTIONS + extra
    record_figures(
        "http_connection_cap", cap=MAX_CONNECTIONS, opened=MAX_CONNECTIONS + extra,
        closed_at_once=len(closed),
    )  # fmt: skip
    with httpx.Client(base_url=limited.server.url, timeout=15) as http:
        assert http.get("/healthz").status_code == 200


def metric_count(exposition: str, route: str, status: int) -> float:
    prefix = f'skald_http_requests_total{{method="POST",route="{route}",status="{status}"}} '
    return sum(
        float(line[len(prefix) :]) for line in exposition.splitlines() if line.startswith(prefix)
    )


def test_a_client_hanging_up_mid_body_is_counted_as_499_not_500(limited: Limited) -> None:
    with socket.create_connection(limited.address, timeout=15) as gone:
        gone.sendall(
            b"POST /games HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n"
            b"content-length: 1000\r\n\r\n" + b'{"game": "race", '
        )
    with httpx.Client(base_url=limited.server.url, timeout=15) as http:
        deadline = time.monotonic() + 15
        while (exposition := http.get("/metrics").text) and metric_count(
            exposition, "/games", 499
        ) < 1:
            assert time.monotonic() < deadline, "the hang-up was never counted"
            time.sleep(0.05)  # the server counts it when it notices: nothing to await here
    assert 'status="500"' not in exposition
    record_figures(
        "http_hang_up", counted_499=metric_count(exposition, "/games", 499), counted_500=0
    )


def test_busy_history_holds_up_no_move_and_past_its_bound_is_429(limited: Limited) -> None:
    gate: HistoryGate = litestar_of(limited.server.server.config.app).state[HISTORY_GATE_STATE_KEY]
    manager = multiprocessing.Manager()
    release = manager.Event()  # waited on in the history process
    with (
        httpx.Client(base_url=limited.server.url, timeout=30) as http,
        ThreadPoolExecutor(4) as pool,
    ):
        game_id, tokens, seat = seated(http)
        # Given the history pool's only process held busy, and the bound of requests waiting
        holder = gate.executor.submit(release.wait)
        waiting = [
            pool.submit(httpx.get, f"{limited.server.url}/games/{game_id}/{path}", timeout=30)
            for path in ("replay", "fairness")
        ]
        deadline = time.monotonic() + 15
        while gate.inflight < HISTORY_BOUND:
            assert time.monotonic() < deadline, "the history requests never arrived"
            time.sleep(0.01)
        # When one more history request and a move arrive
        refused = http.get(f"/games/{game_id}/audit/1")
        move_started = time.perf_counter()
        moved = http.post(
            f"/games/{game_id}/commands",
            params={"wait": "15"},
            json={"command_id": "during-history", "command": MOVE},
            headers={"authorization": f"Bearer {tokens[seat]}"},
        )
        move_ms = (time.perf_counter() - move_started) * 1000
        still_waiting = [not future.done() for future in waiting]
        release.set()
        holder.result(timeout=15)
        answered = [future.result(timeout=30).status_code for future in waiting]
    manager.shutdown()
    # Then the history request is refused with a time to retry, and the move is applied
    assert problem_of(refused, 429) == "history.busy"
    assert int(refused.headers["retry-after"]) >= 1
    assert (moved.status_code, moved.json()["status"]) == (200, "applied")
    assert still_waiting == [True, True]
    assert answered == [200, 200]
    record_figures(
        "history_load", bound=HISTORY_BOUND, held=len(waiting), refused=refused.status_code,
        retry_after_s=int(refused.headers["retry-after"]), move_applied_ms=round(move_ms, 1),
    )  # fmt: skip


OUTAGE_REQUESTS: list[tuple[str, str, Callable[[str, str], dict[str, Any]]]] = [
    ("POST", "/games", lambda g, t: {"json": {"game": "race", "config": race_config()}}),
    ("POST", "/games/{g}/seats", lambda g, t: {"json": {}}),
    ("POST", "/games/{g}/commands", lambda g, t: {"json": {"command_id": "c", "command": MOVE},
                                                  "headers": {"authorization": f"Bearer {t}"}}),
    ("POST", "/games/{g}/commands?wait=1", lambda g, t: {
        "json": {"command_id": "c", "command": MOVE}, "headers": {"authorization": f"Bearer {t}"}}),
    ("GET", "/games/{g}/commands/early?wait=1", lambda g, t: {
        "headers": {"authorization": f"Bearer {t}"}}),
    ("GET", "/games", lambda g, t: {}),
    ("GET", "/games/{g}/view", lambda g, t: {}),
    ("GET", "/games/{g}/turn", lambda g, t: {}),
    ("GET", "/games/{g}/events", lambda g, t: {}),
    ("GET", "/games/{g}/stream", lambda g, t: {}),
    ("GET", "/games/{g}/replay", lambda g, t: {}),
    ("GET", "/games/{g}/audit/1", lambda g, t: {}),
    ("GET", "/games/{g}/commands/early/audit", lambda g, t: {}),
    ("GET", "/games/{g}/fairness", lambda g, t: {}),
]  # fmt: skip


def test_every_route_answers_503_with_retry_after_while_redis_is_down() -> None:
    with tempfile.TemporaryDirectory() as data_dir:
        own_redis = EmbeddedRedis(data_dir)
        url = own_redis.start()
        settings = Settings(redis_url=url, plugins=PLUGINS, max_wait_s=2.0)
        server = ApiServer(settings, "127.0.0.1", free_port())
        server.start_in_thread()
        try:
            with httpx.Client(base_url=server.url, timeout=30) as http:
                game_id, tokens, seat = seated(http)
                auth = {"authorization": f"Bearer {tokens[seat]}"}
                early = {"command_id": "early", "command": MOVE}
                assert (
                    http.post(f"/games/{game_id}/commands", json=early, headers=auth).status_code
                    == 202
                )
                own_redis.stop()
                answers = {
                    f"{method} {path}": http.request(
                        method, path.format(g=game_id), **build(game_id, tokens[seat])
                    )
                    for method, path, build in OUTAGE_REQUESTS
                }
                ready = http.get("/readyz")
        finally:
            server.stop()
            own_redis.stop()
    for name, response in answers.items():
        assert response.status_code == 503, (name, response.text)
        assert problem_of(response, 503) in ("redis.unavailable", "service.unavailable"), name
        assert int(response.headers["retry-after"]) >= 1, name
    assert ready.status_code == 503 and int(ready.headers["retry-after"]) >= 1
    record_figures("http_redis_outage", routes=len(answers), answered_503=len(answers) + 1)
