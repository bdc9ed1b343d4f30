"""The Classic variant (the 2005 rules): draw-and-place Exploration, and a match of three games.

Rule book, "The Classic variant": "Do not have 4 landscape tiles face-up to choose from. On your
turn in the Exploration Phase, simply draw a landscape tile and then attempt to place it. If a
player cannot find a legal placement for the tile and their opponent does not point one out,
simply set it aside face-up nearby. The player then draws a new tile. On a future turn, a player
may now choose to place a set-aside tile instead of drawing a new landscape tile at the start of
their turn." "The Exploration Phase ends after the turn in which the final tile is drawn. ... If
the final drawn tile is placed, the next player in turn order starts the Settlement Phase. If
the final tile can't be placed legally, the player who drew it starts the Settlement Phase."
"Play the game three times, combining your scores across the three games together."
(Decision 10 in this package's README.)

The engine knows every legal placement, so nobody ever has to "point one out" (as in decision 4 in
this package's README): a drawn tile that fits somewhere must be placed, and one that fits nowhere
is set aside at once and the next tile drawn, within the same `DrawTile` command. That loop ends:
each round takes a tile out of the bag.

A match is ONE stream of events, not three linked games: game 1's `GameStarted`, then for games
2 and 3 a `MatchGameStarted` once the previous game's Settlement has ended. Why: the seed
commitment, the hash chain, replay and audit then cover the whole match with no change to the
service; the match cannot be left half-linked; and the combined score is a projection like any
other, folded from the events (the state archives each finished game, `scoring.outcome` adds
them up). Each game of the match draws its starting player at random, as the setup of a game
says ("Randomly select a starting player").
"""

from __future__ import annotations

from contracts.games.fjords import ExplorationEnded, MatchGameStarted, PlaceTile, TileSetAside
from domain.chance import Chance
from domain.errors import IllegalCommand
from domain.games.fjords.board import fits_somewhere, open_slots
from domain.games.fjords.evolve import Recorder
from domain.games.fjords.exploration import draw_tile, lay_tile
from domain.games.fjords.settlement import start_settlement_turn
from domain.games.fjords.setup import lay_starting_tiles
from domain.games.fjords.state import FjordsState
from domain.games.fjords.tiles import TileSet
from domain.games.fjords.variants import MATCH_GAMES


def check_classic(state: FjordsState) -> None:
    """Raise IllegalCommand unless the game is a Classic one, where tiles are drawn by hand."""
    if state.variant != "classic":
        raise IllegalCommand(
            "fjords.draw.not_classic",
            "Only the Classic variant draws tiles by hand; choose a tile from the face-up row.",
            variant=state.variant,
        )


def check_nothing_drawn(state: FjordsState) -> None:
    """Raise IllegalCommand when the seat to act has drawn its tile already (it must place it)."""
    if state.drawn is not None:
        raise IllegalCommand(
            "fjords.draw.already_drawn",
            f"You have drawn tile {state.drawn} already: place it.",
            drawn=state.drawn,
        )


def draw_to_place(record: Recorder, seat: int, chance: Chance, tiles: TileSet) -> None:
    """Draw until a tile fits, setting aside those that do not; after the final draw, an
    unplaceable tile ends Exploration and its drawer starts the Settlement Phase."""
    state = record.state
    slots = open_slots(state.board)
    while True:
        draw_tile(record, chance)
        drawn = state.drawn
        assert drawn is not None
        if fits_somewhere(tiles.tile(drawn), slots):
            return
        record.emit(TileSetAside(drawn))
        if not state.bag:
            record.emit(ExplorationEnded("last_drawn_tile_set_aside", len(state.set_aside), seat))
            start_settlement_turn(record)
            return


def place_tile(
    record: Recorder, command: PlaceTile, seat: int, longhouse: str | None, tiles: TileSet
) -> None:
    """Emit a checked Classic placement; placing the final drawn tile ends Exploration, and the
    next player in turn order starts the Settlement Phase."""
    state = record.state
    from_draw = command.tile == state.drawn
    lay_tile(record, command, seat, longhouse, tiles)
    if from_draw and not state.bag:
        assert state.active is not None
        record.emit(ExplorationEnded("last_drawn_tile_placed", len(state.set_aside), state.active))
        start_settlement_turn(record)


def continue_match(record: Recorder, chance: Chance, tiles: TileSet) -> None:
    """Once a Classic game's Settlement has ended, begin the match's next game, if any."""
    state = record.state
    if state.variant != "classic" or state.phase != "ended" or state.match_game >= MATCH_GAMES:
        return
    draw = state.draws_used
    record.emit(MatchGameStarted(state.match_game + 1, chance.below(draw, state.players), draw))
    lay_starting_tiles(record, tiles)
