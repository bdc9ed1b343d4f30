"""The rune stones placed during Exploration, and the points rune stones score.

Rule book, "Playing Fjords with the rune stones":
- Strength (Thor): "when the tile depicting only mountains (marked with the Strength rune
  symbol) is added to the play area, the players must place the Strength rune stone on it.
  During scoring, any viking on a tile adjacent to the Strength rune stone scores its owner 1
  additional point."
- Water (Laguz): the same placement on the tile marked with the Water symbol; "any viking on a tile
  that is connected by ocean to the Water rune stone scores its owner 1 additional point": joined to
  the stone's tile through a chain of placed tiles, each consecutive pair sharing a sea corner
  (decisions 3 and 11 in this package's README), as the Journey rune reads "connected by ocean".
- Friendship (Gyfu): whenever a Friendship tile is added, "the players must place a Friendship
  rune stone on it". "Each tile with a Friendship rune stone is considered separately. Whichever
  player has the most vikings on tiles adjacent to the Friendship rune stone scores 2 points. If
  multiple players are tied for the most they all score the 2 points. A viking may be counted in
  the scoring of multiple Friendship runes."
- Home (Odal): "On any turn in the Exploration Phase after placing a tile, a player may place
  their Home rune stone on that tile. They must then place one of their longhouses from their
  supply on top of the Home rune stone. (If the player has no longhouses left in their supply
  they may not place their Home rune stone.) During scoring, any viking belonging to the player
  that is on a tile adjacent to their Home rune scores them 1 additional point."
- General Placement Rule (decision 6 in this package's README): no longhouse or viking on a tile
  holding a rune stone, except the longhouse on top of its owner's Home rune.

Where the text is silent (decisions 12, 13 and 14 in this package's README): a Friendship stone
goes on every Friendship tile in play, Epic included; Friendship needs at least one viking; only
vikings score rune points, never longhouses.
"""

from __future__ import annotations

from contracts.games.fjords import PlaceTile, RuneStonePlaced
from domain.errors import IllegalCommand
from domain.games.fjords.evolve import Recorder
from domain.games.fjords.state import FjordsState
from domain.games.fjords.targets import connected_reach
from domain.games.fjords.tiles import Tile
from domain.hexgrid import Hex, neighbours

# Runes whose stone goes on the tile bearing their symbol as that tile is added.
TILE_RUNES = ("strength", "water", "friendship")
# Points per rune in a score's breakdown, under these names, for the runes in play.
SCORE_NAMES = {
    "strength": "strength_rune",
    "water": "water_rune",
    "friendship": "friendship_runes",
    "home": "home_rune",
}
FRIENDSHIP_POINTS = 2


def stone_for_tile(state: FjordsState, tile: Tile) -> str | None:
    """The rune stone that must go on `tile` when it is added to the play area, if any."""
    if tile.symbol in TILE_RUNES and tile.symbol in state.runes:
        return tile.symbol
    return None


def check_home_rune(state: FjordsState, command: PlaceTile, seat: int) -> None:
    """Raise IllegalCommand when the Home rune may not go with this tile placement."""
    if not command.home:
        return
    if "home" not in state.runes:
        raise IllegalCommand(
            "fjords.rune.not_in_game", "This game is played without the Home rune stones."
        )
    if not state.holds_rune(seat, "home"):
        raise IllegalCommand(
            "fjords.rune.already_used", "You have already placed your Home rune stone."
        )
    if state.longhouses_left(seat) == 0:
        raise IllegalCommand(
            "fjords.home.no_longhouse_left",
            "The Home rune needs one of your longhouses on top of it, and you have none left "
            '(rule book: "If the player has no longhouses left in their supply they may not '
            'place their Home rune stone").',
        )
    if not command.longhouse:
        raise IllegalCommand(
            "fjords.home.needs_longhouse",
            "A longhouse always goes on top of the Home rune: send longhouse=true with home=true.",
        )


def check_longhouse_tile(state: FjordsState, tile: Tile) -> None:
    """Raise IllegalCommand when a rune stone will lie on the tile (decision 6 in this package's
    README)."""
    stone = stone_for_tile(state, tile)
    if stone is not None:
        raise IllegalCommand(
            "fjords.longhouse.rune_stone_tile",
            f"The {stone.capitalize()} rune stone goes on this tile, and no longhouse may share "
            "a tile with a rune stone (General Placement Rule).",
            tile=tile.id,
            rune=stone,
        )


def place_tile_stones(record: Recorder, command: PlaceTile, seat: int, tile: Tile) -> None:
    """Emit the rune stone the new tile receives: its symbol's, or the seat's Home rune."""
    stone = stone_for_tile(record.state, tile)
    if stone is not None:
        record.emit(RuneStonePlaced(stone, command.q, command.r))
    if command.home:
        record.emit(RuneStonePlaced("home", command.q, command.r, seat))


def _vikings_of(state: FjordsState, seat: int, positions: list[Hex]) -> int:
    count = 0
    for position in positions:
        piece = state.pieces.get(position)
        if piece is not None and piece.kind == "viking" and piece.seat == seat:
            count += 1
    return count


def rune_points(state: FjordsState, seat: int) -> dict[str, int]:
    """The seat's points from each scoring rune in play, by `SCORE_NAMES` (0 when unearned)."""
    points = {SCORE_NAMES[rune]: 0 for rune in state.runes if rune in SCORE_NAMES}
    for position, stone in state.rune_stones.items():
        if stone.rune == "strength":
            points["strength_rune"] += _vikings_of(state, seat, list(neighbours(position)))
        elif stone.rune == "water":
            coast = connected_reach(state, position, "S")  # decision 11 in this package's README
            points["water_rune"] += _vikings_of(state, seat, list(coast))
        elif stone.rune == "home" and stone.seat == seat:
            points["home_rune"] += _vikings_of(state, seat, list(neighbours(position)))
        elif stone.rune == "friendship" and seat in friendship_leaders(state, position):
            points["friendship_runes"] += FRIENDSHIP_POINTS
    return points


def friendship_leaders(state: FjordsState, position: Hex) -> list[int]:
    """The seats with the most vikings (at least one) next to the Friendship stone, ties all."""
    around = list(neighbours(position))
    counts = [_vikings_of(state, seat, around) for seat in range(state.players)]
    best = max(counts)
    return [seat for seat, count in enumerate(counts) if count == best and best > 0]
