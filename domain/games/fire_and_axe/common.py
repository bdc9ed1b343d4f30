"""Refusals shared by the rule modules."""

from __future__ import annotations

from typing import NoReturn

from contracts.games.fire_and_axe import WINTERING
from domain.errors import IllegalCommand
from domain.games.fire_and_axe.data import DATA
from domain.games.fire_and_axe.state import FireAndAxeState, Player, Turn, current_turn, is_port


def refuse(area: str, what: str, message: str, **details: object) -> NoReturn:
    """Raise the game's refusal `fire_and_axe.<area>.<what>`."""
    raise IllegalCommand(f"fire_and_axe.{area}.{what}", message, **details)


def require_days(turn: Turn) -> None:
    """Actions need a Day left of the seven."""
    if turn.days_left < 1:
        refuse("days", "spent", "All seven Days of this turn are spent.")


def require_at_sea(player: Player) -> None:
    """The longship must be on the map, not in the Wintering Zone."""
    if player.location == WINTERING:
        refuse("wintering", "not_on_the_map", "The longship is in the Wintering Zone.")


def require_port(player: Player) -> str:
    """Tasks happen in a port (Homelands are not ports); returns the port."""
    if not is_port(player.location):
        refuse("task", "not_in_port", "Tasks are done in a port.", location=player.location)
    return player.location


def require_untried(state: FireAndAxeState, port: str) -> None:
    """At most one Task per port per turn."""
    if port in current_turn(state).tried:
        refuse("task", "port_tried", f"A Task was already tried in {port} this turn.", port=port)


def in_homeland(player: Player) -> bool:
    """Whether the longship is in one of the Homelands."""
    return player.location in DATA.homelands
