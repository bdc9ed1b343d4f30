"""Rules revisions: a game keeps the rules it was set up under. Decisions 17 to 20 came with
revision 2; a game whose TableSetUp records revision 1, as every game stored before does,
keeps the old rules in exactly those corners, since replay and the fairness check re-derive
its commands (and the legal commands its bots chose among)."""

from __future__ import annotations

import msgspec
from fire_and_axe_helpers import SEED, Table, kinds, new_table

from contracts.games.fire_and_axe import (
    FireAndAxeConfig,
    GameEnded,
    PlayRune,
    Raid,
    TableSetUp,
    TakeTreasure,
)
from domain.chance import Chance
from domain.engine import fold, setup_as_recorded
from domain.games.fire_and_axe import GAME
from domain.games.fire_and_axe.data import DATA
from domain.games.fire_and_axe.state import CURRENT_REVISION

CONFIG = FireAndAxeConfig(players=3)


def test_a_new_game_is_set_up_under_revision_2() -> None:
    opening = GAME.setup(CONFIG, Chance(SEED))
    assert isinstance(opening[0], TableSetUp)
    assert opening[0].revision == CURRENT_REVISION == 2
    assert fold(GAME, opening).revision == 2


def test_a_setup_event_stored_without_a_revision_decodes_as_revision_1() -> None:
    # Given a TableSetUp as an earlier version stored it: without the revision field
    opening = GAME.setup(CONFIG, Chance(SEED))
    plain = msgspec.to_builtins(opening[0])
    del plain["revision"]
    stored = msgspec.msgpack.encode(plain)
    # When it is decoded as the game's events are
    event = msgspec.msgpack.decode(stored, type=GAME.event_type)
    # Then it is the same table, of revision 1
    assert event == msgspec.structs.replace(opening[0], revision=1)
    assert fold(GAME, [event, *opening[1:]]).revision == 1


def test_a_stored_game_s_opening_is_set_up_again_under_its_own_revision() -> None:
    old = GAME.setup(CONFIG, Chance(SEED))
    old[0] = msgspec.structs.replace(old[0], revision=1)
    assert setup_as_recorded(GAME, CONFIG, Chance(SEED), old) == old
    new = GAME.setup(CONFIG, Chance(SEED))
    assert setup_as_recorded(GAME, CONFIG, Chance(SEED), new) == new


def test_revision_1_refuses_unrest_with_the_last_crewmember() -> None:
    # Given a longship in Arles with one crewmember, a rival's Settlement there
    old, new = (new_table(revision=1), new_table())
    for table in (old, new):
        table.ship("Arles", crew=1).runes("unrest")
        table.state.settlements["Arles"] = (table.seat + 1) % 3
    # Then the old game refuses Unrest, as it did; a new one wrecks the ship (decision 18)
    assert old.refuse(PlayRune(rune="unrest")).code == "fire_and_axe.rune.last_crew"
    assert "Wrecked" in kinds(new.play(PlayRune(rune="unrest")))


def test_revision_1_refuses_a_second_war_cry_and_counts_one() -> None:
    # Given Bayeux (4) and two War Crys, one played before the roll
    old, new = (new_table(conflict_runes=False, revision=1), new_table(conflict_runes=False))
    for table in (old, new):
        table.ship("Bayeux", crew=3).runes("war_cry", "war_cry")
        table.play(PlayRune(rune="war_cry"))
    # Then the old game refuses the second, as it did; a new one stacks it (decision 19)
    assert old.refuse(PlayRune(rune="war_cry")).code == "fire_and_axe.rune.already_prepared"
    new.play(PlayRune(rune="war_cry"))
    assert old.play(Raid(), 3)[0].target == 3  # type: ignore[attr-defined]
    assert new.play(Raid(), 3)[0].target == 2  # type: ignore[attr-defined]


def test_revision_1_refuses_a_second_shield_wall_as_it_did() -> None:
    table = new_table(revision=1).ship("Lindisfarne", crew=2).runes("shield_wall", "shield_wall")
    table.play(PlayRune(rune="shield_wall"))
    refused = table.refuse(PlayRune(rune="shield_wall"))
    assert (refused.code, refused.message) == (
        "fire_and_axe.rune.already_prepared",
        "That Rune already helps this attack.",
    )


LINDISFARNE_RAID = next(s.id for s in DATA.sagas.values() if s.ports == ("Lindisfarne",))


def raid_the_last_saga(revision: int | None) -> Table:
    """With the conflict Runes, the Lindisfarne Raid Saga the last one left (deck empty), a
    longship in Lindisfarne whose town hides 7; the Raid succeeds (a 6 beats 2)."""
    table = new_table(revision=revision).ship("Lindisfarne", crew=2)
    table.state.saga_spaces = [None, LINDISFARNE_RAID, None]
    table.state.saga_deck = []
    table.state.towns["Lindisfarne"] = ("small", 7)
    table.play(Raid(), 6)
    return table


def test_revision_1_ends_the_game_at_the_last_saga_before_the_treasure() -> None:
    old, new = raid_the_last_saga(1), raid_the_last_saga(None)
    seat = new.seat
    # The old game ends with the Raid, its treasure never paid, as it did
    assert GAME.to_act(old.state) == [] and old.state.ended
    assert "treasure" not in old.player(seat).points
    # A new game waits for the treasure, then ends (decision 20)
    assert GAME.to_act(new.state) == [new.seat]
    events = new.play(TakeTreasure())
    assert events[-1] == GameEnded(reason="last_saga")
    assert new.player(seat).points["treasure"] == 7
