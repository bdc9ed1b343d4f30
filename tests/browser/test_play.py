"""Whole games played by clicks in the browser, watched live by a spectator's page."""

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
    click_a_move,
    create_game,
    finished,
    play_until_over,
    shown_scores,
    shown_versions,
)

SEED = 11


def public_event_versions(url: str, game_id: str) -> list[int]:
    """Every event's version as a spectator may read them, from the API, page after page."""
    versions: list[int] = []
    after = 0
    while True:
        params = {"after": after, "limit": 100}
        page = httpx.get(f"{url}/v1/games/{game_id}/events", params=params, timeout=15).json()
        versions += [record["version"] for record in page["events"]]
        if not page["events"] or versions[-1] >= page["last_version"]:
            return versions
        after = versions[-1]


def final_turn(url: str, game_id: str) -> dict:
    reply = httpx.get(f"{url}/v1/games/{game_id}/turn", timeout=15)
    assert reply.status_code == 200, reply.text
    turn: dict = reply.json()
    return turn


def test_a_whole_fjords_game_by_clicks_two_players_joined_by_link(
    web_service: WebService, browser: Browser, screenshots: Path
) -> None:
    """Astrid creates a game, Bjorn joins by its link (the game starts once both sit), both
    play every move by clicking; a spectator's page shows every public event, in order."""
    astrid = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    bjorn = browser.new_context(viewport={"width": 390, "height": 844}).new_page()  # a phone
    become_player(astrid, web_service.url, "Astrid")
    become_player(bjorn, web_service.url, "Bjorn")
    game_id = create_game(astrid, "fjords", 2)
    link = astrid.input_value("input[aria-label='Link to this game']")
    assert game_id and game_id in link, (game_id, link)
    spectator = browser.new_context().new_page()
    spectator.goto(f"{link}/watch")
    bjorn.goto(link)
    bjorn.click("text=Take a seat")
    for page in (astrid, bjorn, spectator):
        page.wait_for_selector("svg.board", timeout=STEP_MS)
    astrid.screenshot(path=str(screenshots / "fjords-table-start.png"))

    clicks = play_until_over([astrid, bjorn], random.Random(SEED))

    assert clicks > 20
    turn = final_turn(web_service.url, game_id)
    assert turn["finished"] and turn["outcome"]["winners"]
    for page in (astrid, bjorn, spectator):
        page.wait_for_selector(".outcome", timeout=STEP_MS)
        assert "points" in page.inner_text(".outcome").lower()
    astrid.screenshot(path=str(screenshots / "fjords-table.png"), full_page=True)
    bjorn.screenshot(path=str(screenshots / "fjords-table-phone.png"), full_page=True)
    spectator.screenshot(path=str(screenshots / "fjords-watch.png"), full_page=True)

    # The spectator saw every public event from the moment it connected, once each, in order.
    api_versions = public_event_versions(web_service.url, game_id)
    seen = shown_versions(spectator)
    assert seen, "the spectator's page showed no event"
    assert seen == api_versions[api_versions.index(seen[0]) :]
    assert len(seen) >= clicks // 2
    # Nothing a seat hides: the spectator's table draws the public view (no seat is "you").
    assert "(you)" not in spectator.inner_text(".side")


def test_a_whole_looot_game_by_clicks_against_a_bot(
    web_service: WebService, browser: Browser, screenshots: Path
) -> None:
    """Gudrun creates a Looot game, starts it with a bot in the free seat, and plays every move
    of hers by clicks on the main board, her Fjord, the Longships and the Trophies."""
    gudrun = browser.new_context(viewport={"width": 1280, "height": 1000}).new_page()
    become_player(gudrun, web_service.url, "Gudrun")
    game_id = create_game(gudrun, "looot", 2)
    gudrun.click("text=Start now, with bots in the free seats")
    gudrun.wait_for_selector("svg.board", timeout=STEP_MS)
    gudrun.screenshot(path=str(screenshots / "looot-table-start.png"), full_page=True)

    clicks = play_until_over([gudrun], random.Random(SEED))

    assert clicks > 10
    turn = final_turn(web_service.url, game_id)
    assert turn["finished"] and turn["outcome"]["winners"]
    assert "points" in gudrun.inner_text(".outcome").lower()
    gudrun.screenshot(path=str(screenshots / "looot-table.png"), full_page=True)


@pytest.mark.parametrize("game", ["landnam", "fire-and-axe"])
def test_landnam_and_fire_and_axe_tables_draw_and_play_by_clicks(
    web_service: WebService, browser: Browser, screenshots: Path, game: str
) -> None:
    """A three-seat game against two bots: the table draws, and moves are played by clicks."""
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    become_player(page, web_service.url, "Ingrid")
    game_id = create_game(page, game, 3)
    page.click("text=Start now, with bots in the free seats")
    page.wait_for_selector("svg.board", timeout=STEP_MS)
    chooser = random.Random(SEED)
    for _ in range(6):
        page.wait_for_selector(".your-turn, .outcome", timeout=STEP_MS)
        if finished(page):
            break
        click_a_move(page, chooser)
    assert "Ingrid (you)" in page.inner_text("table.seats")
    page.screenshot(path=str(screenshots / f"{game}-table.png"), full_page=True)
    version = final_turn(web_service.url, game_id)["version"]
    assert version > 0 and not errors, errors


def test_a_refused_move_shows_its_reason(
    web_service: WebService, browser: Browser, screenshots: Path
) -> None:
    """The same player at the same table in two windows; the second one's stream is cut, so it
    still offers a move the first window has already played: the server refuses it, and the
    page says why."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    first = context.new_page()
    become_player(first, web_service.url, "Sigrid")
    game_id = create_game(first, "fjords", 2)
    first.click("text=Start now, with bots in the free seats")
    first.wait_for_selector(".your-turn", timeout=STEP_MS)
    second = context.new_page()  # same player: same localStorage, same token
    second.route("**/stream?**", lambda route: route.abort())
    second.goto(first.url)
    second.wait_for_selector(".your-turn", timeout=STEP_MS)

    # The first window plays a tile: its row tile, then its place, then the move itself.
    tile = first.locator("svg.row-tiles .target").first.get_attribute("data-key")
    first.locator(f"[data-key='{tile}']").click()
    place = first.locator("svg.board .target").first.get_attribute("data-key")
    first.locator(f"[data-key='{place}']").click()
    move = first.locator(".choices button.move").first.get_attribute("data-move")
    first.locator(".choices button.move").first.click()
    first.wait_for_selector(".played", timeout=STEP_MS)

    # The second window, which heard nothing, offers the same move: the server refuses it.
    second.locator(f"[data-key='{tile}']").click()
    second.locator(f"[data-key='{place}']").click()
    second.locator(f".choices button.move[data-move='{move}']").click()
    refusal = second.wait_for_selector(".refusal", timeout=STEP_MS)
    text = refusal.inner_text()
    assert text.startswith("Refused: ") and len(text) > len("Refused: ") + 10, text
    second.screenshot(path=str(screenshots / "fjords-refused.png"))
    assert final_turn(web_service.url, game_id)["version"] > 0


def test_a_whole_landnam_game_by_clicks_against_two_bots(
    web_service: WebService, browser: Browser, screenshots: Path
) -> None:
    """Ingrid plays a two-round Landnám game against two bots by clicks on the island and the
    move list, to its end; the result shows each seat's points as the API's outcome has them."""
    page, game_id, errors = against_bots(
        browser, web_service.url, "Ingrid", "landnam", 3, {"max_rounds": 2}
    )

    clicks = play_until_over([page], random.Random(SEED))

    turn = final_turn(web_service.url, game_id)
    assert clicks > 0 and turn["finished"] and turn["outcome"] is not None
    shown = shown_scores(page)
    assert shown == {s["seat"]: (s["rank"], s["total"]) for s in turn["outcome"]["scores"]}
    assert "Ingrid (you)" in page.inner_text("table.seats")
    page.screenshot(path=str(screenshots / "landnam-result.png"), full_page=True)
    assert not errors, errors
