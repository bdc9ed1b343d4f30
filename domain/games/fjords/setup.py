"""Setting a Fjords game up: the opening events of a config.

Rule book, "Setting up the game": each player takes the pieces of a colour, the starting tiles
are laid, the bag holds the landscape tiles the player count keeps, 4 tiles are drawn face up
into the row and a starting player is chosen at random. The Classic variant keeps no row
(`classic`); its match's later games lay the starting tiles again (`lay_starting_tiles`).
"""

from __future__ import annotations

from contracts.base import Event, GameConfig
from contracts.games.fjords import FjordsConfig, GameStarted, TilePlaced
from domain.chance import Chance
from domain.errors import IllegalCommand
from domain.games.fjords.evolve import Recorder, evolve
from domain.games.fjords.exploration import ROW_SIZE, draw_tile, start_exploration_turn
from domain.games.fjords.tiles import TileSet
from domain.games.fjords.variants import resolve_options, seat_colours


def setup(config: GameConfig, chance: Chance, tiles: TileSet) -> list[Event]:
    """Rule book setup: pieces, the starting tiles, the bag by marks, a row of 4, a first player.

    Draw 0 picks the starting player; draws 1 to 4 fill the row (Classic keeps no row).
    """
    if not isinstance(config, FjordsConfig):
        raise IllegalCommand("fjords.config.invalid", "Expected a Fjords config.")
    options = resolve_options(config)
    started = GameStarted(
        players=options.players,
        variant=options.variant,
        runes=options.runes,
        colours=seat_colours(options),
        first_player=chance.below(0, options.players),
        first_player_draw=0,
        preset=options.preset,
    )
    record = Recorder(evolve(None, started, tiles), tiles)
    lay_starting_tiles(record, tiles)
    if options.variant != "classic":
        for _ in range(ROW_SIZE):
            draw_tile(record, chance)
        start_exploration_turn(record, chance, tiles)
    return [started, *record.events]


def lay_starting_tiles(record: Recorder, tiles: TileSet) -> None:
    """Emit the starting tiles where the tile set lays them."""
    for start in tiles.starting:
        orientation = start.tile.orientation(start.rotation)
        q, r = start.position
        record.emit(
            TilePlaced(None, start.tile.id, q, r, orientation.rotation, orientation.corners)
        )
