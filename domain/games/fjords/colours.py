"""Which colour a placed piece is: the seat's only colour, or (Epic) the one it names.

Rule book, Epic variant: each player has pieces of two colours and "treat[s] both of their colours
as their own pieces during gameplay and scoring" (decision 9 in this package's README: pieces keep
their colour for display). So a seat with two colours says which one each longhouse or viking is; a
seat with one colour may leave `colour` out, or name its own colour.

`legal_commands` lists one form per distinct move: no colour for a one-colour seat, each colour
with pieces left for a two-colour seat. `decide` also accepts the equivalent forms (a one-colour
seat naming its colour; a two-colour seat leaving it out when only one colour has that piece
left), as it accepts every rotation of a symmetric tile.
"""

from __future__ import annotations

from contracts.games.fjords import PieceKind
from domain.errors import IllegalCommand
from domain.games.fjords.state import FjordsState, Supply


def _left(supply: Supply, kind: PieceKind) -> int:
    return supply.vikings if kind == "viking" else supply.longhouses


def colour_choices(state: FjordsState, seat: int, kind: PieceKind) -> list[str | None]:
    """The `colour` values of the legal commands placing a piece of `kind` (empty: none left)."""
    supplies = state.supplies[seat]
    stocked = [supply.colour for supply in supplies if _left(supply, kind) > 0]
    if len(supplies) == 1:
        return [None] if stocked else []
    return list(stocked)


def choose_colour(state: FjordsState, seat: int, kind: PieceKind, requested: str | None) -> str:
    """The colour of the piece to place, or IllegalCommand saying what is wrong with `requested`.

    The caller has checked that the seat has a piece of `kind` left in some colour.
    """
    supplies = state.supplies[seat]
    if requested is not None:
        supply = next((s for s in supplies if s.colour == requested), None)
        if supply is None:
            raise IllegalCommand(
                "fjords.colour.not_yours",
                f"You play {_names(supplies)}, not {requested}.",
                colour=requested,
                yours=[s.colour for s in supplies],
            )
        if _left(supply, kind) == 0:
            raise IllegalCommand(
                "fjords.colour.none_left",
                f"You have no {requested} {kind}s left; use another of your colours.",
                colour=requested,
                kind=kind,
            )
        return requested
    stocked = [s.colour for s in supplies if _left(s, kind) > 0]
    if len(stocked) > 1:
        raise IllegalCommand(
            "fjords.colour.required",
            f"You play two colours: say which colour this {kind} is ({' or '.join(stocked)}).",
            kind=kind,
            choices=stocked,
        )
    return stocked[0]


def _names(supplies: list[Supply]) -> str:
    return " and ".join(s.colour for s in supplies)
