"""A Fire & Axe game played to its end by clicks, its result and rematch on screen; resigning
and cancelling from the table."""

from __future__ import annotations

import random
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser

from .conftest import WebService
from .pages import (
    STEP_MS,
    against_bots,
    become_player,
    create_game,
    play_until_over,
    shown_deadlines,
    shown_scores,
)

SEED = 23


def turn_of(url: str, game_id: str) -> dict:
    reply = httpx.get(f"{url}/v1/games/{game_id}/turn", timeout=15)
    assert reply.status_code == 200, reply.text
    turn: dict = reply.json()
    return turn


def test_a_fire_and_axe_game_to_its_end_shows_names_ranks_and_offers_a_rematch(
    web_service: WebService, browser: Browser, screenshots: Path
) -> None:
    """Ingrid plays a one-round Fire & Axe game against two bots by clicks, to the end: the
    table names its players, the result lists each seat's rank and points as the API's outcome
    has them, and the rematch leads to a new game of the same kind, waiting for its players."""
    page, game_id, errors = against_bots(
        browser, web_service.url, "Ingrid", "fire-and-axe", 3, {"round_limit": 1}
    )
    page.wait_for_selector("text=You are Ingrid (seat 0)", timeout=STEP_MS)

    clicks = play_until_over([page], random.Random(SEED))

    outcome = turn_of(web_service.url, game_id)["outcome"]
    assert clicks > 0 and outcome is not None
    shown = shown_scores(page)
    assert shown == {s["seat"]: (s["rank"], s["total"]) for s in outcome["scores"]}
    assert "Ingrid" in page.inner_text(".outcome")
    assert "Ingrid (you)" in page.inner_text("table.seats")
    assert page.locator("text=Resign").count() == 0
    page.screenshot(path=str(screenshots / "fire-and-axe-result.png"), full_page=True)

    page.click("section[aria-label='Game actions'] >> text=Rematch")
    page.wait_for_function("id => !location.hash.endsWith(id)", arg=game_id, timeout=STEP_MS)
    page.wait_for_selector("section[aria-label='Waiting room']", timeout=STEP_MS)
    rematch_id = page.evaluate("location.hash").rsplit("/", 1)[-1]
    rematch = turn_of(web_service.url, rematch_id)
    assert rematch_id != game_id and rematch["phase"] == "open"
    assert page.evaluate("location.hash").startswith("#/fire-and-axe/")
    assert not errors, errors


def test_resign_and_cancel_from_the_table(web_service: WebService, browser: Browser) -> None:
    """Cancel is offered while the game waits (asked twice) and cancels it; in a started game,
    resigning hands the seat to a bot, which plays it on."""
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    become_player(page, web_service.url, "Sigrid")
    waiting = create_game(page, "landnam", 3)
    actions = page.locator("section[aria-label='Game actions']")
    actions.locator("text=Cancel this game").click()
    actions.locator("text=Yes, cancel it for everyone").click()
    page.wait_for_selector("text=the game was cancelled", timeout=STEP_MS)
    assert turn_of(web_service.url, waiting)["phase"] == "cancelled"

    page.goto(f"{web_service.url}/play/")
    playing = create_game(page, "landnam", 3)
    page.click("text=Start now, with bots in the free seats")
    page.wait_for_selector("svg.board", timeout=STEP_MS)
    actions.locator("text=Resign").click()
    actions.locator("text=No").click()
    assert actions.locator("text=Yes, resign").count() == 0
    actions.locator("text=Resign").click()
    actions.locator("text=Yes, resign: a bot plays my seat").click()
    page.wait_for_selector("text=You resigned", timeout=STEP_MS)
    # Every seat is a bot's now: they play the game on without anyone clicking.
    version = turn_of(web_service.url, playing)["version"]
    page.wait_for_function(
        "v => Number(document.querySelector('.table').dataset.state.split('|')[0]) > v",
        arg=version + 5,
        timeout=STEP_MS,
    )
    assert page.locator(".your-turn").count() == 0


def test_a_timed_game_shows_the_clock_of_the_seat_to_act(
    web_service: WebService, browser: Browser
) -> None:
    """A Fjords game with an hour per move, two players seated over the API: the watch page
    shows the clock of the seat to act, at the deadline the API's turn gives, by its name."""
    url = web_service.url
    body = {"game": "fjords", "config": {"players": 2}, "clock": {"per_move_s": 3600}}
    created = httpx.post(f"{url}/v1/games", json=body, timeout=15)
    assert created.status_code == 201, created.text
    game_id = created.json()["game_id"]
    for name in ("Astrid", "Bjorn"):
        joined = httpx.post(f"{url}/v1/games/{game_id}/seats", json={"name": name}, timeout=15)
        assert joined.status_code == 201, joined.text
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    page.goto(f"{url}/play/#/fjords/{game_id}/watch")
    page.wait_for_selector(".clocks li[data-seat]", timeout=STEP_MS)
    turn = turn_of(url, game_id)
    deadlines = {int(seat): at for seat, at in turn["deadlines"].items()}
    assert deadlines and set(deadlines) == set(turn["to_act"])
    assert shown_deadlines(page) == deadlines
    names = {0: "Astrid", 1: "Bjorn"}
    text = page.inner_text(".clocks")
    assert all(names[seat] in text for seat in deadlines) and "left to play" in text
    assert page.locator("section[aria-label='Game actions']").count() == 0  # a spectator


@pytest.mark.parametrize(
    ("clock", "expected"),
    [
        ({"mode": "move", "per-move": "3600"}, {"per_move_s": 3600, "total_s": 0}),
        (
            {"mode": "total", "per-move": "3600", "total": "90", "increment": "15"},
            {"per_move_s": 3600, "total_s": 5400, "increment_s": 15},
        ),
    ],
)
def test_a_game_created_with_a_clock_in_the_lobby_shows_the_time_left(
    web_service: WebService, browser: Browser, clock: dict[str, str], expected: dict[str, int]
) -> None:
    """Astrid creates a Fjords game with a turn clock from the lobby's form (a time per move;
    a total time with an increment), Bjorn takes the other seat over the API: the game runs
    with that clock, and Astrid's table shows the time left of the seat to act, at the
    deadline the API's turn gives."""
    url = web_service.url
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    become_player(page, url, "Astrid")
    game_id = create_game(page, "fjords", 2, clock=clock)
    joined = httpx.post(f"{url}/v1/games/{game_id}/seats", json={"name": "Bjorn"}, timeout=15)
    assert joined.status_code == 201, joined.text

    events = httpx.get(f"{url}/v1/games/{game_id}/events", timeout=15).json()["events"]
    clock_set = [r["event"]["clock"] for r in events if r["event"]["type"] == "ClockSet"]
    assert len(clock_set) == 1, events
    assert {name: clock_set[0][name] for name in expected} == expected
    page.wait_for_selector(".clocks li[data-seat]", timeout=STEP_MS)
    turn = turn_of(url, game_id)
    deadlines = {int(seat): at for seat, at in turn["deadlines"].items()}
    assert deadlines and set(deadlines) == set(turn["to_act"])
    assert shown_deadlines(page) == deadlines
    # The time left, in words ("59:58", "1:00:00"): under the hour a move has, more than nothing.
    page.wait_for_function(
        "() => { const t = document.querySelector('.clocks li[data-seat] time');"
        " const s = t ? t.textContent.split(':').reduce((a, p) => a * 60 + Number(p), 0) : 0;"
        " return s > 0 && s <= 3600; }",
        timeout=STEP_MS,
    )
    assert "left to play" in page.inner_text(".clocks")


def test_a_clock_the_api_refuses_creates_nothing_and_says_why(
    web_service: WebService, browser: Browser
) -> None:
    """A total time of more than a year: the lobby shows the API's refusal and stays."""
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    become_player(page, web_service.url, "Astrid")
    page.select_option("select[name=game]", "fjords")
    page.check("input[name=clock][value=total]")
    page.fill("input[name=clock-total]", str(400 * 24 * 60))
    page.click("text=Create and sit down")
    alert = page.locator("form[aria-label='Create a game'] [role=alert]")
    alert.wait_for(timeout=STEP_MS)
    assert alert.inner_text().strip()
    assert page.evaluate("location.hash") in ("", "#/")
    token = page.evaluate("JSON.parse(localStorage.getItem('skald.player')).token")
    mine = httpx.get(
        f"{web_service.url}/v1/players/me/games",
        headers={"authorization": f"Bearer {token}"},
        timeout=15,
    )
    assert mine.status_code == 200 and mine.json()["games"] == [], mine.text
