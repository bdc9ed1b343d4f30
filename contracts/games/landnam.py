"""Landnám's messages: the config, the commands, the events and the view.

Hexes are axial (q, r) with the central mountain at (0, 0); `None` where a hex is expected is
the outer sea. A vertex (a farm's or town's corner) is the sorted triple of the three hexes
that meet there. Seats are 0 .. players-1 and play clockwise in increasing order. Units are
numbered in the order they come into play. The decisions cited live in the game's README.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from contracts.base import Command, Event, GameConfig, View

Hex = tuple[int, int]
Vertex = tuple[Hex, Hex, Hex]
Resource = Literal["iron", "grain", "timber", "wool"]
Terrain = Literal["sea", "bog", "field", "pasture", "forest", "mountain"]
UnitKind = Literal["ship", "settler"]
FateKind = Literal[
    "find_bog",
    "find_field",
    "find_pasture",
    "find_forest",
    "landing",
    "fair_going_1",
    "fair_going_2",
    "chase",
    "good_year",
    "shift",
    "fallow",
    "pardon",
    "adjourn",
    "dissolve",
]
Phase = Literal[
    "roll",
    "harvest_card",
    "aging",
    "window",
    "appoint",
    "cases",
    "suit",
    "aid",
    "move",
    "flee",
    "trade",
    "over",
]
BuildKind = Literal["farm", "town", "settler", "ship", "harbour", "aging"]


DEFAULT_MAX_ROUNDS = 60  # the rule book's length


class LandnamConfig(GameConfig, frozen=True):
    """A new game: 3 to 5 players; the game also stops after `max_rounds` rounds."""

    players: Annotated[int, msgspec.Meta(ge=3, le=5)]
    max_rounds: Annotated[int, msgspec.Meta(ge=1, le=500)] = DEFAULT_MAX_ROUNDS


# --- Commands --------------------------------------------------------------------------


class RollDice(Command, frozen=True):
    """Phase 1: roll the two six-sided dice."""


class PlayFate(Command, frozen=True):
    """Play a fate card on its own: a Harvest card (`shift` +1 or -1 for Shift), an extra-step
    card for `unit`, or an Althing card (Pardon names the `unit`)."""

    card: FateKind
    unit: int | None = None
    shift: int = 0


class Proceed(Command, frozen=True):
    """Let the harvest be distributed without playing a Harvest card."""


class ChooseAging(Command, frozen=True):
    """Pick which of the hexes that produced is aged."""

    hex: Hex


class Step(Command, frozen=True):
    """Phase 2: one step of `unit` to `to` (None: the outer sea): a move, an exploration or a
    chase; `fate` plays an Exploration, Landing or Chase card with the step."""

    unit: int
    to: Hex | None
    fate: FateKind | None = None


class EndMovement(Command, frozen=True):
    """End phase 2."""


class Flee(Command, frozen=True):
    """The chased unit's escape, one step away (None: the outer sea)."""

    to: Hex | None


class TradeWithStock(Command, frozen=True):
    """Give 4 (or 2 at a usable harbour of that resource) identical cards for one other."""

    give: Resource
    get: Resource


class OfferTrade(Command, frozen=True):
    """Offer `give_count` `give` for `get_count` `get` to one seat (`to`) or all (None)."""

    to: int | None
    give: Resource
    give_count: int
    get: Resource
    get_count: int


class AcceptTrade(Command, frozen=True):
    """Accept the open offer: it is carried out at once."""


class DeclineTrade(Command, frozen=True):
    """Decline the open offer."""


class WithdrawOffer(Command, frozen=True):
    """Close the open offer."""


class BuildFarm(Command, frozen=True):
    """Turn `unit` into a farm at `vertex`, a corner of its hex."""

    unit: int
    vertex: Vertex


class BuildTown(Command, frozen=True):
    """Expand the farm at `vertex` to a town."""

    vertex: Vertex


class BuildSettler(Command, frozen=True):
    """The farm or town at `vertex` builds a settler on `at`, one of its hexes."""

    vertex: Vertex
    at: Hex


class BuildShip(Command, frozen=True):
    """A ship on `at` built by the farm or town at `vertex`, or on the outer sea (both None)."""

    vertex: Vertex | None
    at: Hex | None


class BuildHarbour(Command, frozen=True):
    """`unit`, a ship, establishes a harbour of `resource` on its hex."""

    unit: int
    resource: Resource


class AgeNumber(Command, frozen=True):
    """`unit`, a settler, ages the number of its hex."""

    unit: int


class PassDice(Command, frozen=True):
    """End the turn: every pending build takes effect."""


class PassWindow(Command, frozen=True):
    """Play no (more) Althing cards in this window."""


class AppointStarter(Command, frozen=True):
    """Name the seat that opens the Althing's case round."""

    seat: int


class TryCase(Command, frozen=True):
    """Bring `unit` to court, playing `cards` cards of the case's resource."""

    unit: int
    cards: int


class EndCases(Command, frozen=True):
    """Try no more cases in this Althing."""


class AddCards(Command, frozen=True):
    """Add cards of the suit's resource for your side."""

    cards: int


class StandBy(Command, frozen=True):
    """A member of the side to act, not its leader, adds no cards for now."""


class AskAid(Command, frozen=True):
    """Ask `seat` to join your side."""

    seat: int


class JoinSide(Command, frozen=True):
    """Join the side that asked, playing `cards` cards."""

    cards: int


class RefuseAid(Command, frozen=True):
    """Stay out of the suit."""


class YieldSuit(Command, frozen=True):
    """Give up the suit: the other side wins."""


LandnamCommand = (
    RollDice
    | PlayFate
    | Proceed
    | ChooseAging
    | Step
    | EndMovement
    | Flee
    | TradeWithStock
    | OfferTrade
    | AcceptTrade
    | DeclineTrade
    | WithdrawOffer
    | BuildFarm
    | BuildTown
    | BuildSettler
    | BuildShip
    | BuildHarbour
    | AgeNumber
    | PassDice
    | PassWindow
    | AppointStarter
    | TryCase
    | EndCases
    | AddCards
    | StandBy
    | AskAid
    | JoinSide
    | RefuseAid
    | YieldSuit
)


# --- Events ----------------------------------------------------------------------------


class Cards(msgspec.Struct, frozen=True):
    """Resource cards moving to (positive) or from (negative) a seat's hand."""

    seat: int
    resource: Resource
    count: int


class LandnamBegun(Event, frozen=True):
    """The island is laid out, each player holds 2 of each resource and a ship on the outer
    sea; `first_seat` was drawn with draw 0. `revision`: the rules revision the game was set
    up under and keeps to its end (1 for games stored before revisions were recorded; the
    game's README lists what each revision changed)."""

    players: int
    first_seat: int
    max_rounds: int
    revision: int = 1


class FateDrawn(Event, frozen=True):
    """Draw number `draw` gave `seat` a fate card (`card` is None where it is hidden);
    `reshuffled`: the discard pile became the deck first."""

    seat: int
    card: FateKind | None
    draw: int
    reshuffled: bool = False


class FatePlayed(Event, frozen=True):
    """A fate card was played (face up to the discard pile)."""

    seat: int
    card: FateKind
    unit: int | None = None
    shift: int = 0


class DiceRolled(Event, frozen=True):
    """Draws `draw` and `draw + 1` rolled the two six-sided dice."""

    seat: int
    dice: tuple[int, int]
    draw: int


class HarvestPaid(Event, frozen=True):
    """The harvest of number `total`: cards paid, and the hexes that produced."""

    total: int
    paid: tuple[Cards, ...]
    producing: tuple[Hex, ...]


class Famine(Event, frozen=True):
    """The stock could not pay the harvest of `total`: every card of the short types returns."""

    total: int
    short: tuple[Resource, ...]
    returned: tuple[Cards, ...]


class NumberAged(Event, frozen=True):
    """The number on `hex` went from `old` to `new` (`new == old`: none in stock)."""

    hex: Hex
    old: int
    new: int


class PhaseBegan(Event, frozen=True):
    """The turn moved on to `phase`; `seat` is the seat it waits for first."""

    phase: Phase
    seat: int


class Explored(Event, frozen=True):
    """`unit` explored `hex`: green dice rolls (rerolls included), the red die, the result.

    Draws start at `draw`; the red die comes after the greens when the terrain has a number.
    """

    unit: int
    hex: Hex
    modifier: int
    greens: tuple[int, ...]
    red: int | None
    terrain: Terrain
    number: int | None
    draw: int
    rewarded: Resource | None = None


class Moved(Event, frozen=True):
    """`unit` stepped to `to` (None: the outer sea), by a normal or an `extra` step."""

    unit: int
    to: Hex | None
    extra: bool = False


class StepSpent(Event, frozen=True):
    """`unit` spent a step without moving (it could not enter `to`, just explored)."""

    unit: int
    to: Hex
    extra: bool = False


class Chased(Event, frozen=True):
    """`unit` chases `victim` out of `hex`; its owner must flee."""

    unit: int
    victim: int
    hex: Hex
    extra: bool = False


class UnitFled(Event, frozen=True):
    """The chased unit fled to `to`."""

    unit: int
    to: Hex | None


class UnitRemoved(Event, frozen=True):
    """`unit` left play (back to its owner's supply); its red tokens went to `awarded`."""

    unit: int
    awarded: tuple[int, ...]


class RedTokensDiscarded(Event, frozen=True):
    """Red tokens of these colours beside `unit` were discarded."""

    unit: int
    colours: tuple[int, ...]


class StockTraded(Event, frozen=True):
    """`seat` gave `count` `give` to the stock for one `get`."""

    seat: int
    give: Resource
    count: int
    get: Resource


class TradeOffered(Event, frozen=True):
    """The active seat offers a trade (public)."""

    seat: int
    to: int | None
    give: Resource
    give_count: int
    get: Resource
    get_count: int


class TradeAnswered(Event, frozen=True):
    """`seat` accepted (the trade is carried out) or declined the open offer."""

    seat: int
    accepted: bool


class OfferClosed(Event, frozen=True):
    """The open offer is closed."""


class BuildDeclared(Event, frozen=True):
    """A build paid for now and taking effect at the end of the turn."""

    seat: int
    kind: BuildKind
    cost: tuple[Cards, ...]
    unit: int | None = None
    vertex: Vertex | None = None
    at: Hex | None = None
    resource: Resource | None = None


class LandnamTurnPassed(Event, frozen=True, tag="TurnPassed"):
    """The pending builds took effect and `seat` passed the dice to `next_seat` (None: the
    game is over)."""

    seat: int
    next_seat: int | None


class WindowPassed(Event, frozen=True):
    """`seat` plays no more Althing cards in this window."""

    seat: int


class OutlawsRemoved(Event, frozen=True):
    """At the start of the Althing, outlawed units left play (their tokens awarded)."""

    units: tuple[int, ...]


class StarterAppointed(Event, frozen=True):
    """The case round starts with `seat`; `cases` counts the cases against each seat."""

    seat: int
    cases: tuple[int, ...]


class CaseTried(Event, frozen=True):
    """`seat` brought `unit` to court with `cards` cards of `resource`."""

    seat: int
    unit: int
    resource: Resource
    cards: int


class CardsAdded(Event, frozen=True):
    """`seat` added cards to its side of the suit."""

    seat: int
    cards: int


class StoodBy(Event, frozen=True):
    """`seat` adds no cards while its side is to act this time."""

    seat: int


class AidAsked(Event, frozen=True):
    """`seat` asked `asked` to join its side."""

    seat: int
    asked: int


class AidAnswered(Event, frozen=True):
    """The asked seat joined (with `cards`) or refused."""

    seat: int
    cards: int


class SuitYielded(Event, frozen=True):
    """`seat` gave up the suit for its side."""

    seat: int


class SuitDecided(Event, frozen=True):
    """`white` takes the white token; `outlawed` (if the defence lost) gets a red token of
    `colour`. `interrupted`: adjourned or dissolved, nobody gets anything."""

    white: int | None
    outlawed: int | None
    colour: int | None
    interrupted: bool = False


class CasesEnded(Event, frozen=True):
    """`seat` tries no more cases."""

    seat: int


class AlthingClosed(Event, frozen=True):
    """The Althing is over; `black` got a black token each; `dissolved` by a fate card."""

    black: tuple[int, ...]
    dissolved: bool


LandnamEvent = (
    LandnamBegun
    | FateDrawn
    | FatePlayed
    | DiceRolled
    | HarvestPaid
    | Famine
    | NumberAged
    | PhaseBegan
    | Explored
    | Moved
    | StepSpent
    | Chased
    | UnitFled
    | UnitRemoved
    | RedTokensDiscarded
    | StockTraded
    | TradeOffered
    | TradeAnswered
    | OfferClosed
    | BuildDeclared
    | LandnamTurnPassed
    | WindowPassed
    | OutlawsRemoved
    | StarterAppointed
    | CaseTried
    | CardsAdded
    | StoodBy
    | AidAsked
    | AidAnswered
    | SuitYielded
    | SuitDecided
    | CasesEnded
    | AlthingClosed
)


# --- View ------------------------------------------------------------------------------


class CellView(msgspec.Struct, frozen=True):
    """An explored hex."""

    hex: Hex
    terrain: Terrain
    number: int | None = None
    harbour: Resource | None = None


class UnitView(msgspec.Struct, frozen=True):
    """A unit in play; `red` lists the colours of the red tokens beside it."""

    id: int
    owner: int
    kind: UnitKind
    at: Hex | None
    landed: bool
    red: tuple[int, ...]


class HouseView(msgspec.Struct, frozen=True):
    """A farm (level 1) or town (level 2)."""

    vertex: Vertex
    owner: int
    level: int


class LandnamPendingView(msgspec.Struct, frozen=True):
    """A build declared this turn."""

    kind: BuildKind
    unit: int | None
    vertex: Vertex | None
    at: Hex | None
    resource: Resource | None


class LandnamPlayerView(msgspec.Struct, frozen=True):
    """One player: public counts and tokens; the hand only for its own seat."""

    seat: int
    resource_cards: int
    fate_cards: int
    white: int
    red: int
    black: int
    points: int
    ships_left: int
    settlers_left: int
    houses_left: int
    hand: dict[str, int] | None = None
    fate: tuple[FateKind, ...] | None = None


class OfferView(msgspec.Struct, frozen=True):
    """The open trade offer."""

    seat: int
    to: int | None
    give: Resource
    give_count: int
    get: Resource
    get_count: int
    declined: tuple[int, ...]


class SuitView(msgspec.Struct, frozen=True):
    """The suit in court: sides (leader last), totals, who acts."""

    unit: int
    resource: Resource
    plaintiff: tuple[int, ...]
    defence: tuple[int, ...]
    totals: tuple[int, int]
    acting_side: int
    asked: int | None
    standing_by: tuple[int, ...] = ()


class AlthingView(msgspec.Struct, frozen=True):
    """The Althing in session."""

    starter: int | None
    pleading: int | None
    window: str | None
    passed: tuple[int, ...]
    suit: SuitView | None


class LandnamView(View, frozen=True):
    """The table as `viewer` sees it (None: a spectator)."""

    viewer: int | None
    players: tuple[LandnamPlayerView, ...]
    cells: tuple[CellView, ...]
    units: tuple[UnitView, ...]
    houses: tuple[HouseView, ...]
    terrain_stock: dict[str, int]
    number_stock: dict[str, int]
    harbour_stock: dict[str, int]
    fate_deck: int
    fate_discards: tuple[FateKind, ...]
    claimed_edges: tuple[int, ...]
    active: int | None
    phase: Phase
    turn: int
    max_rounds: int
    dice: tuple[int, int] | None
    steps_left: int
    pending: tuple[LandnamPendingView, ...]
    offer: OfferView | None
    offers_made: int
    althing: AlthingView | None
    fleeing: int | None
