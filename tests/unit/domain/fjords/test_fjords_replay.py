"""Replaying a Fjords game shares nothing mutable between the states it builds.

The fold caches what never changes (each player count's sorted bag, the immutable tiles and
pieces it puts on the board); these tests pin down that no state can change another.
"""

from __future__ import annotations

from contracts.base import Event
from contracts.games.fjords import FjordsConfig
from domain.bots import RandomBot
from domain.chance import Chance
from domain.engine import decide, fold
from domain.games.fjords import GAME


def recorded_game(players: int, seed: int) -> list[Event]:
    """The events of one seeded random game, played to its end."""
    chance = Chance(f"replay {players} {seed}".encode())
    events = GAME.setup(FjordsConfig(players=players), chance)
    state = fold(GAME, events)
    bot = RandomBot(seed)
    while acting := GAME.to_act(state):
        command = bot.choose(GAME, state, acting[0])
        assert command is not None
        new = decide(GAME, state, command, acting[0], chance)
        state = fold(GAME, new, state)
        events += new
    return events


def test_a_bag_handed_out_is_the_callers_own() -> None:
    # Given the bag of a 4-player game, emptied by its caller
    bag = GAME.tiles.bag_for(4)
    bag.clear()
    # When another 4-player game asks for its bag
    again = GAME.tiles.bag_for(4)
    # Then it holds every landscape tile, sorted by id
    assert again == sorted(GAME.tiles.landscape)


def test_the_bags_shrink_with_the_player_count_as_the_rule_book_says() -> None:
    # Given the shipped tile set, whose tiles are marked "3", "4" or not at all
    by_mark = {
        mark: [t.id for t in GAME.tiles.landscape.values() if t.mark == mark] for mark in ("3", "4")
    }
    everything = set(GAME.tiles.landscape)
    assert by_mark["3"] and by_mark["4"]
    # When bags are asked for 2, 3 and 4 players (twice, the second from the cache)
    for _ in range(2):
        bags = {players: GAME.tiles.bag_for(players) for players in (2, 3, 4)}
        # Then 3 players leave out the tiles marked "4", and 2 players those marked "3" too
        assert set(bags[4]) == everything
        assert set(bags[3]) == everything - set(by_mark["4"])
        assert set(bags[2]) == everything - set(by_mark["4"]) - set(by_mark["3"])
        assert all(bag == sorted(bag) for bag in bags.values())


def test_folding_on_from_one_replay_leaves_another_replay_unchanged() -> None:
    # Given two replays of the first half of the same recorded game
    events = recorded_game(players=3, seed=7)
    half = len(events) // 2
    first, second = fold(GAME, events[:half]), fold(GAME, events[:half])
    assert first == second
    # When the first is folded on to the end of the game
    fold(GAME, events[half:], first)
    # Then the second still equals a fresh replay of the first half, not the finished game
    assert second == fold(GAME, events[:half])
    assert second != first
    # And folding the second on gives the same finished game
    assert fold(GAME, events[half:], second) == first
