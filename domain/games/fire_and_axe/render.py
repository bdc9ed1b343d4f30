"""A readable text drawing of the table for terminals."""

from __future__ import annotations

from domain.games.fire_and_axe.data import DATA, PORT_NAMES, clear_days
from domain.games.fire_and_axe.state import FireAndAxeState, crew_supply


def render_text(state: FireAndAxeState) -> str:
    """The weather, the Sagas, every port, every longship and the turn, one line each."""
    weather = "  ".join(f"{zone} {clear_days(state.blue, zone)}" for zone in DATA.clockwise)
    limit = "" if state.round_limit is None else f" of {state.round_limit}"
    lines = [
        f"Round {state.round}{limit}, Era {state.era}; clear weather days: {weather}; "
        f"in demand: {state.demand}; "
        f"Saga deck {len(state.saga_deck)}, Rune deck {len(state.rune_deck)}",
        "Sagas: "
        + "; ".join(
            "-"
            if saga is None
            else f"{DATA.sagas[saga].title} ({DATA.sagas[saga].homeland} "
            f"{DATA.sagas[saga].kind} {', '.join(DATA.sagas[saga].ports)})"
            for saga in state.saga_spaces
        ),
        "",
    ]
    for name in PORT_NAMES:
        port = DATA.ports[name]
        marks = []
        if name in state.towns:
            marks.append(f"{state.towns[name][0]} town")
        if name in state.port_goods:
            marks.append(state.port_goods[name])
        if name in state.settlements:
            marks.append(f"settled by {state.settlements[name]}")
        region = port.region or ("large" if port.large else "independent")
        lines.append(f"  {name:<15} {port.value} {port.zone} {region:<15} {', '.join(marks)}")
    lines.append("")
    for seat, player in enumerate(state.players):
        lines.append(
            f"Seat {seat}: at {player.location}, crew {player.crew} "
            f"(supply {crew_supply(state, seat)}), goods {', '.join(player.goods) or '-'}, "
            f"{len(player.runes)} Runes, {sum(player.points.values())} VP, "
            f"{len(player.towns)} towns, {len(player.sagas)} Sagas"
        )
    turn = state.turn
    if turn is None:
        lines.append("Game over.")
    else:
        pending = "" if turn.pending is None else f"; pending {turn.pending.kind}"
        lines.append(
            f"Seat {turn.seat} to act: Days {turn.preparation} preparation + "
            f"{turn.sailing} sailing{pending}"
        )
    return "\n".join(lines)
