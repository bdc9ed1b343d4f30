"""On the running service: a damaged game answers a named 500 `game.damaged` problem, never a
silent 200 with a gap or a corrupt body; a quarantined one answers 503 `game.quarantined`."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest
import redis

from .conftest import LiveService
from .damage import damage, damaged_problem, play, seated_race, skald_cli

pytestmark = pytest.mark.redis


@pytest.fixture
def http(live_service: LiveService) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=live_service.url, timeout=15) as client:
        yield client


@pytest.fixture
def direct(live_service: LiveService) -> Iterator[redis.Redis]:
    client = redis.Redis.from_url(live_service.settings.redis_url)
    yield client
    client.close()


@pytest.mark.parametrize(
    ("kind", "path"),
    [
        ("event-lost", "/events"),
        ("stream-lost", "/events"),
        ("view-corrupt", "/view"),
        ("turn-corrupt", "/turn"),
        ("meta-lost", "/events"),
        ("meta-lost", "/replay"),
        ("meta-lost", "/audit/1"),
        ("meta-lost", "/fairness"),
        ("event-lost", "/replay"),
    ],
)
def test_a_damaged_game_answers_a_named_problem(
    http: httpx.Client, direct: redis.Redis, live_service: LiveService, kind: str, path: str
) -> None:
    game_id, _ = seated_race(http)
    assert http.get(f"/games/{game_id}{path}").status_code == 200
    named = damage(direct, live_service.settings, game_id, kind)
    problem = damaged_problem(http.get(f"/games/{game_id}{path}"))
    assert named in problem["detail"]
    assert problem["details"]["damage"].startswith(named)


def test_a_game_without_its_meta_takes_no_command(
    http: httpx.Client, direct: redis.Redis, live_service: LiveService
) -> None:
    game_id, tokens = seated_race(http)
    named = damage(direct, live_service.settings, game_id, "meta-lost")
    refused = http.post(
        f"/games/{game_id}/commands",
        json={"command_id": "after", "command": {"type": "Move", "steps": 1}},
        headers={"authorization": f"Bearer {tokens[0]}"},
    )
    assert named in damaged_problem(refused)["detail"]


def test_a_lost_seat_record_is_never_given_to_a_stranger(
    http: httpx.Client, direct: redis.Redis, live_service: LiveService
) -> None:
    game_id, _ = seated_race(http, moves=1)
    named = damage(direct, live_service.settings, game_id, "seats-lost")
    assert named in damaged_problem(http.post(f"/games/{game_id}/seats", json={}))["detail"]
    assert (
        named in damaged_problem(http.post(f"/games/{game_id}/seats", json={"seat": 0}))["detail"]
    )
    # A token that matches no seat record is not told "invalid token": the records are lost
    stranger = http.get(f"/games/{game_id}/view", headers={"authorization": "Bearer nobody"})
    assert "of seats 0, 1 are missing" in damaged_problem(stranger)["detail"]


def test_events_before_a_gap_are_served_and_the_gap_is_named(
    http: httpx.Client, direct: redis.Redis, live_service: LiveService
) -> None:
    game_id, _ = seated_race(http, moves=3)
    damage(direct, live_service.settings, game_id, "event-lost")
    # A page that stops short of the gap is whole; one that crosses it is refused
    assert [
        e["version"] for e in http.get(f"/games/{game_id}/events?limit=1").json()["events"]
    ] == [1]
    last = http.get(f"/games/{game_id}/events?after=3").json()["last_version"]
    assert last > 3
    assert "event 3" in damaged_problem(http.get(f"/games/{game_id}/events?after=1"))["detail"]


def test_a_quarantined_game_refuses_reads_and_commands_until_released(
    http: httpx.Client, live_service: LiveService
) -> None:
    game_id, tokens = seated_race(http)
    quarantined = skald_cli(live_service.settings, "quarantine", game_id, "--reason", "checking")
    assert quarantined.returncode == 0, quarantined.stderr
    for answer in (
        http.get(f"/games/{game_id}/view"),
        http.get(f"/games/{game_id}/turn"),
        http.get(f"/games/{game_id}/events"),
        http.get(f"/games/{game_id}/replay"),
        http.get(f"/games/{game_id}/audit/1"),
        http.get(f"/games/{game_id}/fairness"),
        play_refused(http, game_id, tokens),
    ):
        assert answer.status_code == 503, answer.text
        assert answer.json()["code"] == "game.quarantined"
        assert "checking" in answer.json()["detail"]
    released = skald_cli(live_service.settings, "quarantine", game_id, "--release")
    assert released.returncode == 0, released.stderr
    assert http.get(f"/games/{game_id}/view").status_code == 200
    assert play(http, game_id, tokens, "after-release").json()["status"] == "applied"


def play_refused(http: httpx.Client, game_id: str, tokens: list[str]) -> httpx.Response:
    return http.post(
        f"/games/{game_id}/commands",
        json={"command_id": "during", "command": {"type": "Move", "steps": 1}},
        headers={"authorization": f"Bearer {tokens[0]}"},
    )
