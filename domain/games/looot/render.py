"""A plain-text drawing of a Looot table, for terminals and logs: the main board with its
stacks and Vikings, the ocean's Longships, the Trophies, and every player's Fjord."""

from __future__ import annotations

from collections.abc import Mapping

from contracts.games.looot import Hex
from domain.games.looot.components import LONGSHIPS, SHIELDS, TROPHY_POINTS
from domain.games.looot.fjord import SITE_SPACES, TILE_SPACES
from domain.games.looot.state import LoootState, PlayerState, step
from domain.hexgrid import axial_to_even_q

_LETTER = {
    "axe": "X",
    "wood": "W",
    "sheep": "S",
    "gold": "G",
    "house": "H",
    "watchtower": "T",
    "castle": "C",
}
_SITE_LETTER = {"port": "P", "altar": "A", "jarl_palace": "J"}
LEGEND = (
    "X axe  W wood  S sheep  G gold  H house  T watchtower  C castle (:n tiles left)  "
    "digits: seats of the Vikings there  ~n ocean with Longship n  Ln Longship (* filled)  "
    "P/A/J construction sites (* completed)"
)


def draw_hexes(labels: Mapping[Hex, str], width: int = 4) -> list[str]:
    """Flat-top hexes as text: a column every `width` characters, even columns half lower."""
    if not labels:
        return []
    places = {space: axial_to_even_q(space) for space in labels}
    left = min(col for col, _ in places.values())
    top = min(row for _, row in places.values())
    lines: dict[int, dict[int, str]] = {}
    for space, (col, row) in places.items():
        line = 2 * (row - top) + (1 if col % 2 == 0 else 0)
        lines.setdefault(line, {})[col - left] = labels[space]
    out = []
    for line in range(max(lines) + 1):
        text = ""
        for col, label in sorted(lines.get(line, {}).items()):
            text = text.ljust(col * width) + label
        out.append(text.rstrip())
    return out


def _board_labels(state: LoootState) -> dict[Hex, str]:
    labels: dict[Hex, str] = {}
    for space, terrain in state.board.land.items():
        if space in state.stacks:
            labels[space] = f"{_LETTER[terrain]}:{state.stacks[space]}"
        else:
            seats = "".join(str(seat) for seat in state.vikings.get(space, ()))
            labels[space] = _LETTER[terrain] + seats
    for space, ship in zip(state.board.ocean, state.market, strict=True):
        labels[space] = "~" + ("" if ship is None else str(ship))
    return labels


def _fjord_labels(player: PlayerState) -> dict[Hex, str]:
    labels = {space: "." for space in TILE_SPACES}
    labels |= {space: _LETTER[tile] for space, tile in player.tiles.items()}
    for space, ship in player.longships.items():
        labels[space] = f"L{ship}" + ("*" if ship in player.filled else "")
    for site, space in SITE_SPACES.items():
        labels[space] = _SITE_LETTER[site] + ("*" if site in player.completed else "")
    return labels


def render_text(state: LoootState) -> str:
    """A readable drawing of the main board, the market, the Trophies and every Fjord."""
    lines = [LEGEND, "", *draw_hexes(_board_labels(state)), ""]
    market = ", ".join(
        f"{slot}: L{ship} {_describe(ship)}" if ship is not None else f"{slot}: empty"
        for slot, ship in enumerate(state.market)
    )
    lines.append(f"Ocean: {market}; bag: {len(state.bag)}")
    trophies = ", ".join(
        f"{need} axes {TROPHY_POINTS[need]} pts" + ("" if holder is None else f" (seat {holder})")
        for need, holder in sorted(state.trophies.items())
    )
    lines.append(f"Trophies: {trophies}")
    for seat, player in enumerate(state.players):
        shields = ", ".join(s for s in SHIELDS if s in player.shields) or "none"
        lines += [
            "",
            f"Seat {seat}: {player.vikings_left} Vikings left; Shields: {shields}; "
            f"Trophy: {player.trophy or '-'}; tiles lost: {player.tiles_lost}",
        ]
        lines += ["  " + line for line in draw_hexes(_fjord_labels(player))]
    turn = state.turn
    if turn is None:
        lines += ["", "Game over."]
    else:
        pending = ", ".join(turn.pending) or "none"
        lines += ["", f"Seat {turn.seat} to act ({step(state)}); tiles to place: {pending}"]
    return "\n".join(lines)


def _describe(longship: int) -> str:
    ship = LONGSHIPS[longship]
    needs = "".join(_LETTER[tile] for tile in ship.needs)
    return f"({needs} -> +{ship.bonus} {ship.boosts})"
