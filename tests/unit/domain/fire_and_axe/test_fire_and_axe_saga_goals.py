"""Every designed Saga can be completed from the setup by one longship following the rules
(a region's town raided before its ports are settled, one Task per port per turn)."""

from __future__ import annotations

import pytest
from fire_and_axe_helpers import Table, new_table

from contracts.games.fire_and_axe import GOODS, Raid, SagaCompleted, Settle, Trade
from domain.games.fire_and_axe.data import DATA, region_mates


def next_turn(table: Table) -> None:
    """Given: a later turn of the same player (nothing else changed meanwhile)."""
    table.turn.tried = set()
    table.turn.preparation = table.turn.sailing = 0


def raid(table: Table, port: str) -> None:
    table.ship(port, crew=3)
    table.play(Raid(), 6)
    next_turn(table)


@pytest.mark.parametrize("saga_id", sorted(DATA.sagas))
def test_each_saga_can_be_completed(saga_id: int) -> None:
    # Given the Saga face up at the start of a game without conflict Runes
    saga = DATA.sagas[saga_id]
    table = new_table(conflict_runes=False)
    table.state.saga_spaces = [saga_id, None, None]
    events = []
    # When one longship does what each goal port needs
    for port in saga.ports:
        if saga.kind == "trade":
            taken = {table.state.port_goods.get(mate) for mate in region_mates(port)}
            good = next(good for good in GOODS if good not in taken)
            table.ship(port, crew=1, goods=[good])
            events += table.play(Trade(good=good))
        elif saga.kind == "raid":
            table.ship(port, crew=3)
            events += table.play(Raid(), 6)
        else:
            for town in [port, *region_mates(port)]:
                if town in table.state.towns:
                    raid(table, town)
            table.ship(port, crew=3)
            events += table.play(Settle(dice=1), 6)
        next_turn(table)
    # Then the player completed it
    assert SagaCompleted(seat=table.seat, saga=saga_id, space=0, points=saga.points) in events
    assert saga_id in table.player().sagas
