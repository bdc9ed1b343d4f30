"""Landnám's state: the island, the units and houses, the hands, the stocks, and the turn.

States are mutable dataclasses owned by the fold (see domain/engine.py); `copy` gives an
independent copy. The turn is a state machine over `Turn.phase` (contracts.games.landnam.Phase):

    roll -> (7: window -> appoint -> cases <-> suit <-> aid, window after each suit)
         -> (else: harvest_card -> aging) -> move (<-> flee) -> trade -> roll of the next seat
"""

from __future__ import annotations

from dataclasses import dataclass, field

from contracts.games.landnam import (
    BuildKind,
    FateKind,
    Hex,
    Phase,
    Resource,
    Terrain,
    UnitKind,
    Vertex,
)

# Rules revisions. A game keeps the revision it was set up under to its end: its commands were
# decided under those rules, and replay and the fairness check re-derive them (the legal
# commands a bot chose among, the events each command gave) under the same rules.
CURRENT_REVISION = 2
FIRST_MOVE_TAKES_CARDS = 2  # decision 27: a Landing or Chase card may go with the first move
SHIP_AFTER_FLIGHT = 2  # decision 28: a ship that fled from land to sea is a ship again


def rules_at_least(state: LandnamState, revision: int) -> bool:
    """Whether the game was set up under `revision` of the rules or a later one."""
    return state.revision >= revision


@dataclass
class Unit:
    """A ship or settler in play; `red` holds the colour of each red token beside it."""

    id: int
    owner: int
    kind: UnitKind
    at: Hex | None  # None: the outer sea
    landed: bool = False  # a ship on land (decision 8): a settler for all but movement
    red: list[int] = field(default_factory=list)

    def copy(self) -> Unit:
        """An independent copy."""
        return Unit(self.id, self.owner, self.kind, self.at, self.landed, list(self.red))

    @property
    def as_settler(self) -> bool:
        """A settler, or a ship on land (decision 8)."""
        return self.kind == "settler" or self.landed


@dataclass
class Player:
    """One player's hand and tokens."""

    hand: dict[Resource, int]
    fate: list[FateKind] = field(default_factory=list)  # sorted
    white: int = 0
    red: int = 0
    black: int = 0
    started: bool = False  # made the first move of decision 7

    def copy(self) -> Player:
        """An independent copy."""
        return Player(
            dict(self.hand), list(self.fate), self.white, self.red, self.black, self.started
        )


@dataclass(frozen=True)
class Pending:
    """A build declared this turn (decision 13)."""

    seat: int
    kind: BuildKind
    unit: int | None = None
    vertex: Vertex | None = None
    at: Hex | None = None
    resource: Resource | None = None


@dataclass
class Offer:
    """The open trade offer (decision 12)."""

    seat: int
    to: int | None
    give: Resource
    give_count: int
    get: Resource
    get_count: int
    declined: set[int] = field(default_factory=set)


@dataclass
class Suit:
    """A lawsuit in court: side 0 is the plaintiff's, side 1 the defence's (leader last)."""

    unit: int
    resource: Resource
    sides: tuple[list[int], list[int]]
    totals: list[int]
    acting: int  # the side whose total is not higher
    asked: int | None = None  # a seat asked for aid, awaiting its answer
    asked_before: set[int] = field(default_factory=set)
    yielded: bool = False
    standing_by: set[int] = field(default_factory=set)  # members adding nothing this time

    def copy(self) -> Suit:
        """An independent copy."""
        return Suit(
            self.unit,
            self.resource,
            (list(self.sides[0]), list(self.sides[1])),
            list(self.totals),
            self.acting,
            self.asked,
            set(self.asked_before),
            self.yielded,
            set(self.standing_by),
        )


@dataclass(frozen=True)
class Case:
    """A case a plaintiff may try (decision 17)."""

    plaintiff: int
    unit: int
    defendant: int
    resource: Resource


@dataclass
class Althing:
    """The Althing in session (decisions 17 to 20)."""

    window: str | None = None  # "start" or "verdict" while Althing cards may be played
    passed: set[int] = field(default_factory=set)
    starter: int | None = None
    pleading: int | None = None
    done: set[int] = field(default_factory=set)  # seats whose case turn is over
    cases: tuple[Case, ...] = ()
    tried: set[tuple[int, int]] = field(default_factory=set)  # (plaintiff, unit)
    suit: Suit | None = None
    dissolved: bool = False

    def copy(self) -> Althing:
        """An independent copy."""
        return Althing(
            self.window,
            set(self.passed),
            self.starter,
            self.pleading,
            set(self.done),
            self.cases,
            set(self.tried),
            None if self.suit is None else self.suit.copy(),
            self.dissolved,
        )


@dataclass
class Turn:
    """Where the active player's turn stands."""

    seat: int
    phase: Phase = "roll"
    dice: tuple[int, int] | None = None
    producing: tuple[Hex, ...] = ()  # hexes that paid, awaiting the aging choice
    steps_used: int = 0  # normal steps of phase 2 (decision 5)
    extra: dict[int, int] = field(default_factory=dict)  # unit -> extra steps left
    moved: set[int] = field(default_factory=set)  # units that stepped this phase
    chase: tuple[int, int, Hex, Hex | None] | None = None  # chaser, victim, hex, origin
    pending: list[Pending] = field(default_factory=list)
    acted: set[int] = field(default_factory=set)  # units that used their building action
    vertex_actions: dict[Vertex, int] = field(default_factory=dict)
    offer: Offer | None = None
    offers_made: int = 0
    althing: Althing | None = None

    def copy(self) -> Turn:
        """An independent copy."""
        offer = self.offer
        return Turn(
            self.seat,
            self.phase,
            self.dice,
            self.producing,
            self.steps_used,
            dict(self.extra),
            set(self.moved),
            self.chase,
            list(self.pending),
            set(self.acted),
            dict(self.vertex_actions),
            None
            if offer is None
            else Offer(
                offer.seat,
                offer.to,
                offer.give,
                offer.give_count,
                offer.get,
                offer.get_count,
                set(offer.declined),
            ),
            self.offers_made,
            None if self.althing is None else self.althing.copy(),
        )


@dataclass
class LandnamState:
    """Everything that decides what happens next."""

    players: list[Player]
    first_seat: int
    max_rounds: int
    terrain: dict[Hex, Terrain]  # explored hexes
    numbers: dict[Hex, int]
    harbours: dict[Hex, Resource]
    units: dict[int, Unit]
    next_unit: int
    houses: dict[Vertex, tuple[int, int]]  # vertex -> (owner, level: 1 farm, 2 town)
    terrain_stock: dict[Terrain, int]
    number_stock: dict[int, int]
    harbour_stock: dict[Resource, int]
    stock: dict[Resource, int]  # resource cards in the stock
    deck: list[FateKind]  # sorted: a draw is an index into it
    discards: list[FateKind]
    claimed_edges: set[int]
    draws: int  # random draws used so far; the next draw has this index
    turns_played: int
    turn: Turn
    revision: int = 1  # the rules revision the game was set up under (LandnamBegun)

    def copy(self) -> LandnamState:
        """An independent copy."""
        return LandnamState(
            players=[player.copy() for player in self.players],
            first_seat=self.first_seat,
            max_rounds=self.max_rounds,
            terrain=dict(self.terrain),
            numbers=dict(self.numbers),
            harbours=dict(self.harbours),
            units={uid: unit.copy() for uid, unit in self.units.items()},
            next_unit=self.next_unit,
            houses=dict(self.houses),
            terrain_stock=dict(self.terrain_stock),
            number_stock=dict(self.number_stock),
            harbour_stock=dict(self.harbour_stock),
            stock=dict(self.stock),
            deck=list(self.deck),
            discards=list(self.discards),
            claimed_edges=set(self.claimed_edges),
            draws=self.draws,
            turns_played=self.turns_played,
            turn=self.turn.copy(),
            revision=self.revision,
        )

    def unit_at(self, h: Hex | None) -> Unit | None:
        """The unit on an island hex (the outer sea holds any number: None there)."""
        if h is None:
            return None
        for unit in self.units.values():
            if unit.at == h:
                return unit
        return None

    def fate_holders(self) -> list[int]:
        """Seats holding at least one fate card."""
        return [seat for seat, player in enumerate(self.players) if player.fate]


def points(state: LandnamState, seat: int) -> int:
    """Victory points: houses (farm 1, town 2) and white, red and black tokens."""
    player = state.players[seat]
    houses = sum(level for owner, level in state.houses.values() if owner == seat)
    return houses + player.white + player.red + player.black
