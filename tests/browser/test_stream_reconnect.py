"""A browser's EventSource, opened with a stream ticket, reconnects by itself after its
connection is cut and resumes where it left off: no new ticket, nothing missed or repeated."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from .conftest import WebService
from .cutting_proxy import CuttingProxy

LOOOT = {"game": "looot", "config": {"players": 2}}
WAIT_S = 30.0  # a bound on waiting for the browser, not a speed assertion

FOLLOW = """([url]) => {
  window.received = [];
  window.opens = 0;
  window.failed = false;
  const source = new EventSource(url);
  source.onopen = () => { window.opens += 1; };
  source.onerror = () => { if (source.readyState === EventSource.CLOSED) window.failed = true; };
  for (const kind of ['event', 'view', 'patch']) {
    source.addEventListener(kind, (message) => {
      window.received.push([kind, Number(message.lastEventId), JSON.parse(message.data)]);
    });
  }
}"""


@pytest.fixture
def proxy(web_service: WebService) -> Iterator[CuttingProxy]:
    cutting = CuttingProxy(int(web_service.url.rsplit(":", 1)[1]))
    yield cutting
    cutting.close()


def wait_until(page: Any, predicate: str) -> Any:
    deadline = time.monotonic() + WAIT_S
    while time.monotonic() < deadline:
        value = page.evaluate(predicate)
        if value:
            return value
        assert not page.evaluate("window.failed"), "the EventSource gave up"
        page.wait_for_timeout(50)
    raise AssertionError(f"not within {WAIT_S} s: {predicate}")


def test_an_event_source_opened_with_a_ticket_resumes_by_itself_after_a_cut(
    web_service: WebService, browser: Any, proxy: CuttingProxy
) -> None:
    with httpx.Client(base_url=web_service.url, timeout=10) as http:
        # Given a seat's stream followed by the browser's own EventSource, from a ticket
        game_id = http.post("/v1/games", json=LOOOT).json()["game_id"]
        tokens = [http.post(f"/v1/games/{game_id}/seats", json={}).json()["token"] for _ in "ab"]
        auth = {"authorization": f"Bearer {tokens[0]}"}
        ticket = http.post(f"/v1/games/{game_id}/stream-tickets", headers=auth).json()["ticket"]
        page = browser.new_page()
        try:
            page.goto(f"{proxy.url}/healthz")
            page.evaluate(FOLLOW, [f"/v1/games/{game_id}/stream?ticket={ticket}"])
            wait_until(page, "window.received.length > 0")
            # When its connection is cut twice while the game is played to its end
            final = None
            for move in range(500):
                if move in (1, 6):  # each time once the EventSource is connected again
                    wait_until(page, f"window.opens >= {1 if move == 1 else 2}")
                    proxy.cut()
                turn = http.get(f"/v1/games/{game_id}/turn").json()
                if turn["finished"]:
                    final = turn["version"]
                    break
                headers = {"authorization": f"Bearer {tokens[turn['to_act'][0]]}"}
                legal = http.get(f"/v1/games/{game_id}/turn", headers=headers).json()
                body = {"command_id": f"m{move}", "command": legal["legal_commands"][0]}
                sent = http.post(
                    f"/v1/games/{game_id}/commands", json=body, params={"wait": 5}, headers=headers
                )
                assert sent.status_code == 200, sent.text
            assert final is not None
            # Then it reconnected by itself, with the same URL, and received every version
            received = wait_until(
                page,
                f"window.received.some(([k, v]) => k !== 'event' && v >= {final})"
                " && window.received",
            )
            opens = page.evaluate("window.opens")
        finally:
            page.close()
    assert opens >= 3 and proxy.connections >= 3
    events = [version for kind, version, _ in received if kind == "event"]
    assert events == sorted(set(events)), "an event came twice or out of order"
    listed = http_events(web_service, game_id, tokens[0], events[0] - 1)
    assert events == [record["version"] for record in listed if record["version"] <= final]


def http_events(web_service: WebService, game_id: str, token: str, after: int) -> Any:
    with httpx.Client(base_url=web_service.url, timeout=10) as http:
        page = http.get(
            f"/v1/games/{game_id}/events",
            params={"after": after, "limit": 1000},
            headers={"authorization": f"Bearer {token}"},
        )
        return page.json()["events"]
