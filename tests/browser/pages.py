"""What a person does in the web client, as Playwright steps: become a player, create a game,
join one by its link, and play moves by clicking the board and the move list."""

from __future__ import annotations

import random
from typing import Any

from playwright.sync_api import Browser, Page
from playwright.sync_api import TimeoutError as PlaywrightTimeout

# A generous bound for one round trip and a bot's reply; the tests assert no timing.
STEP_MS = 30_000


def become_player(page: Page, url: str, name: str) -> None:
    """Open the lobby and become a player named `name` (its token stays in localStorage)."""
    page.goto(f"{url}/play/")
    page.fill("input[name=player-name]", name)
    page.click("text=Play as this name")
    page.wait_for_selector(f"text=Playing as {name}")


def create_game(
    page: Page,
    game: str,
    players: int,
    options: dict[str, Any] | None = None,
    clock: dict[str, str] | None = None,
) -> str:
    """Create a game from the lobby form and sit down; the game's id from the page's link.
    `clock`: its `mode` ("move" or "total") and the clock fields' values by name."""
    page.select_option("select[name=game]", game)
    page.fill("input[name=players]", str(players))
    for name, value in (options or {}).items():
        if isinstance(value, bool):
            page.set_checked(f"input[name={name}]", value)
        elif isinstance(value, int):
            page.fill(f"input[name={name}]", str(value))
        else:
            page.select_option(f"select[name={name}]", str(value))
    if clock:
        page.check(f"input[name=clock][value={clock['mode']}]")
        for name, value in clock.items():
            if name != "mode":
                page.fill(f"input[name=clock-{name}]", value)
    page.click("text=Create and sit down")
    page.wait_for_selector("section[aria-label='Waiting room']", timeout=STEP_MS)
    route: str = page.evaluate("location.hash")
    game_id = route.rsplit("/", 1)[-1]
    assert route.startswith(f"#/{game}/") and game_id, route
    return game_id


def table_state(page: Page) -> str:
    return page.get_attribute(".table", "data-state") or ""


def my_turn(page: Page) -> bool:
    return page.locator(".your-turn").count() > 0


def finished(page: Page) -> bool:
    return page.locator(".outcome").count() > 0


def click_a_move(page: Page, chooser: random.Random) -> str:
    """One click towards a move: a listed move when the list is short, else a highlighted place
    on the board (which narrows the moves, or plays the only one left). What was clicked."""
    before = table_state(page)
    moves = page.locator(".choices button.move")
    if moves.count():
        picked = moves.nth(chooser.randrange(moves.count()))
        label = picked.inner_text()
        picked.click()
    else:
        targets = page.locator(".target")
        assert targets.count(), (
            f"my turn, but neither a move nor a place to click:\n{page.inner_text('.side')[:2000]}"
        )
        picked = targets.nth(chooser.randrange(targets.count()))
        label = picked.get_attribute("aria-label") or "a place"
        picked.focus()
        picked.press("Enter")  # the keyboard plays as the mouse does
    try:
        page.wait_for_function(
            "before => { const t = document.querySelector('.table');"
            " return t && t.dataset.state !== before && !t.classList.contains('busy'); }",
            arg=before,
            timeout=STEP_MS,
        )
    except PlaywrightTimeout as exc:
        side = page.inner_text(".side")[:2000]
        raise AssertionError(
            f"clicked {label!r} in state {before}; nothing changed:\n{side}"
        ) from exc
    refusal = page.locator(".refusal")
    assert refusal.count() == 0, f"a legal move was refused: {refusal.inner_text()}"
    return label


def play_until_over(pages: list[Page], chooser: random.Random, max_clicks: int = 3000) -> int:
    """Play every page's seat by clicks until the game is over; the number of clicks."""
    clicks = idle = 0
    while not all(finished(page) for page in pages):
        acted = False
        for page in pages:
            if my_turn(page) and not finished(page):
                click_a_move(page, chooser)
                clicks += 1
                acted = True
        idle = 0 if acted else idle + 1
        if not acted and len(pages) == 1:
            pages[0].wait_for_selector(".your-turn, .outcome", timeout=STEP_MS)
        elif not acted:
            pages[0].wait_for_timeout(100)  # look at every page again
            assert idle < STEP_MS / 100, "no page has a move to play, and the game is not over"
        assert clicks < max_clicks, "the game did not end"
    return clicks


def shown_versions(page: Page) -> list[int]:
    """The versions of the events a table page's log shows, oldest first."""
    versions: list[int] = page.evaluate(
        "[...document.querySelectorAll('.log li[data-version]')]"
        ".map(li => Number(li.dataset.version)).reverse()"
    )
    return versions


def shown_scores(page: Page) -> dict[int, tuple[int, int]]:
    """The result the page shows: each seat's rank and points."""
    rows = page.locator(".outcome tbody tr")
    return {
        int(rows.nth(i).get_attribute("data-seat") or -1): (
            int(rows.nth(i).get_attribute("data-rank") or 0),
            int(rows.nth(i).locator(".total").inner_text()),
        )
        for i in range(rows.count())
    }


def shown_deadlines(page: Page) -> dict[int, int]:
    """The turn clocks the page shows: each waited-for seat's deadline (ms since the epoch)."""
    clocks = page.locator(".clocks li[data-seat]")
    return {
        int(clocks.nth(i).get_attribute("data-seat") or -1): int(
            clocks.nth(i).get_attribute("data-deadline") or 0
        )
        for i in range(clocks.count())
    }


def against_bots(
    browser: Browser, url: str, name: str, game: str, players: int, options: dict[str, Any]
) -> tuple[Page, str, list[str]]:
    """`name` creates a game and starts it with bots in the free seats: the page, the game's id
    and the page's errors (a list the page fills as they happen)."""
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    become_player(page, url, name)
    game_id = create_game(page, game, players, options)
    page.click("text=Start now, with bots in the free seats")
    page.wait_for_selector("svg.board", timeout=STEP_MS)
    return page, game_id, errors
