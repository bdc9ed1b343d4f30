"""Sagas: completion and replacement, Eras, the Final Round tokens and the end of the game."""

from __future__ import annotations

from fire_and_axe_helpers import Table, kinds, new_table

from contracts.games.fire_and_axe import (
    WINTERING,
    DeclareTurnOver,
    EraBegan,
    GameEnded,
    PlayRune,
    Raid,
    RuneKind,
    SagaCompleted,
    SagaDiscarded,
    SagaRevealed,
    Settle,
    TakeTreasure,
    Trade,
    TreasureCollected,
)
from domain.games.fire_and_axe import GAME
from domain.games.fire_and_axe.data import DATA

CORK_DUBLIN_MAN = next(s.id for s in DATA.sagas.values() if s.ports == ("Cork", "Dublin", "Man"))
SECOND_ERA = [s.id for s in DATA.sagas.values() if s.era == 2]
THIRD_ERA = [s.id for s in DATA.sagas.values() if s.era == 3]


def with_sagas(table: Table, spaces: list[int | None], deck: list[int]) -> Table:
    """Given: these Sagas face up and this deck, top first."""
    table.state.saga_spaces = spaces
    table.state.saga_deck = deck
    return table


def test_settling_dublin_completes_the_saga_for_whoever_gives_the_final_step() -> None:
    # Given Cork and Man settled by others, Dublin's town raided, the Saga face up
    table = new_table().ship("Dublin", crew=3)
    others = [(table.seat + 1) % 3, (table.seat + 2) % 3]
    table.state.settlements |= {"Cork": others[0], "Man": others[1]}
    del table.state.towns["Dublin"]
    del table.state.towns["Iona"]
    table.state.era = 2
    nxt = SECOND_ERA[0] if SECOND_ERA[0] != CORK_DUBLIN_MAN else SECOND_ERA[1]
    with_sagas(table, [SECOND_ERA[5], CORK_DUBLIN_MAN, SECOND_ERA[4]], [nxt, *THIRD_ERA])
    # When Yellow settles Dublin
    events = table.play(Settle(dice=1), 6)
    # Then Yellow takes the Saga (no bonus VP on it) and the next one is flipped into its space
    assert SagaCompleted(seat=table.seat, saga=CORK_DUBLIN_MAN, space=1, points=0) in events
    assert table.player().sagas == [CORK_DUBLIN_MAN]
    assert events[-1] == SagaRevealed(saga=nxt, space=1)
    assert table.state.saga_spaces[1] == nxt


def test_a_saga_with_bonus_vp_pays_them_at_once() -> None:
    lindisfarne = next(s for s in DATA.sagas.values() if s.ports == ("Lindisfarne",))
    table = new_table(conflict_runes=False).ship("Lindisfarne", crew=2)
    with_sagas(table, [lindisfarne.id, None, None], [SECOND_ERA[0]])
    table.play(Raid(), 6)
    assert table.player().points["saga_bonus"] == lindisfarne.points > 0


def test_a_saga_already_fulfilled_when_flipped_is_discarded() -> None:
    # Given the Faeroes-Reykjanes trade Saga face up, Faeroes already holding a good,
    sheep = next(s for s in DATA.sagas.values() if s.ports == ("Faeroes", "Reykjanes"))
    balearics = next(s for s in DATA.sagas.values() if s.ports == ("Balearics",))
    westward = next(s for s in DATA.sagas.values() if s.ports == ("Hvarf", "Iona", "Skye"))
    baltic = next(s for s in DATA.sagas.values() if s.ports == ("Truso", "Wolin"))
    table = new_table().ship("Reykjanes", crew=1, goods=["fish"])
    table.state.port_goods |= {"Faeroes": "furs", "Hvarf": "tusks", "Iona": "tusks"}
    table.state.port_goods["Skye"] = "furs"
    table.state.settlements["Balearics"] = 1
    # and the next two cards of the deck already met
    with_sagas(table, [sheep.id, None, None], [balearics.id, westward.id, baltic.id, *THIRD_ERA])
    # When the last good of the face-up Saga is traded
    events = table.play(Trade(good="fish"))
    # Then the two met cards are discarded and the next goes face up, starting Era II
    assert kinds(events) == [
        "Traded",
        "SagaCompleted",
        "SagaDiscarded",
        "SagaDiscarded",
        "EraBegan",
        "SagaRevealed",
    ]
    assert [e.saga for e in events if isinstance(e, SagaDiscarded)] == [balearics.id, westward.id]
    assert table.state.era == 2 and EraBegan(era=2) in events
    assert table.state.saga_spaces == [baltic.id, None, None]
    assert table.state.saga_discards == [balearics.id, westward.id]


def test_the_third_era_opens_the_seventh_slot() -> None:
    # Given Era II, the Nantes-Corunna trade Saga face up with Nantes holding a good
    wine = next(s for s in DATA.sagas.values() if s.ports == ("Nantes", "Corunna"))
    table = new_table().ship("Corunna", crew=1, goods=["tusks"])
    table.state.era = 2
    table.state.port_goods["Nantes"] = "fish"
    with_sagas(table, [wine.id, None, None], [THIRD_ERA[0], THIRD_ERA[1]])
    # When Corunna gets its good, the first Era III card is placed
    events = table.play(Trade(good="tusks"))
    # Then Era III begins and seven slots are open
    assert EraBegan(era=3) in events
    assert table.state.saga_spaces[0] == THIRD_ERA[0]
    assert GAME.view(table.state, None).cargo_slots == 7


def test_the_last_card_brings_the_final_round_tokens_and_three_turns_later_the_end() -> None:
    # Given one Saga left in the deck, and one face up that the player is about to meet
    table = new_table(conflict_runes=False).ship("Arles", crew=2)
    arles_settle = next(s for s in DATA.sagas.values() if s.ports == ("Balearics",))
    with_sagas(table, [arles_settle.id, THIRD_ERA[0], THIRD_ERA[1]], [THIRD_ERA[2]])
    table.ship("Balearics", crew=2)
    holder = table.seat
    for other in range(3):
        if other != holder:
            table.ship("Skagerrak", crew=1, seat=other)
    # When the Saga is completed, the last card is placed: the tokens go to the player
    events = table.play(Settle(dice=1), 6)
    assert kinds(events)[-1] == "FinalRoundTokensTaken"
    assert table.player(holder).final_round_tokens == 3
    # Then at the start of each of the holder's later turns one token is placed
    for placed in (1, 2, 3):
        for _ in range(3):
            table.play(DeclareTurnOver())
        assert table.seat == holder and table.state.final_placed == placed
    # And the game ends at the end of the turn in which the third was placed
    events = table.play(DeclareTurnOver())
    assert events[-1] == GameEnded(reason="final_rounds")
    assert GAME.to_act(table.state) == [] and GAME.outcome(table.state) is not None


def test_completing_the_final_saga_ends_the_game_at_once() -> None:
    table = new_table().ship("Balearics", crew=2)
    arles_settle = next(s for s in DATA.sagas.values() if s.ports == ("Balearics",))
    with_sagas(table, [None, arles_settle.id, None], [])
    table.state.final_holder = (table.seat + 1) % 3
    events = table.play(Settle(dice=1), 6)
    assert events[-1] == GameEnded(reason="last_saga")
    assert GAME.to_act(table.state) == []


def test_players_without_crew_sit_out_and_the_game_ends_when_all_do() -> None:
    table = new_table().ship("Arles", crew=1)
    seat = table.seat
    sitting = (seat + 1) % 3
    for other in range(3):
        if other != seat:
            table.ship(WINTERING, crew=0, seat=other)
            for index in range(15):
                table.state.settlements[f"port-{other}-{index}"] = other
    events = table.play(DeclareTurnOver())
    assert kinds(events) == [
        "TurnPassed",
        "TurnBegan",
        "TurnPassed",
        "TurnBegan",
        "TurnPassed",
        "TurnBegan",
    ]
    assert table.seat == seat and events[1].sits_out and events[1].seat == sitting  # type: ignore[attr-defined]


def test_the_round_limit_ends_the_game_after_the_last_seat_of_the_round() -> None:
    # Given the last round of the limit, every longship at sea
    table = new_table()
    for seat in range(3):
        table.ship("Skagerrak", crew=1, seat=seat)
    table.state.round_limit = table.state.round
    # When the first two seats end their turns, the round goes on
    for _ in range(2):
        assert kinds(table.play(DeclareTurnOver())) == ["TurnPassed", "TurnBegan"]
    # Then the last seat's turn ends the game
    events = table.play(DeclareTurnOver())
    assert events[-1] == GameEnded(reason="round_limit")
    assert GAME.outcome(table.state) is not None


LINDISFARNE_RAID = next(s.id for s in DATA.sagas.values() if s.ports == ("Lindisfarne",))


def raid_the_last_saga(conflict_runes: bool, *runes: RuneKind) -> Table:
    """Given the Lindisfarne Raid Saga as the last one left (deck empty), a longship in
    Lindisfarne, its town hiding 7; when the Raid succeeds (a 6 beats 2)."""
    table = new_table(conflict_runes=conflict_runes).ship("Lindisfarne", crew=2).runes(*runes)
    with_sagas(table, [None, LINDISFARNE_RAID, None], [])
    table.state.towns["Lindisfarne"] = ("small", 7)
    table.play(Raid(), 6)
    return table


def final_scores(table: Table) -> list[int]:
    outcome = GAME.outcome(table.state)
    assert outcome is not None, "the game is over"
    return [score.total for score in outcome.scores]


def test_a_raid_completing_the_last_saga_pays_its_treasure_whatever_the_options() -> None:
    # Without the conflict Runes the treasure is paid in the Raid, then the game ends
    plain = raid_the_last_saga(conflict_runes=False)
    assert GAME.to_act(plain.state) == []
    # With them the Raid first resolves in full: the game waits for the treasure
    conflict = raid_the_last_saga(conflict_runes=True)
    seat = conflict.seat
    assert conflict.turn.pending is not None and conflict.turn.pending.kind == "treasure"
    assert conflict.state.saga_spaces[1] == LINDISFARNE_RAID
    events = conflict.play(TakeTreasure())
    # Then the Saga check runs after the treasure, and ends the game
    assert kinds(events)[:2] == ["TreasureCollected", "SagaCompleted"]
    assert events[-1] == GameEnded(reason="last_saga")
    assert conflict.player(seat).points["treasure"] == 7
    assert final_scores(conflict) == final_scores(plain)


def test_fortune_of_war_may_double_the_treasure_of_the_raid_that_ends_the_game() -> None:
    table = raid_the_last_saga(True, "fortune_of_war")
    seat = table.seat
    events = table.play(PlayRune(rune="fortune_of_war"))
    assert TreasureCollected(seat=seat, port="Lindisfarne", points=14) in events
    assert events[-1] == GameEnded(reason="last_saga")
    assert table.player(seat).points["treasure"] == 14
