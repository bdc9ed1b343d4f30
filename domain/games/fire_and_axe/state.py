"""Fire & Axe's state: the table, each player's longship and holdings, and the turn.

States are mutable dataclasses owned by the fold (see domain/engine.py); `copy` gives an
independent copy and states compare with ==.

The turn is a small state machine: a `pending` choice (losses to choose, a Raid to go on or
break off, a treasure to take, a last crewmember to settle or keep) must be answered before
anything else; otherwise the player acts freely until the turn ends (declared, wintering, or
the last crewmember lost).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from contracts.games.fire_and_axe import WINTERING, Good, RuneKind, TownSize
from domain.games.fire_and_axe.data import CARGO_SLOTS, CREW_PER_PLAYER, DATA, DAYS

PendingKind = Literal["losses", "raid_again", "treasure", "confirm_settlement"]

# Rules revisions. A game keeps the revision it was set up under to its end: its commands were
# decided under those rules, and replay and the fairness check re-derive them (the legal
# commands a bot chose among, the events each command gave) under the same rules.
CURRENT_REVISION = 2
USELESS_RUNE_REFUSED = 2  # decision 17: a War Cry or Shield Wall that changes nothing
LAST_CREW_UNREST = 2  # decision 18: Unrest may settle the last crewmember, wrecking the ship
WAR_CRYS_STACK = 2  # decision 19: each War Cry lowers the target by 1
TREASURE_BEFORE_END = 2  # decision 20: a Raid completing the last Saga pays its treasure


def rules_at_least(state: FireAndAxeState, revision: int) -> bool:
    """Whether the game was set up under `revision` of the rules or a later one."""
    return state.revision >= revision


@dataclass
class Player:
    """One player's longship, cargo, hand and holdings."""

    location: str = WINTERING
    crew: int = 0
    goods: list[Good] = field(default_factory=list)  # sorted
    runes: list[RuneKind] = field(default_factory=list)  # sorted
    towns: list[tuple[str, TownSize, int]] = field(default_factory=list)  # port, size, treasure
    sagas: list[int] = field(default_factory=list)
    points: dict[str, int] = field(default_factory=dict)  # VP earned in play, by rule
    final_round_tokens: int = 0  # held, not yet placed

    def copy(self) -> Player:
        """An independent copy."""
        return Player(
            self.location,
            self.crew,
            list(self.goods),
            list(self.runes),
            list(self.towns),
            list(self.sagas),
            dict(self.points),
            self.final_round_tokens,
        )


@dataclass
class Pending:
    """A choice owed before anything else: `losses` skulls to cover, or a Task's next step."""

    kind: PendingKind
    port: str | None = None
    losses: int = 0
    treasure: int = 0


@dataclass
class Turn:
    """The current turn: the Days track, the ports tried, skulls covered, a pending choice."""

    seat: int
    preparation: int = 0
    sailing: int = 0
    tried: set[str] = field(default_factory=set)
    skulls: set[int] = field(default_factory=set)
    pending: Pending | None = None
    raid_rolls: int = 0
    # War Cry / Shield Wall played for the next attack (one entry per card: they stack)
    prepared: list[RuneKind] = field(default_factory=list)
    prepared_port: str | None = None
    attack: list[RuneKind] = field(default_factory=list)  # what helps the attack under way
    last_turn: bool = False  # the third Final Round token was placed at its start

    def copy(self) -> Turn:
        """An independent copy."""
        return Turn(
            self.seat,
            self.preparation,
            self.sailing,
            set(self.tried),
            set(self.skulls),
            None if self.pending is None else Pending(**vars(self.pending)),
            self.raid_rolls,
            list(self.prepared),
            self.prepared_port,
            list(self.attack),
            self.last_turn,
        )

    @property
    def days_left(self) -> int:
        """Days still to spend on Actions this turn."""
        return DAYS - self.preparation - self.sailing


@dataclass
class FireAndAxeState:
    """Everything that decides what happens next."""

    conflict_runes: bool
    round_limit: int | None
    first_seat: int
    players: list[Player]
    towns: dict[str, tuple[TownSize, int]]  # port -> its town (size, hidden treasure)
    port_goods: dict[str, Good]
    settlements: dict[str, int]  # port -> seat
    supply: dict[Good, int]
    demand: Good
    blue: str  # the zone under the Wind Dial's blue hole
    era: int
    saga_spaces: list[int | None]
    saga_deck: list[int]  # top first
    saga_discards: list[int]  # revealed already fulfilled
    rune_deck: list[RuneKind]  # top first
    rune_discards: list[RuneKind]
    final_holder: int | None = None
    final_placed: int = 0
    draws: int = 0
    turn: Turn | None = None
    ended: bool = False
    round: int = 0  # rounds begun: the first seat's turns
    revision: int = 1  # the rules revision the game was set up under (TableSetUp)

    def copy(self) -> FireAndAxeState:
        """An independent copy."""
        return FireAndAxeState(
            self.conflict_runes,
            self.round_limit,
            self.first_seat,
            [player.copy() for player in self.players],
            dict(self.towns),
            dict(self.port_goods),
            dict(self.settlements),
            dict(self.supply),
            self.demand,
            self.blue,
            self.era,
            list(self.saga_spaces),
            list(self.saga_deck),
            list(self.saga_discards),
            list(self.rune_deck),
            list(self.rune_discards),
            self.final_holder,
            self.final_placed,
            self.draws,
            None if self.turn is None else self.turn.copy(),
            self.ended,
            self.round,
            self.revision,
        )


def crew_supply(state: FireAndAxeState, seat: int) -> int:
    """The seat's crewmembers neither aboard nor settled."""
    settled = sum(1 for owner in state.settlements.values() if owner == seat)
    return CREW_PER_PLAYER - state.players[seat].crew - settled


def cargo_slots(state: FireAndAxeState) -> int:
    """The slots open for Loading in the current Era."""
    return CARGO_SLOTS[state.era]


def free_slots(state: FireAndAxeState, seat: int) -> int:
    """Open slots not yet filled on the seat's longship."""
    player = state.players[seat]
    return max(0, cargo_slots(state) - player.crew - len(player.goods))


def occupant(state: FireAndAxeState, port: str) -> int | None:
    """The seat whose longship is in the port, if any."""
    for seat, player in enumerate(state.players):
        if player.location == port:
            return seat
    return None


def sits_out(state: FireAndAxeState, seat: int) -> bool:
    """Decision 5: no crew aboard and none in supply: the player cannot man a longship."""
    player = state.players[seat]
    return player.location == WINTERING and player.crew == 0 and crew_supply(state, seat) == 0


def is_port(node: str) -> bool:
    """Whether the node is a port (Homelands are not ports)."""
    return node in DATA.ports


def effective_value(state: FireAndAxeState, port: str) -> int:
    """The port's value for Raid and Settle rolls: 1 less with a good in it."""
    return DATA.ports[port].value - (1 if port in state.port_goods else 0)


def current_turn(state: FireAndAxeState) -> Turn:
    """The turn under way (only called while the game goes on)."""
    assert state.turn is not None, "no turn while the game is over"
    return state.turn
