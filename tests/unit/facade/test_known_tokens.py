"""KnownTokens: seat token hashes remembered per game, re-read from the store on a miss."""

from __future__ import annotations

import pytest

from service.facade.known_tokens import KnownTokens

pytestmark = pytest.mark.anyio

ALICE = b"a" * 32
BOB = b"b" * 32


class FakeSeats:
    """Token hashes by game and seat, counting how often they are read."""

    def __init__(self) -> None:
        self.hashes: dict[str, dict[int, bytes]] = {}
        self.reads = 0

    async def token_hashes(self, game_id: str) -> dict[int, bytes]:
        self.reads += 1
        return dict(self.hashes.get(game_id, {}))


async def test_a_known_token_is_matched_without_reading_again() -> None:
    # given a token already matched once
    seats = FakeSeats()
    seats.hashes["g1"] = {0: ALICE}
    tokens = KnownTokens(seats.token_hashes, size=10)
    assert await tokens.seat_of("g1", ALICE.__eq__) == 0

    # when it comes again
    seat = await tokens.seat_of("g1", ALICE.__eq__)

    # then it is its seat, and the store was read only the first time
    assert seat == 0
    assert seats.reads == 1


async def test_a_seat_taken_after_the_first_read_is_found() -> None:
    # given the game read while only seat 0 was taken
    seats = FakeSeats()
    seats.hashes["g1"] = {0: ALICE}
    tokens = KnownTokens(seats.token_hashes, size=10)
    await tokens.seat_of("g1", ALICE.__eq__)

    # when seat 1 is taken and its token comes
    seats.hashes["g1"][1] = BOB
    seat = await tokens.seat_of("g1", BOB.__eq__)

    # then the miss read the seats again
    assert seat == 1
    assert seats.reads == 2


async def test_an_unknown_token_matches_no_seat_each_time() -> None:
    seats = FakeSeats()
    seats.hashes["g1"] = {0: ALICE}
    tokens = KnownTokens(seats.token_hashes, size=10)

    first = await tokens.seat_of("g1", BOB.__eq__)
    second = await tokens.seat_of("g1", BOB.__eq__)

    assert first is None and second is None
    assert seats.reads == 2  # misses are never cached


async def test_a_token_of_another_game_matches_nothing() -> None:
    seats = FakeSeats()
    seats.hashes = {"g1": {0: ALICE}, "g2": {0: BOB}}
    tokens = KnownTokens(seats.token_hashes, size=10)
    await tokens.seat_of("g1", ALICE.__eq__)

    assert await tokens.seat_of("g2", ALICE.__eq__) is None


async def test_the_least_recently_used_game_is_forgotten_past_the_size() -> None:
    seats = FakeSeats()
    seats.hashes = {"g1": {0: ALICE}, "g2": {0: BOB}}
    tokens = KnownTokens(seats.token_hashes, size=1)
    await tokens.seat_of("g1", ALICE.__eq__)
    await tokens.seat_of("g2", BOB.__eq__)

    assert await tokens.seat_of("g1", ALICE.__eq__) == 0
    assert seats.reads == 3  # g1 was evicted by g2 and read again
