"""The checks every phase's commands share: the phase is right, the card is held."""

from __future__ import annotations

from contracts.games.landnam import PlayFate
from domain.errors import IllegalCommand
from domain.games.landnam.state import LandnamState


def require_phase(state: LandnamState, *phases: str) -> None:
    """Refuse a command outside its phase."""
    if state.turn.phase not in phases:
        raise IllegalCommand(
            "landnam.phase.wrong",
            f"That cannot be done now (phase {state.turn.phase}).",
            phase=state.turn.phase,
        )


def require_card(state: LandnamState, seat: int, command: PlayFate) -> None:
    """Refuse a card the seat does not hold."""
    if command.card not in state.players[seat].fate:
        raise IllegalCommand("landnam.fate.not_held", f"You hold no {command.card} card.")
