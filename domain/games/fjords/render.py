"""A plain-text drawing of a Fjords table, for terminals and logs.

Each tile is drawn as three lines, its six corners around its piece:

    NW N NE        M P P
     piece    e.g.  L0        (L: longhouse, V: viking, then the seat; "." vacant)
    SW S SE        S P P

A rune stone shows as its first three letters (`Fri`); a longhouse on its owner's Home rune as
`L0h`; a Wisdom stone on an empty space as `Wis0` (with its owner's seat). Rows of hexes are
shifted half a tile, as pointy-top hexes lie.
"""

from __future__ import annotations

from domain.games.fjords.scoring import outcome
from domain.games.fjords.state import FjordsState
from domain.games.fjords.tiles import TileSet
from domain.games.fjords.variants import MATCH_GAMES
from domain.hexgrid import Hex

CELL_WIDTH = 6  # characters per tile horizontally
LEGEND = (
    "corners: NW N NE / SW S SE; M mountains, P plains, S sea; L longhouse, V viking + seat; "
    "Str Wat Fri Wis: rune stones, h: on a Home rune"
)


def render_text(state: FjordsState, tiles: TileSet) -> str:
    """The whole table: status, row, board, seats and, at the end, the scores."""
    lines = [_status(state), *_tiles_to_place(state, tiles), ""]
    lines += _board(state)
    lines += ["", LEGEND, ""]
    for seat in range(state.players):
        supply = ", ".join(
            f"{s.colour} {s.vikings} vikings {s.longhouses} longhouses"
            for s in state.supplies[seat]
        )
        runes = f", runes: {' '.join(state.runes_held[seat])}" if state.runes_held[seat] else ""
        lines.append(f"seat {seat}: {supply}{runes}{'  (out)' if state.out[seat] else ''}")
    result = outcome(state)
    if result is not None:
        lines.append("")
        for score in sorted(result.scores, key=lambda s: s.rank):
            parts = ", ".join(f"{rule} {points}" for rule, points in score.breakdown.items())
            lines.append(f"#{score.rank} seat {score.seat}: {score.total} ({parts})")
        if result.tie_break:
            lines.append(result.tie_break)
    return "\n".join(lines)


def _status(state: FjordsState) -> str:
    turn = "game over" if state.active is None else f"seat {state.active} to act"
    game = f"{state.variant} game"
    if state.variant == "classic":
        game += f" {state.match_game} of {MATCH_GAMES}"
    if state.runes:
        game += f" with runes {', '.join(state.runes)}"
    return f"Fjords, {game}: {state.phase}, {turn}, {len(state.bag)} tiles in bag"


def _tiles_to_place(state: FjordsState, tiles: TileSet) -> list[str]:
    if state.variant != "classic":
        return ["row: " + _shown(state.row, tiles)]
    drawn = [] if state.drawn is None else [state.drawn]
    return [f"drawn: {_shown(drawn, tiles)}", f"set aside: {_shown(state.set_aside, tiles)}"]


def _shown(tile_ids: list[int], tiles: TileSet) -> str:
    shown = []
    for tile in map(tiles.tile, tile_ids):
        extra = f" {tile.symbol}" if tile.symbol else ""
        shown.append(f"[{tile.id} {tile.corners}{extra}]")
    return " ".join(shown) or "(empty)"


def _mark(state: FjordsState, position: Hex) -> str:
    """What lies on a tile: its piece, its rune stone, both (Home), or "." when vacant."""
    piece = state.pieces.get(position)
    stone = state.rune_stones.get(position)
    if piece is not None:
        mark = ("L" if piece.kind == "longhouse" else "V") + str(piece.seat)
        return mark + ("h" if stone is not None else "")
    if stone is not None:
        return stone.rune[:3].capitalize()
    return "."


def _board(state: FjordsState) -> list[str]:
    if not state.board:
        return ["(no tiles)"]
    spaces = [h for h in state.rune_stones if h not in state.board]  # Wisdom stones
    rows = [r for _, r in [*state.board, *spaces]]
    columns = [CELL_WIDTH * q + CELL_WIDTH // 2 * r for q, r in [*state.board, *spaces]]
    left, top = min(columns), min(rows)
    width = max(columns) - left + CELL_WIDTH
    canvas = [[" "] * width for _ in range(4 * (max(rows) - top + 1))]
    for (q, r), placed in state.board.items():
        x = CELL_WIDTH * q + CELL_WIDTH // 2 * r - left
        y = 4 * (r - top)
        c = placed.corners
        mark = _mark(state, (q, r))
        for dy, text in enumerate((f"{c[5]} {c[0]} {c[1]}", f"{mark:^5}", f"{c[4]} {c[3]} {c[2]}")):
            canvas[y + dy][x : x + len(text)] = text
    for q, r in spaces:
        x = CELL_WIDTH * q + CELL_WIDTH // 2 * r - left
        stone = state.rune_stones[(q, r)]
        text = f"{stone.rune[:3].capitalize()}{'' if stone.seat is None else stone.seat}"
        canvas[4 * (r - top) + 1][x : x + len(text)] = text
    return ["".join(line).rstrip() for line in canvas]
