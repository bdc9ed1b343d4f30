"""The rune stones used instead of a normal Settlement turn: Journey, Horse and Wisdom.

Rule book, "The Journey runes (Raido)": "a player may discard their Journey rune stone, using it
instead of taking a normal turn. They select any (already placed) tile showing ocean that has one of
their vikings or longhouses on it. They then place a viking from their supply on any vacant tile
that is 1-3 adjacent tiles away from the selected tile, as long as all these tiles are connected by
ocean." "The Horse runes (Ehwaz)": the same with "showing mountains" and "connected by mountains".
Decision 5 in this package's README: the steps run over placed tiles, each consecutive pair
connected by ocean (Journey) or mountains (Horse); tiles passed over may be occupied; the target
must be vacant, carry no rune stone and contain plains.

"The Wisdom runes (Odin)": the player "place[s] their Wisdom rune on an empty space on the table
adjacent to at least two tiles. At least one of these tiles must have a viking or longhouse
belonging to the player on it, as well as having plains on the edge that is adjacent to the rune.
The player then places a viking from their supply on any vacant tile adjacent to the rune which has
plains on the edge that is adjacent to the rune." After that turn the stone only keeps other Wisdom
runes off its space. A tile "has plains on the edge" facing the space when one of that side's two
corners is P, as decision 3 in this package's README reads "connected by plains".

Each player holds one stone of each (one colour per player, Epic included). This module checks
and lists these moves and emits the stone's event; `settlement.place_viking` then places the
viking and passes the turn.
"""

from __future__ import annotations

from collections.abc import Iterator

from contracts.games.fjords import (
    RuneStoneDiscarded,
    RuneStonePlaced,
    UseHorseRune,
    UseJourneyRune,
    UseWisdomRune,
)
from domain.errors import IllegalCommand
from domain.games.fjords.colours import choose_colour
from domain.games.fjords.evolve import Recorder
from domain.games.fjords.state import FjordsState
from domain.games.fjords.targets import (
    check_target,
    connected_reach,
    own_piece_at,
    terrain_sides,
)
from domain.hexgrid import SIDE_OFFSETS, Hex, neighbour

# The terrain a travelling rune follows, and how the rule book names it.
TRAVEL_TERRAIN = {"journey": "S", "horse": "M"}
TERRAIN_WORDS = {"S": "ocean", "M": "mountains"}
MAX_STEPS = 3  # "1-3 adjacent tiles away"
MIN_TILES_AROUND_WISDOM = 2  # "adjacent to at least two tiles"

TravelCommand = UseJourneyRune | UseHorseRune
RuneCommand = UseJourneyRune | UseHorseRune | UseWisdomRune


def rune_of(command: RuneCommand) -> str:
    """The rune stone a command uses."""
    match command:
        case UseJourneyRune():
            return "journey"
        case UseHorseRune():
            return "horse"
        case UseWisdomRune():
            return "wisdom"


def check_rune_held(state: FjordsState, seat: int, rune: str) -> None:
    """Raise IllegalCommand unless the game uses `rune` and the seat still holds its stone."""
    if rune not in state.runes:
        raise IllegalCommand(
            "fjords.rune.not_in_game",
            f"This game is played without the {rune.capitalize()} rune stones.",
            rune=rune,
        )
    if not state.holds_rune(seat, rune):
        raise IllegalCommand(
            "fjords.rune.already_used",
            f"You have already used your {rune.capitalize()} rune stone.",
            rune=rune,
        )


# --- Journey and Horse ------------------------------------------------------------------------


def travel_reach(state: FjordsState, start: Hex, terrain: str) -> dict[Hex, int]:
    """Placed tiles 1 to 3 steps from `start` along tiles connected by `terrain` (decision 5 in this
    package's README), with the fewest steps to each. Tiles on the way may hold pieces or rune
    stones."""
    return connected_reach(state, start, terrain, MAX_STEPS)


def travel_starts(state: FjordsState, seat: int, terrain: str) -> list[Hex]:
    """The seat's piece tiles showing `terrain`, where a journey or a ride may set out."""
    return sorted(
        position
        for position, piece in state.pieces.items()
        if piece.seat == seat and terrain in state.board[position].corners
    )


def travel_moves(state: FjordsState, seat: int, rune: str) -> Iterator[tuple[Hex, Hex]]:
    """Every (start, target) of a legal use of the Journey or Horse rune (ignoring the supply)."""
    terrain = TRAVEL_TERRAIN[rune]
    for start in travel_starts(state, seat, terrain):
        for target in sorted(travel_reach(state, start, terrain)):
            if state.is_vacant(target) and "P" in state.board[target].corners:
                yield start, target


def check_travel(state: FjordsState, command: TravelCommand, seat: int) -> str:
    """The viking's colour, or IllegalCommand naming the first Journey/Horse rule broken."""
    rune = rune_of(command)
    terrain = TRAVEL_TERRAIN[rune]
    words = TERRAIN_WORDS[terrain]
    start, target = (command.from_q, command.from_r), (command.q, command.r)
    where = {"from_q": start[0], "from_r": start[1], "q": target[0], "r": target[1]}
    check_rune_held(state, seat, rune)
    if state.vikings_left(seat) == 0:
        raise IllegalCommand("fjords.viking.none_left", "You have no vikings left to place.")
    if not own_piece_at(state, start, seat):
        raise IllegalCommand(
            f"fjords.{rune}.start_not_yours",
            f"The {rune.capitalize()} rune sets out from a tile with one of your vikings or "
            "longhouses on it.",
            **where,
        )
    if terrain not in state.board[start].corners:
        raise IllegalCommand(
            f"fjords.{rune}.start_without_{words}",
            f"The {rune.capitalize()} rune sets out from a tile showing {words}; this one "
            "shows none.",
            **where,
        )
    check_target(state, target)
    steps = travel_reach(state, start, terrain).get(target)
    if steps is None:
        raise IllegalCommand(
            f"fjords.{rune}.no_path",
            f"No chain of 1 to {MAX_STEPS} adjacent tiles connected by {words} leads from "
            f"({start[0]}, {start[1]}) to ({target[0]}, {target[1]}).",
            **where,
        )
    return choose_colour(state, seat, "viking", command.colour)


def discard_travel_rune(record: Recorder, command: TravelCommand, seat: int) -> None:
    """Emit the discarded Journey or Horse stone (the viking follows)."""
    record.emit(RuneStoneDiscarded(seat, rune_of(command), command.from_q, command.from_r))


# --- Wisdom -----------------------------------------------------------------------------------


def faces_with_plains(state: FjordsState, position: Hex, space: Hex) -> bool:
    """Whether the tile at `position` shows plains on its edge facing the adjacent `space`."""
    side = next(s for s in range(6) if neighbour(position, s) == space)
    return bool(terrain_sides(state.board[position].corners, "P") >> side & 1)


def tiles_around(state: FjordsState, space: Hex) -> list[Hex]:
    """The placed tiles adjacent to a space."""
    q, r = space
    return [(q + dq, r + dr) for dq, dr in SIDE_OFFSETS if (q + dq, r + dr) in state.board]


def wisdom_spaces(state: FjordsState) -> list[Hex]:
    """Empty spaces (no tile, no Wisdom stone) adjacent to at least two tiles, sorted."""
    counts: dict[Hex, int] = {}
    for q, r in state.board:
        for dq, dr in SIDE_OFFSETS:
            space = (q + dq, r + dr)
            if space not in state.board and space not in state.rune_stones:
                counts[space] = counts.get(space, 0) + 1
    return sorted(s for s, n in counts.items() if n >= MIN_TILES_AROUND_WISDOM)


def wisdom_moves(state: FjordsState, seat: int) -> Iterator[tuple[Hex, Hex]]:
    """Every (space, target) of a legal use of the Wisdom rune (ignoring the supply)."""
    for space in wisdom_spaces(state):
        around = [t for t in tiles_around(state, space) if faces_with_plains(state, t, space)]
        if any(own_piece_at(state, t, seat) for t in around):
            for target in around:
                if state.is_vacant(target):
                    yield space, target


def check_wisdom(state: FjordsState, command: UseWisdomRune, seat: int) -> str:
    """The viking's colour, or IllegalCommand naming the first Wisdom rule broken."""
    space, target = (command.rune_q, command.rune_r), (command.q, command.r)
    where = {"rune_q": space[0], "rune_r": space[1], "q": target[0], "r": target[1]}
    check_rune_held(state, seat, "wisdom")
    if state.vikings_left(seat) == 0:
        raise IllegalCommand("fjords.viking.none_left", "You have no vikings left to place.")
    if space in state.board:
        raise IllegalCommand(
            "fjords.wisdom.space_has_tile",
            "The Wisdom rune goes on an empty space of the table, not on a tile.",
            **where,
        )
    if space in state.rune_stones:
        raise IllegalCommand(
            "fjords.wisdom.space_taken",
            "Another Wisdom rune already lies on that space.",
            **where,
        )
    around = tiles_around(state, space)
    if len(around) < MIN_TILES_AROUND_WISDOM:
        raise IllegalCommand(
            "fjords.wisdom.fewer_than_two_tiles",
            f"The Wisdom rune goes on a space next to at least 2 tiles; this one touches "
            f"{len(around)}.",
            touching=len(around),
            **where,
        )
    if not any(own_piece_at(state, t, seat) and faces_with_plains(state, t, space) for t in around):
        raise IllegalCommand(
            "fjords.wisdom.no_own_piece_facing",
            "One of the tiles next to the Wisdom rune must hold your viking or longhouse and "
            "show plains on its edge facing the rune.",
            **where,
        )
    check_target(state, target)
    if target not in around:
        raise IllegalCommand(
            "fjords.wisdom.target_not_across",
            "The viking goes on a tile next to the Wisdom rune.",
            **where,
        )
    if not faces_with_plains(state, target, space):
        raise IllegalCommand(
            "fjords.wisdom.target_no_plains_facing",
            "The viking's tile must show plains on its edge facing the Wisdom rune.",
            **where,
        )
    return choose_colour(state, seat, "viking", command.colour)


def place_wisdom_rune(record: Recorder, command: UseWisdomRune, seat: int) -> None:
    """Emit the Wisdom stone on its space (the viking follows)."""
    record.emit(RuneStonePlaced("wisdom", command.rune_q, command.rune_r, seat))


# --- all three --------------------------------------------------------------------------------


def has_rune_move(state: FjordsState, seat: int) -> bool:
    """Whether the seat can place a viking with a rune stone it still holds."""
    if state.vikings_left(seat) == 0:
        return False
    for rune in ("journey", "horse"):
        if state.holds_rune(seat, rune) and next(travel_moves(state, seat, rune), None) is not None:
            return True
    return state.holds_rune(seat, "wisdom") and next(wisdom_moves(state, seat), None) is not None
