"""Replay and audit pages against the API: the board at version N is the API's replay at N, and
an audit page draws the alternatives the API lists."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page

from .conftest import WebService
from .history_games import play_over_api
from .pages import STEP_MS

GAMES = {"fjords": 2, "looot": 2}


@pytest.fixture(scope="module")
def finished_games(web_service: WebService) -> dict[str, str]:
    """A finished game of each kind, played over the API: game → id."""
    return {
        game: play_over_api(web_service.url, game, players, 5) for game, players in GAMES.items()
    }


def replay(url: str, game_id: str, at: int) -> dict[str, Any]:
    frame: dict[str, Any] = httpx.get(
        f"{url}/v1/games/{game_id}/replay", params={"at": at}, timeout=30
    ).json()
    return frame


def drawn(page: Page, game: str) -> dict[str, int]:
    """What the page's board shows, counted."""
    if game == "fjords":
        return {
            "tiles": page.locator("svg.board g.tile").count(),
            "pieces": page.locator("svg.board .piece").count(),
            "row": page.locator("svg.row-tiles g.tile").count(),
        }
    return {
        "vikings": page.locator("svg.board circle.viking").count(),
        "ocean longships": page.locator("svg.board .ship").count(),
        "fjord tiles": page.locator("svg.fjord-board g.has-tile").count(),
        "fjord longships": page.locator("svg.fjord-board g.has-ship").count(),
    }


def expected(view: dict[str, Any], game: str) -> dict[str, int]:
    """The same counts, from the API's view."""
    if game == "fjords":
        row = len(view["row"]) + (1 if view.get("drawn") else 0)
        return {"tiles": len(view["tiles"]), "pieces": len(view["pieces"]), "row": row}
    return {
        "vikings": sum(len(space["vikings"]) for space in view["land"]),
        "ocean longships": sum(1 for slot in view["ocean"] if slot["longship"]),
        "fjord tiles": sum(len(fjord["tiles"]) for fjord in view["fjords"]),
        "fjord longships": sum(len(fjord["longships"]) for fjord in view["fjords"]),
    }


def shown_version(page: Page) -> int:
    return int(page.inner_text("output.at").split()[1])


def wait_for_version(page: Page, version: int) -> None:
    page.wait_for_function(
        "v => { const o = document.querySelector('output.at');"
        " return o && o.textContent.startsWith('version ' + v + ' '); }",
        arg=version,
        timeout=STEP_MS,
    )


@pytest.mark.parametrize("game", list(GAMES))
def test_the_replay_slider_at_n_matches_the_apis_replay_at_n(
    web_service: WebService,
    browser: Browser,
    finished_games: dict[str, str],
    screenshots: Path,
    game: str,
) -> None:
    game_id = finished_games[game]
    last = replay(web_service.url, game_id, 1)["last_version"]
    page = browser.new_page(viewport={"width": 1280, "height": 1000})
    middle = last // 2
    page.goto(f"{web_service.url}/play/#/{game}/{game_id}/replay/{middle}")
    wait_for_version(page, middle)
    assert drawn(page, game) == expected(replay(web_service.url, game_id, middle)["view"], game)
    page.screenshot(path=str(screenshots / f"{game}-replay.png"), full_page=True)

    # The slider, from the keyboard: each step is the API's replay at that version.
    slider = page.get_by_label("Version", exact=True)
    slider.focus()
    for steps, key in ((7, "ArrowLeft"), (3, "ArrowRight")):
        for _ in range(steps):
            before = shown_version(page)
            slider.press(key)
            wait_for_version(page, before + (1 if key == "ArrowRight" else -1))
            at = shown_version(page)
            assert drawn(page, game) == expected(replay(web_service.url, game_id, at)["view"], game)
    assert shown_version(page) == middle - 4
    assert page.evaluate("location.hash").endswith(f"/replay/{middle - 4}")  # shareable

    # The step buttons and the ends.
    page.get_by_label("Last version").click()
    wait_for_version(page, last)
    assert drawn(page, game) == expected(replay(web_service.url, game_id, last)["view"], game)
    assert page.locator(".outcome").count() == 1
    page.get_by_label("First version").click()
    wait_for_version(page, 1)
    page.get_by_label("Next version").click()
    wait_for_version(page, 2)
    assert drawn(page, game) == expected(replay(web_service.url, game_id, 2)["view"], game)
    # The move list: one entry per move the API lists.
    moves = replay(web_service.url, game_id, 1)["moves"]
    assert page.locator("section.moves li").count() == len(moves)


def board_keys(alternative: dict[str, Any], game: str) -> set[str]:
    """Where the board must show an alternative (the places a click on picks it)."""
    kind = alternative["type"]
    if game == "fjords":
        return {f"hex:{alternative['q']},{alternative['r']}"} if "q" in alternative else set()
    space = alternative.get("space")
    where = {"PlaceViking": "land", "PlaceTile": "fjord", "TakeLongship": "fjord"}.get(kind)
    keys = {f"{where}:{space[0]},{space[1]}"} if where and space else set()
    if kind == "TakeLongship":
        keys.add(f"slot:{alternative['slot']}")
    if kind == "ClaimTrophy":
        keys.add(f"trophy:{alternative['axes']}")
    return keys


def canonical(command: Any) -> str:
    return json.dumps(command, sort_keys=True)


@pytest.mark.parametrize("game", list(GAMES))
def test_an_audit_page_draws_the_alternatives_the_api_lists(
    web_service: WebService,
    browser: Browser,
    finished_games: dict[str, str],
    screenshots: Path,
    game: str,
) -> None:
    game_id = finished_games[game]
    last = replay(web_service.url, game_id, 1)["last_version"]
    moves = [m for m in replay(web_service.url, game_id, last)["moves"] if m.get("first_version")]
    # From a third into the game, the first move that had a choice (a lone legal move has none).
    for move in moves[len(moves) // 3 :]:
        version = move["first_version"]
        url = f"{web_service.url}/v1/games/{game_id}/audit/{version}"
        audit = httpx.get(url, timeout=30).json()
        alternatives = audit["legal_alternatives"]
        if len(alternatives) > 1:
            break
    assert len(alternatives) > 1

    page = browser.new_page(viewport={"width": 1280, "height": 1000})
    page.goto(f"{web_service.url}/play/#/{game}/{game_id}/audit/{version}")
    page.wait_for_selector("section[aria-label='Legal alternatives'] .choices", timeout=STEP_MS)

    listed = page.eval_on_selector_all(
        "section[aria-label='Legal alternatives'] [data-move]",
        "els => els.map(e => e.dataset.move)",
    )
    assert sorted(canonical(json.loads(m)) for m in listed) == sorted(map(canonical, alternatives))
    played = page.locator(".played-move [data-move]")
    assert played.count() == 1
    assert canonical(json.loads(played.get_attribute("data-move") or "")) == canonical(
        audit["command"]["command"]
    )
    on_board = set(page.eval_on_selector_all("[data-key]", "els => els.map(e => e.dataset.key)"))
    wanted = set().union(*(board_keys(a, game) for a in alternatives))
    assert wanted and wanted <= on_board, wanted - on_board
    # The table before: the API's public view at the version before the move.
    assert drawn(page, game) == expected(audit["public_view_before"], game)
    assert "holds" in page.inner_text("section[aria-label='Hash chain']")
    assert "fair" in page.inner_text("section[aria-label='Fairness']").lower()
    page.screenshot(path=str(screenshots / f"{game}-audit.png"), full_page=True)

    # Clicking a place lists only the alternatives there.
    first = sorted(wanted)[0]
    page.locator(f"[data-key='{first}']").first.click()
    narrowed = page.eval_on_selector_all(
        "section[aria-label='Legal alternatives'] [data-move]",
        "els => els.map(e => e.dataset.move)",
    )
    assert 0 < len(narrowed) <= len(alternatives)
    assert all(first in board_keys(json.loads(m), game) for m in narrowed)
