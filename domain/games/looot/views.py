"""What players see: the view Struct (all public but the bag's content) and a text drawing."""

from __future__ import annotations

from collections.abc import Mapping

from contracts.games.looot import (
    ConstructionSite,
    FjordLongship,
    FjordTile,
    Hex,
    LandSpace,
    LongshipCard,
    LoootView,
    OceanSlot,
    PlayerFjord,
    TrophyView,
    TurnView,
)
from domain.games.looot.components import LONGSHIPS, SHIELDS, SITES, TROPHY_POINTS, site_card
from domain.games.looot.fjord import SITE_SPACES, TILE_SPACES
from domain.games.looot.state import LoootState, PlayerState, step
from domain.hexgrid import axial_to_even_q


def longship_card(longship: int) -> LongshipCard:
    """The public face of a Longship."""
    ship = LONGSHIPS[longship]
    return LongshipCard(id=ship.id, boosts=ship.boosts, bonus=ship.bonus, needs=ship.needs)


def _player_fjord(seat: int, player: PlayerState) -> PlayerFjord:
    return PlayerFjord(
        seat=seat,
        vikings_left=player.vikings_left,
        shields=tuple(shield for shield in SHIELDS if shield in player.shields),
        tiles=tuple(FjordTile(space=s, tile=t) for s, t in sorted(player.tiles.items())),
        longships=tuple(
            FjordLongship(space=s, longship=longship_card(ship), filled=ship in player.filled)
            for s, ship in sorted(player.longships.items())
        ),
        sites=tuple(
            ConstructionSite(
                site=site,
                card=player.sites[site],
                space=SITE_SPACES[site],
                needs=site_card(site, player.sites[site]).needs,
                points=site_card(site, player.sites[site]).points,
                completed=site in player.completed,
            )
            for site in SITES
        ),
        trophy=player.trophy,
        tiles_lost=player.tiles_lost,
    )


def view(state: LoootState, seat: int | None) -> LoootView:
    """The table as `seat` sees it: everything but the bag's content (the same for all)."""
    board = state.board
    turn = state.turn
    return LoootView(
        viewer=seat,
        players=len(state.players),
        faces=state.faces,
        first_seat=state.first_seat,
        land=tuple(
            LandSpace(
                space=space,
                terrain=terrain,
                vikings=state.vikings.get(space, ()),
                tiles_left=state.stacks.get(space, 0),
            )
            for space, terrain in sorted(board.land.items())
        ),
        ocean=tuple(
            OceanSlot(
                slot=slot,
                space=space,
                longship=None if ship is None else longship_card(ship),
            )
            for slot, (space, ship) in enumerate(zip(board.ocean, state.market, strict=True))
        ),
        bag_size=len(state.bag),
        trophies=tuple(
            TrophyView(axes=need, points=TROPHY_POINTS[need], holder=holder)
            for need, holder in sorted(state.trophies.items())
        ),
        fjord_spaces=TILE_SPACES,
        fjords=tuple(_player_fjord(s, player) for s, player in enumerate(state.players)),
        turn=None
        if turn is None
        else TurnView(
            seat=turn.seat,
            step=step(state),
            vikings_placed=turn.vikings_placed,
            pending=tuple(turn.pending),
            longship_taken=turn.longship_taken,
            trophy_claimed=turn.trophy_claimed,
        ),
    )


# --- Text drawing --------------------------------------------------------------------------

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
