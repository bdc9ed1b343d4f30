"""Looot's messages: the config, the commands a player sends, the events, and the view.

Every hex is axial (q, r). The main board is assembled from flat-top "even-q" pictures
(domain/games/looot/layouts.json); a Fjord's printed (column, row) converts to axial with
`domain.hexgrid.even_q_to_axial`. Seats are 0 .. players-1 and play in increasing order.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from contracts.base import Command, Event, GameConfig, View

Hex = tuple[int, int]
# Bounds on what a command may name: far beyond any board or count of the game, and well
# inside what the stored events and outcomes can hold.
Coordinate = Annotated[int, msgspec.Meta(ge=-1000, le=1000)]
CommandHex = tuple[Coordinate, Coordinate]
SmallNumber = Annotated[int, msgspec.Meta(ge=-1000, le=1000)]
Resource = Literal["axe", "wood", "sheep", "gold"]
Building = Literal["house", "watchtower", "castle"]
Tile = Literal["axe", "wood", "sheep", "gold", "house", "watchtower", "castle"]
Shield = Literal["second_viking", "occupied_space", "double_resource"]
Site = Literal["port", "altar", "jarl_palace"]
Step = Literal["place_viking", "place_tiles", "end_of_turn", "over"]


class LoootConfig(GameConfig, frozen=True):
    """A new game: 2 to 4 players; `faces` fixes the landscape faces (empty: drawn at random).

    Faces are numbered 1 to 8; physical board k carries faces 2k-1 and 2k, so the faces must
    come from different boards. They fill the layout's slots in the order given.
    """

    players: Annotated[int, msgspec.Meta(ge=2, le=4)]
    faces: tuple[int, ...] = ()


# --- Commands: each choice a player makes is one command ---------------------------------


class LoootPlaceViking(Command, frozen=True, tag="PlaceViking"):
    """Put a Viking on a resource space; each flag spends that Shield (once per game each).

    `second_viking`: this is the turn's second Viking. `occupied_space`: the space holds an
    opponent's Viking. `double_resource`: take two resource tiles instead of one.
    """

    space: CommandHex
    second_viking: bool = False
    occupied_space: bool = False
    double_resource: bool = False


class LoootPlaceTile(Command, frozen=True, tag="PlaceTile"):
    """Put one gained tile on a free space of your Fjord (it never moves again)."""

    tile: Tile
    space: CommandHex


class TakeLongship(Command, frozen=True):
    """At the end of the turn, take the Longship in ocean `slot` onto a free Fjord space."""

    slot: SmallNumber
    space: CommandHex


class ClaimTrophy(Command, frozen=True):
    """At the end of the turn, claim the Trophy needing `axes` Axes (once per game)."""

    axes: SmallNumber


class EndTurn(Command, frozen=True):
    """Finish the turn; play passes to the next player who has Vikings left."""


LoootCommand = LoootPlaceViking | LoootPlaceTile | TakeLongship | ClaimTrophy | EndTurn


# --- Events ----------------------------------------------------------------------------


class FjordSites(msgspec.Struct, frozen=True):
    """The construction-site cards (1 to 5) dealt to one player."""

    port: int
    altar: int
    jarl_palace: int


class GameSetUp(Event, frozen=True):
    """The table: faces in layout-slot order, each seat's sites, the first seat.

    `draws` counts the random draws used so far (faces, sites, first seat).
    """

    players: int
    faces: tuple[int, ...]
    sites: tuple[FjordSites, ...]
    first_seat: int
    draws: int


class LongshipDrawn(Event, frozen=True):
    """Draw number `draw` took `longship` out of the bag into ocean `slot`."""

    slot: int
    longship: int
    draw: int


class LoootVikingPlaced(Event, frozen=True, tag="VikingPlaced"):
    """A Viking went on `space`; the resource tiles gained await their Fjord spaces."""

    seat: int
    space: Hex
    shields: tuple[Shield, ...]
    resources: tuple[Resource, ...]


class HouseTaken(Event, frozen=True):
    """One tile taken from the House stack at `house`, next to the new Viking."""

    seat: int
    house: Hex


class WatchtowersLinked(Event, frozen=True):
    """A route of the seat's Vikings now links `towers` (in sorted order): one tile from each
    of their stacks that still had one."""

    seat: int
    towers: tuple[Hex, Hex]
    taken_from: tuple[Hex, ...]


class CastleTaken(Event, frozen=True):
    """One tile taken from the Castle at `castle` by a group of `group_size` Vikings."""

    seat: int
    castle: Hex
    group_size: int


class LoootTilePlaced(Event, frozen=True, tag="TilePlaced"):
    """A gained tile was put on the seat's Fjord."""

    seat: int
    tile: Tile
    space: Hex


class TilesLost(Event, frozen=True):
    """Gained tiles that no longer fit on the seat's full Fjord."""

    seat: int
    tiles: tuple[Tile, ...]


class SiteCompleted(Event, frozen=True):
    """Everything a construction site needs is now around it."""

    seat: int
    site: Site
    points: int


class LongshipTaken(Event, frozen=True):
    """The Longship in ocean `slot` went onto the seat's Fjord at `space`."""

    seat: int
    slot: int
    longship: int
    space: Hex


class LongshipFilled(Event, frozen=True):
    """The resources a Longship needs now surround it: its bonus counts, its penalty not."""

    seat: int
    longship: int


class TrophyClaimed(Event, frozen=True):
    """The seat claimed the Trophy needing `axes` Axes."""

    seat: int
    axes: int
    points: int


class TurnEnded(Event, frozen=True):
    """The seat ended its turn; `next_seat` is None once every Viking is placed."""

    seat: int
    next_seat: int | None


LoootEvent = (
    GameSetUp
    | LongshipDrawn
    | LoootVikingPlaced
    | HouseTaken
    | WatchtowersLinked
    | CastleTaken
    | LoootTilePlaced
    | TilesLost
    | SiteCompleted
    | LongshipTaken
    | LongshipFilled
    | TrophyClaimed
    | TurnEnded
)


# --- View: everything on the table is public; the bag's content is not ------------------


class LongshipCard(msgspec.Struct, frozen=True):
    """A Longship: filled by the `needs` around it, it adds `bonus` per tile of `boosts`."""

    id: int
    boosts: Tile
    bonus: int
    needs: tuple[Resource, ...]


class LandSpace(msgspec.Struct, frozen=True):
    """A space of the main board: its terrain, the seats of its Vikings, tiles on a stack."""

    space: Hex
    terrain: Tile
    vikings: tuple[int, ...] = ()
    tiles_left: int = 0


class OceanSlot(msgspec.Struct, frozen=True):
    """An ocean space and the Longship on it, if any."""

    slot: int
    space: Hex
    longship: LongshipCard | None


class TrophyView(msgspec.Struct, frozen=True):
    """A Trophy: the Axes it needs, its points, and who holds it."""

    axes: int
    points: int
    holder: int | None


class FjordTile(msgspec.Struct, frozen=True):
    """A tile on a Fjord."""

    space: Hex
    tile: Tile


class FjordLongship(msgspec.Struct, frozen=True):
    """A Longship on a Fjord, and whether it is filled."""

    space: Hex
    longship: LongshipCard
    filled: bool


class ConstructionSite(msgspec.Struct, frozen=True):
    """A construction site printed on a Fjord: what it needs around it and what it scores."""

    site: Site
    card: int
    space: Hex
    needs: tuple[Tile, ...]
    points: int
    completed: bool


class PlayerFjord(msgspec.Struct, frozen=True):
    """One player's supply and Fjord."""

    seat: int
    vikings_left: int
    shields: tuple[Shield, ...]  # the Shields not used yet
    tiles: tuple[FjordTile, ...]
    longships: tuple[FjordLongship, ...]
    sites: tuple[ConstructionSite, ...]
    trophy: int | None  # the Axes of the claimed Trophy
    tiles_lost: int


class TurnView(msgspec.Struct, frozen=True):
    """Where the current turn stands."""

    seat: int
    step: Step
    vikings_placed: int
    pending: tuple[Tile, ...]  # gained tiles still to put on the Fjord
    longship_taken: bool
    trophy_claimed: bool


class LoootView(View, frozen=True):
    """The table as `viewer` sees it (None: a spectator); only the bag's content is hidden."""

    viewer: int | None
    players: int
    faces: tuple[int, ...]
    first_seat: int
    land: tuple[LandSpace, ...]
    ocean: tuple[OceanSlot, ...]
    bag_size: int
    trophies: tuple[TrophyView, ...]
    fjord_spaces: tuple[Hex, ...]  # the tile spaces every Fjord has
    fjords: tuple[PlayerFjord, ...]
    turn: TurnView | None  # None once the game is over
