"""A plain-text drawing of a Fjords table, for terminals and logs.

Each tile is drawn as three lines, its six corners around its piece:

    NW N NE        M P P
     piece    e.g.  L0        (L: longhouse, V: viking, then the seat; "." vacant)
    SW S SE        S P P

Rows of hexes are shifted half a tile, as pointy-top hexes lie.
"""

from __future__ import annotations

from domain.games.fjords.scoring import outcome
from domain.games.fjords.state import FjordsState
from domain.games.fjords.tiles import TileSet

CELL_WIDTH = 6  # characters per tile horizontally
LEGEND = "corners: NW N NE / SW S SE; M mountains, P plains, S sea; L longhouse, V viking + seat"


def render_text(state: FjordsState, tiles: TileSet) -> str:
    """The whole table: status, row, board, seats and, at the end, the scores."""
    lines = [_status(state), "row: " + _row(state, tiles), ""]
    lines += _board(state)
    lines += ["", LEGEND, ""]
    for seat in range(state.players):
        supply = ", ".join(
            f"{s.colour} {s.vikings} vikings {s.longhouses} longhouses"
            for s in state.supplies[seat]
        )
        lines.append(f"seat {seat}: {supply}{'  (out)' if state.out[seat] else ''}")
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
    return f"Fjords, {state.variant} game: {state.phase}, {turn}, {len(state.bag)} tiles in bag"


def _row(state: FjordsState, tiles: TileSet) -> str:
    shown = []
    for tile in map(tiles.tile, state.row):
        extra = f" {tile.symbol}" if tile.symbol else ""
        shown.append(f"[{tile.id} {tile.corners}{extra}]")
    return " ".join(shown) or "(empty)"


def _board(state: FjordsState) -> list[str]:
    if not state.board:
        return ["(no tiles)"]
    rows = [r for _, r in state.board]
    columns = [CELL_WIDTH * q + CELL_WIDTH // 2 * r for q, r in state.board]
    left, top = min(columns), min(rows)
    width = max(columns) - left + CELL_WIDTH
    canvas = [[" "] * width for _ in range(4 * (max(rows) - top + 1))]
    for (q, r), placed in state.board.items():
        x = CELL_WIDTH * q + CELL_WIDTH // 2 * r - left
        y = 4 * (r - top)
        c = placed.corners
        piece = state.pieces.get((q, r))
        mark = "." if piece is None else ("L" if piece.kind == "longhouse" else "V")
        mark += "" if piece is None else str(piece.seat)
        for dy, text in enumerate((f"{c[5]} {c[0]} {c[1]}", f"{mark:^5}", f"{c[4]} {c[3]} {c[2]}")):
            canvas[y + dy][x : x + len(text)] = text
    return ["".join(line).rstrip() for line in canvas]
