"""Listing commands: every legal one (for clients, bots and audit) and plausible others.

Symmetric tiles look the same under several rotations (an all-plains tile under all six). Such
rotations are one placement, so `legal_commands` lists each distinct placement once, under the
smallest rotation giving it (`tiles.Orientation`); `decide` accepts any of the equivalent
rotations and records the smallest, so no equivalent rotation is ever refused. Colours are
listed the same way (`colours`): one form per distinct move.

`candidate_commands` is every legal command plus near misses: each available tile at every
space near the board in every orientation, pieces on every nearby space, rune stones used from
every piece towards every tile a step too far, and the legal moves with a foreign colour, the
Home rune without its longhouse, and so on. Commands of the other phase are included too.
"""

from __future__ import annotations

from collections.abc import Iterable

from contracts.base import Command
from contracts.games.fjords import (
    DrawTile,
    PieceKind,
    PlaceTile,
    PlaceViking,
    UseHorseRune,
    UseJourneyRune,
    UseWisdomRune,
)
from domain.games.fjords.board import open_slots, placements
from domain.games.fjords.colours import colour_choices
from domain.games.fjords.rune_moves import MAX_STEPS, travel_moves, wisdom_moves
from domain.games.fjords.runes import stone_for_tile
from domain.games.fjords.settlement import viking_targets
from domain.games.fjords.state import COLOURS, FjordsState
from domain.games.fjords.tiles import Tile, TileSet
from domain.hexgrid import SIDE_OFFSETS, Hex, distance

FAR_AWAY: Hex = (40, -40)
NEAR_MISSES_PER_TILE = 3  # legal placements per tile turned into Home/colour near misses
TWO_STEPS_EAST: Hex = (2, 0)  # from a Wisdom space: a tile not across it


def legal_commands(state: FjordsState, seat: int, tiles: TileSet) -> list[Command]:
    """Every legal command of `seat`; empty when it is not its turn.

    Exploration: each available tile at each fitting position and orientation, without a
    longhouse, with one (of each colour with longhouses left), and with the Home rune under it;
    Classic also lists drawing a tile when no tile is in hand. Settlement: each tile a viking
    may go to by a normal turn, and each use of a Journey, Horse or Wisdom rune still held.
    """
    if seat != state.active or state.phase == "ended":
        return []
    if state.phase == "settlement":
        return _settlement_commands(state, seat)
    commands: list[Command] = []
    if state.variant == "classic" and state.drawn is None:
        commands.append(DrawTile())
    slots = open_slots(state.board)
    longhouse_colours = colour_choices(state, seat, "longhouse")
    home = state.holds_rune(seat, "home")
    for tile in available_tiles(state, tiles):
        with_longhouse = tile.has_plains and stone_for_tile(state, tile) is None
        for slot, orientation in placements(tile, slots):
            q, r = slot.position
            commands.append(PlaceTile(tile.id, q, r, orientation.rotation))
            for colour in longhouse_colours if with_longhouse else ():
                commands.append(PlaceTile(tile.id, q, r, orientation.rotation, True, False, colour))
                if home:
                    commands.append(
                        PlaceTile(tile.id, q, r, orientation.rotation, True, True, colour)
                    )
    return commands


def available_tiles(state: FjordsState, tiles: TileSet) -> list[Tile]:
    """The tiles the seat to act may place: the row; Classic: the drawn tile, or the set-aside
    tiles before drawing."""
    if state.variant != "classic":
        ids = state.row
    elif state.drawn is not None:
        ids = [state.drawn]
    else:
        ids = state.set_aside
    return [tiles.tile(t) for t in ids]


def _settlement_commands(state: FjordsState, seat: int) -> list[Command]:
    colours = colour_choices(state, seat, "viking")
    commands: list[Command] = [
        PlaceViking(q, r, colour) for q, r in viking_targets(state, seat) for colour in colours
    ]
    if state.holds_rune(seat, "journey"):
        commands += [
            UseJourneyRune(*start, *target, colour)
            for start, target in travel_moves(state, seat, "journey")
            for colour in colours
        ]
    if state.holds_rune(seat, "horse"):
        commands += [
            UseHorseRune(*start, *target, colour)
            for start, target in travel_moves(state, seat, "horse")
            for colour in colours
        ]
    if state.holds_rune(seat, "wisdom"):
        commands += [
            UseWisdomRune(*space, *target, colour)
            for space, target in wisdom_moves(state, seat)
            for colour in colours
        ]
    return commands


# --- near misses ------------------------------------------------------------------------------


def candidate_commands(state: FjordsState, seat: int, tiles: TileSet) -> list[Command]:
    """Legal and near-legal commands of both phases (a superset of `legal_commands`)."""
    legal = legal_commands(state, seat, tiles)
    near: set[Hex] = set()
    for q, r in state.board:
        near.update((q + dq, r + dr) for dq, dr in SIDE_OFFSETS)
    spaces = sorted(near | {FAR_AWAY})
    commands: list[Command] = [*legal, DrawTile()]
    commands += _tile_candidates(state, seat, tiles, spaces)
    viking = _probe_colour(state, seat, "viking")
    commands += [PlaceViking(q, r, viking) for q, r in spaces]
    commands += _rune_candidates(state, seat, spaces, viking)
    commands += _colour_near_misses(state, seat, legal)
    return commands


def _probe_colour(state: FjordsState, seat: int, kind: PieceKind) -> str | None:
    """A colour the seat may name for this kind of piece, if any (so that near misses are
    refused for their geometry, not for an ambiguous colour)."""
    return next(iter(colour_choices(state, seat, kind)), None)


def _tile_candidates(
    state: FjordsState, seat: int, tiles: TileSet, spaces: list[Hex]
) -> list[Command]:
    """Every available tile (and two others) at every nearby space in every orientation."""
    available = [t.id for t in available_tiles(state, tiles)]
    others = [t for t in sorted(tiles.landscape) if t not in available][:1]
    others += [placed.tile for placed in list(state.board.values())[-1:]]
    colour = _probe_colour(state, seat, "longhouse")
    commands: list[Command] = []
    for tile in map(tiles.tile, [*available, *others]):
        commands.append(PlaceTile(tile.id, 0, 0, 6))
        for q, r in spaces:
            for orientation in tile.orientations:
                commands.append(PlaceTile(tile.id, q, r, orientation.rotation, False))
                commands.append(PlaceTile(tile.id, q, r, orientation.rotation, True, False, colour))
        # The Home rune without a longhouse, and with one where it may or may not go
        slots = open_slots(state.board)
        for index, (slot, orientation) in enumerate(placements(tile, slots)):
            if index == NEAR_MISSES_PER_TILE:
                break
            q, r = slot.position
            commands.append(PlaceTile(tile.id, q, r, orientation.rotation, False, True))
            commands.append(PlaceTile(tile.id, q, r, orientation.rotation, True, True, colour))
    return commands


def _rune_candidates(
    state: FjordsState, seat: int, spaces: list[Hex], colour: str | None
) -> list[Command]:
    """Rune stones used from every own piece (and two other tiles) towards every tile up to a
    step beyond their reach, and Wisdom on every nearby space towards each of its neighbours."""
    own = sorted(h for h, piece in state.pieces.items() if piece.seat == seat)
    starts = own + [h for h in sorted(state.board) if h not in state.pieces][:2]
    commands: list[Command] = []
    travel: tuple[type[UseJourneyRune] | type[UseHorseRune], ...] = (UseJourneyRune, UseHorseRune)
    for rune_command in travel:
        # A rune not in play, or spent, needs only a few probes to show it is refused
        for start in starts if _rune_usable(state, seat, rune_command) else starts[:1]:
            for target in _within(state.board, start, MAX_STEPS + 1):
                commands.append(rune_command(*start, *target, colour))
    wisdom_spaces: Iterable[Hex] = spaces
    if not _rune_usable(state, seat, UseWisdomRune):
        wisdom_spaces = spaces[:3]
    for q, r in wisdom_spaces:
        for dq, dr in (*SIDE_OFFSETS, TWO_STEPS_EAST):
            commands.append(UseWisdomRune(q, r, q + dq, r + dr, colour))
    return commands


RUNE_OF_COMMAND: dict[type[Command], str] = {
    UseJourneyRune: "journey",
    UseHorseRune: "horse",
    UseWisdomRune: "wisdom",
}


def _rune_usable(state: FjordsState, seat: int, command: type[Command]) -> bool:
    rune = RUNE_OF_COMMAND[command]
    return state.phase == "settlement" and state.holds_rune(seat, rune)


def _within(board: Iterable[Hex], start: Hex, steps: int) -> list[Hex]:
    """Placed tiles at most `steps` from `start`, and the start itself."""
    return [h for h in board if distance(h, start) <= steps]


def _colour_near_misses(state: FjordsState, seat: int, legal: list[Command]) -> list[Command]:
    """A few legal moves with a colour the seat does not play, one of its colours with none of
    that piece left, or no colour where the seat must choose between two."""
    foreign = next(c for c in COLOURS if c not in state.colours[seat])
    commands: list[Command] = []
    for command in legal[: 2 * NEAR_MISSES_PER_TILE]:
        if isinstance(command, DrawTile):
            continue
        if isinstance(command, PlaceTile) and not command.longhouse:
            continue
        kind: PieceKind = "longhouse" if isinstance(command, PlaceTile) else "viking"
        choices = colour_choices(state, seat, kind)
        wrong: list[str | None] = [foreign]
        wrong += [
            c for c in state.colours[seat] if c not in choices and len(state.colours[seat]) > 1
        ]
        wrong += [None] if len(choices) > 1 else []
        for colour in wrong:
            commands.append(_with_colour(command, colour))
    return commands


def _with_colour(command: Command, colour: str | None) -> Command:
    """The same move naming another colour."""
    match command:
        case PlaceTile(tile, q, r, rotation, longhouse, home):
            return PlaceTile(tile, q, r, rotation, longhouse, home, colour)
        case PlaceViking(q, r):
            return PlaceViking(q, r, colour)
        case UseJourneyRune(from_q, from_r, q, r):
            return UseJourneyRune(from_q, from_r, q, r, colour)
        case UseHorseRune(from_q, from_r, q, r):
            return UseHorseRune(from_q, from_r, q, r, colour)
        case UseWisdomRune(rune_q, rune_r, q, r):
            return UseWisdomRune(rune_q, rune_r, q, r, colour)
    return command
