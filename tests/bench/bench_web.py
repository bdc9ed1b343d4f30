"""Web client figures: what a browser downloads, how soon a game page draws its board, and how
soon a spectator's page shows a move.

    .venv/bin/python -m tests.bench.bench_web [--loads N] [--moves N]

Against a real Skald on loopback (uvicorn serving the API and the built client, two worker
processes, the real Redis under its own key prefix) and Debian's Chromium driven by Playwright.
Needs the client built (`make web`) and /usr/bin/chromium (`make browser`).

- `web_assets_gzip_bytes`: the JavaScript and CSS the page loads, as served gzip-compressed
  (the bytes on the wire), against the 200 kB budget (`web_assets_vs_budget`).
- `web_first_render_ms`: from navigation start to the board drawn (the first `svg.board`
  holding a tile) on a Fjords game page, in a fresh browser context each time (nothing
  cached), median over the loads; `web_render_vs_view`: against a `GET /view` of the same game
  over HTTP on a new connection (`web_view_get_ms`), and `web_render_vs_plain_page` against
  the same browser loading a page with no script (`/healthz`) in a fresh context, to its load
  event (`web_plain_page_ms`), medians, in the same run.
- `web_spectator_p50_ms`, `web_spectator_max_ms`: from just before a seat's POST of a move until
  a spectator's page shows its first event in the log; `web_spectator_vs_reply`: the median
  against the median time to the applied reply (`?wait=`) of the same POSTs.
"""

from __future__ import annotations

import argparse
import http.client
import importlib.util
import json
import logging
import os
import random
import re
import statistics
import sys
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import redis
import structlog

from service.adapters.embedded_redis import free_port
from service.api.web_client import WEB_DIST
from service.cli.processes import WORKER_MODULE, ApiServer, settings_env, spawn, stop_process
from service.shared.settings import Settings

REDIS_URL_DEFAULT = "redis://127.0.0.1:6379/0"
CHROMIUM = Path(os.environ.get("SKALD_TEST_CHROMIUM", "/usr/bin/chromium"))
BUDGET_BYTES = 200_000
# Recorded in the page: when the board first holds a tile, and when each event shows.
WATCH_SCRIPT = """
window.__boardAt = null; window.__seen = {};
new MutationObserver(() => {
  if (window.__boardAt === null && document.querySelector('svg.board g.tile')) {
    window.__boardAt = performance.now();
  }
  for (const li of document.querySelectorAll('.log li[data-version]')) {
    const v = li.dataset.version;
    if (!(v in window.__seen)) window.__seen[v] = Date.now();
  }
}).observe(document, {childList: true, subtree: true});
"""


@contextmanager
def served(redis_url: str) -> Iterator[str]:
    """A Skald serving the API and the client; its URL."""
    run = uuid.uuid4().hex[:10]
    settings = Settings(
        redis_url=redis_url, key_prefix=f"bench-web-{run}:", queue_name=f"bench-web-{run}"
    )
    worker = [sys.executable, "-m", WORKER_MODULE, "--log-level", "WARNING"]
    workers = [spawn(worker, settings_env(settings)) for _ in range(2)]
    api = ApiServer(settings, "127.0.0.1", free_port())
    api.start_in_thread()
    direct = redis.Redis.from_url(redis_url)
    try:
        yield api.url
    finally:
        api.stop()
        for worker in workers:
            stop_process(worker)
        for pattern in (f"{settings.key_prefix}*", f"rq:*{settings.queue_name}*"):
            batch = list(direct.scan_iter(match=pattern, count=1000))
            if batch:
                direct.delete(*batch)
        direct.close()


def asset_figures(url: str) -> dict[str, Any]:
    """The JS and CSS the page references, compressed as served and raw."""
    page = httpx.get(f"{url}/play/", timeout=30).text
    assets = re.findall(r'(?:src|href)="(/play/assets/[^"]+\.(?:js|css))"', page)
    assert assets, "the page references no script or style sheet"
    wire = raw = 0
    for asset in assets:
        reply = httpx.get(f"{url}{asset}", headers={"accept-encoding": "gzip"}, timeout=30)
        assert reply.status_code == 200, asset
        wire += reply.num_bytes_downloaded
        raw += len(reply.content)
    return {
        "web_assets_gzip_bytes": wire,
        "web_assets_raw_bytes": raw,
        "web_assets_vs_budget": round(wire / BUDGET_BYTES, 3),
    }


class Seats:
    """A Fjords game over the API, every seat played at random among its legal commands."""

    def __init__(self, url: str, players: int = 2, seed: int = 3) -> None:
        self.http = httpx.Client(base_url=f"{url}/v1", timeout=30)
        created = self.http.post("/games", json={"game": "fjords", "config": {"players": players}})
        self.game_id: str = created.json()["game_id"]
        self.tokens = [
            self.http.post(f"/games/{self.game_id}/seats", json={"name": f"S{s}"}).json()["token"]
            for s in range(players)
        ]
        self.chooser = random.Random(seed)
        self.moves = 0

    def play(self) -> tuple[float, float, int] | None:
        """One move: (ms sent at, epoch; ms to the applied reply; its first version)."""
        turn = self.http.get(f"/games/{self.game_id}/turn").json()
        if turn["finished"]:
            return None
        auth = {"authorization": f"Bearer {self.tokens[turn['to_act'][0]]}"}
        legal = self.http.get(f"/games/{self.game_id}/turn", headers=auth).json()["legal_commands"]
        self.moves += 1
        body = {"command_id": f"b-{self.moves}", "command": self.chooser.choice(legal)}
        sent = time.time() * 1000
        started = time.perf_counter()
        reply = self.http.post(
            f"/games/{self.game_id}/commands", params={"wait": 10}, json=body, headers=auth
        ).json()
        assert reply["status"] == "applied", reply
        return sent, (time.perf_counter() - started) * 1000, reply["first_version"]


def browser_figures(url: str, loads: int, moves: int) -> dict[str, Any]:
    """First render of a game page, and the spectator's delay per move."""
    from playwright.sync_api import sync_playwright

    seats = Seats(url)
    for _ in range(20):  # a game under way: a table worth drawing
        seats.play()
    watch = f"{url}/play/#/fjords/{seats.game_id}/watch"
    views = []
    host, port = url.removeprefix("http://").split(":")
    for _ in range(loads):  # each on a new connection, as a fresh page's first request
        started = time.perf_counter()
        connection = http.client.HTTPConnection(host, int(port), timeout=30)
        connection.request("GET", f"/v1/games/{seats.game_id}/view")
        reply = connection.getresponse()
        reply.read()
        connection.close()
        assert reply.status == 200, reply.status
        views.append((time.perf_counter() - started) * 1000)
    with sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"])
        renders, blanks = [], []
        for _ in range(loads):  # the baseline: a fresh context loading a page with no script
            context = browser.new_context()
            page = context.new_page()
            page.goto(f"{url}/healthz", wait_until="load")
            blanks.append(
                page.evaluate("performance.getEntriesByType('navigation')[0].loadEventEnd")
            )
            context.close()
        for _ in range(loads):
            context = browser.new_context()
            context.add_init_script(WATCH_SCRIPT)
            page = context.new_page()
            page.goto(watch)
            page.wait_for_function("window.__boardAt !== null", timeout=30_000)
            renders.append(page.evaluate("window.__boardAt"))
            context.close()
        context = browser.new_context()
        context.add_init_script(WATCH_SCRIPT)
        spectator = context.new_page()
        spectator.goto(watch)
        spectator.wait_for_selector(".status:has-text('live')", timeout=30_000)
        played = [move for move in (seats.play() for _ in range(moves)) if move is not None]
        last = played[-1][2]
        spectator.wait_for_function(f"'{last}' in window.__seen", timeout=30_000)
        seen: dict[str, float] = spectator.evaluate("window.__seen")
        browser.close()
    delays = [seen[str(version)] - sent for sent, _, version in played]
    replies = [reply for _, reply, _ in played]
    render = statistics.median(renders)
    return {
        "web_first_render_ms": round(render, 1),
        "web_view_get_ms": round(statistics.median(views), 2),
        "web_render_vs_view": round(render / statistics.median(views), 1),
        "web_plain_page_ms": round(statistics.median(blanks), 1),
        "web_render_vs_plain_page": round(render / statistics.median(blanks), 1),
        "web_spectator_p50_ms": round(statistics.median(delays), 1),
        "web_spectator_max_ms": round(max(delays), 1),
        "web_reply_p50_ms": round(statistics.median(replies), 1),
        "web_spectator_vs_reply": round(statistics.median(delays) / statistics.median(replies), 2),
        "web_moves_watched": len(delays),
    }


def web_figures(redis_url: str, loads: int = 10, moves: int = 30) -> dict[str, Any]:
    """Every web figure, or why they could not be measured."""
    if not (WEB_DIST / "index.html").is_file():
        return {"web_skipped": f"the web client is not built in {WEB_DIST} (make web)"}
    with served(redis_url) as url:
        figures = asset_figures(url)
        if not CHROMIUM.is_file():
            figures["web_skipped"] = f"no Chromium at {CHROMIUM} (make browser)"
            return figures
        if importlib.util.find_spec("playwright") is None:
            figures["web_skipped"] = "Playwright is not installed (pip install -e '.[test]')"
            return figures
        figures.update(browser_figures(url, loads, moves))
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--loads", type=int, default=10, help="page loads for the first render")
    parser.add_argument("--moves", type=int, default=30, help="moves the spectator watches")
    args = parser.parse_args()
    # The served API logs a line per request: the figures are the output here.
    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.WARNING))
    redis_url = os.environ.get("SKALD_REDIS_URL") or os.environ.get("REDIS_URL", REDIS_URL_DEFAULT)
    print(json.dumps(web_figures(redis_url, args.loads, args.moves), indent=2))


if __name__ == "__main__":
    main()
