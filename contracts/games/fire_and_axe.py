"""Fire & Axe wire contracts: the config, commands, events and view of Fire & Axe.

Places are named by the map data (domain/games/fire_and_axe/data.json): ports, water spaces and
the Homelands Norway, Sweden and Denmark; the Wintering Zone is `WINTERING`. Seats are
0 .. players-1 and play in increasing order from the first seat.

Events record facts only; every random outcome carries the index of the draw that chose it
(`draw`, or `draws` for several), so replay needs no randomness and the revealed seed
re-derives every one. What a seat may not see (the towns' treasures, the order of the decks,
other seats' Runes) is blanked by the game's `visible_event`.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from contracts.base import Command, Event, GameConfig, View

Good = Literal["fish", "tusks", "furs"]
Item = Literal["crew", "fish", "tusks", "furs"]
Homeland = Literal["Norway", "Sweden", "Denmark"]
RuneKind = Literal[
    "change_in_demand",
    "fair_wind",
    "recruits",
    "unrest",
    "war_cry",
    "shield_wall",
    "plunder",
    "fortune_of_war",
    "desertion",
]
Dial = Annotated[int, msgspec.Meta(ge=-1, le=1)]
TownSize = Literal["small", "large"]
WINTERING = "Wintering Zone"
GOODS: tuple[Good, ...] = ("fish", "tusks", "furs")
ITEMS: tuple[Item, ...] = ("crew", "fish", "tusks", "furs")
HOMELANDS: tuple[Homeland, ...] = ("Norway", "Sweden", "Denmark")


DEFAULT_ROUND_LIMIT = 60


class FireAndAxeConfig(GameConfig, frozen=True, forbid_unknown_fields=True):
    """A new game: 3 to 5 players; `conflict_runes` keeps the 9 conflict Runes in the deck;
    the game also ends after `round_limit` full rounds (None: only as the rule book says).
    """

    players: Annotated[int, msgspec.Meta(ge=3, le=5)]
    conflict_runes: bool = True
    round_limit: Annotated[int, msgspec.Meta(ge=1, le=500)] | None = DEFAULT_ROUND_LIMIT


# --- Commands: Actions (1 Day each), Tasks, Other Activities, and pending choices -----------


class Load(Command, frozen=True):
    """Action, in the Wintering Zone: one crewmember or one good into an open slot."""

    item: Item


class LeaveWintering(Command, frozen=True):
    """Free, in the Wintering Zone with crew aboard: move the longship to a Homeland."""

    homeland: Homeland


class DrawRune(Command, frozen=True):
    """Action, in a Homeland with fewer than three Runes: take the top Rune."""


class Sail(Command, frozen=True):
    """Action: move to an adjacent water space, port or Homeland."""

    to: str


class ChooseLoss(Command, frozen=True):
    """Cover one skull due with a crewmember or a good from the longship."""

    item: Item


class Trade(Command, frozen=True):
    """Task: deliver a good to this port for its value (+2 if in demand)."""

    good: Good


class Raid(Command, frozen=True):
    """Task: roll a die against this port's town."""


class RaidAgain(Command, frozen=True):
    """After a failed Raid roll with crew left: roll again (at most three rolls)."""


class StopRaid(Command, frozen=True):
    """After a failed Raid roll: break off the Raid."""


class TakeTreasure(Command, frozen=True):
    """After a successful Raid (conflict Runes in play): take the treasure's VP."""


class Settle(Command, frozen=True):
    """Task: roll `dice` dice (1 to 3, at most the crew aboard) to settle this port."""

    dice: Annotated[int, msgspec.Meta(ge=1, le=3)]


class ConfirmSettlement(Command, frozen=True):
    """After a successful Settle with one crew left: settle it (`settle`) or keep it aboard."""

    settle: bool


class PlayRune(Command, frozen=True):
    """Play a Rune from hand, first turning the Wind Dial `dial` quarter turns (+1 clockwise).

    `target` is the seat a conflict Rune aims at; `good` the good it names (Change in
    Demand: the new good in demand; Plunder: the good taken from the target's longship).
    """

    rune: RuneKind
    dial: Dial = 0
    target: int | None = None
    good: Good | None = None


class DiscardRune(Command, frozen=True):
    """Discard a Rune from hand without its effect, first turning the dial `dial`."""

    rune: RuneKind
    dial: Dial = 0


class Winter(Command, frozen=True):
    """Move to the Wintering Zone keeping one crewmember; the turn ends."""


class DeclareTurnOver(Command, frozen=True):
    """Declare the turn over (not in the Wintering Zone)."""


FireAndAxeCommand = (
    Load
    | LeaveWintering
    | DrawRune
    | Sail
    | ChooseLoss
    | Trade
    | Raid
    | RaidAgain
    | StopRaid
    | TakeTreasure
    | Settle
    | ConfirmSettlement
    | PlayRune
    | DiscardRune
    | Winter
    | DeclareTurnOver
)


# --- Events ---------------------------------------------------------------------------------


class TownPlaced(msgspec.Struct, frozen=True):
    """A town on a starred port, hiding `treasure` VP (0 when not shown)."""

    port: str
    size: TownSize
    treasure: int


class TableSetUp(Event, frozen=True):
    """The table: towns with their treasures, the Saga deck top first, the Rune deck top
    first, and the first seat. `draws` counts the random draws used.

    The treasures and both decks are hidden from every seat while the game is in play.
    `revision`: the rules revision the game was set up under and keeps to its end (1 for
    games stored before revisions were recorded; the game's README lists what each changed).
    """

    players: int
    conflict_runes: bool
    round_limit: int | None
    first_seat: int
    towns: tuple[TownPlaced, ...]
    saga_deck: tuple[int, ...]
    rune_deck: tuple[RuneKind, ...]
    draws: int
    revision: int = 1


class StartingBonus(Event, frozen=True):
    """The seat's starting VP (1 for the first seat, 2 for the next, ...)."""

    seat: int
    points: int


class SagaRevealed(Event, frozen=True):
    """The top Saga went face up into `space` (0 to 2)."""

    saga: int
    space: int


class SagaDiscarded(Event, frozen=True):
    """The top Saga was already fulfilled when flipped and left the game."""

    saga: int


class EraBegan(Event, frozen=True):
    """The first card of Era `era` was placed: cargo slots grow."""

    era: int


class FinalRoundTokensTaken(Event, frozen=True):
    """The Saga deck ran out: the seat takes the three Final Round tokens."""

    seat: int


class FinalRoundTokenPlaced(Event, frozen=True):
    """At the start of the holder's turn, one token placed; `placed` counts them (1 to 3)."""

    seat: int
    placed: int


class RuneDrawn(Event, frozen=True):
    """The seat took the top Rune (`rune` is "" for every other seat); `action` when it cost
    a Day."""

    seat: int
    rune: RuneKind | Literal[""]
    action: bool


class RuneDeckReshuffled(Event, frozen=True):
    """The empty Rune deck was rebuilt from the discards in `order`, top first (hidden)."""

    order: tuple[RuneKind, ...]
    draws: tuple[int, ...]


class Loaded(Event, frozen=True):
    """Load: one item aboard, one Day of Preparation."""

    seat: int
    item: Item


class LeftWintering(Event, frozen=True):
    """The longship moved from the Wintering Zone to a Homeland."""

    seat: int
    homeland: Homeland


class Sailed(Event, frozen=True):
    """The longship moved; `skulls` are the Losses chart skulls newly covered (0 based)."""

    seat: int
    to: str
    excess: int
    skulls: tuple[int, ...]


class ItemLost(Event, frozen=True):
    """An item left the longship: crew to its owner's supply, goods to the stockpile."""

    seat: int
    item: Item
    reason: Literal["weather", "plunder", "desertion"]


class CrewRecruited(Event, frozen=True):
    """Recruits: `count` crewmembers from the seat's supply went aboard (no Day spent)."""

    seat: int
    count: int


class Wrecked(Event, frozen=True):
    """The longship lost its last crewmember: goods discarded, to the Wintering Zone."""

    seat: int
    goods: tuple[Good, ...]


class Wintered(Event, frozen=True):
    """The longship moved to the Wintering Zone with one crewmember, the rest discarded."""

    seat: int
    crew_discarded: int
    goods: tuple[Good, ...]


class Traded(Event, frozen=True):
    """A good went from the longship into the port, for `points` VP."""

    seat: int
    port: str
    good: Good
    points: int


class RaidRolled(Event, frozen=True):
    """One Raid roll: it succeeds above `target` (the port's value, less 1 with a good in
    it, less 1 per War Cry); a failure costs `lost` crew (0 with Shield Wall)."""

    seat: int
    port: str
    roll: int
    target: int
    success: bool
    lost: int
    draw: int


class RaidEnded(Event, frozen=True):
    """The Raid is over without a town (stopped, out of rolls, or out of crew)."""

    seat: int
    port: str


class TownTaken(Event, frozen=True):
    """The town left the port for the seat's collection; its treasure is now shown."""

    seat: int
    port: str
    size: TownSize
    treasure: int


class TreasureCollected(Event, frozen=True):
    """The raided town's treasure paid `points` VP (doubled by Fortune of War)."""

    seat: int
    port: str
    points: int


class SettleRolled(Event, frozen=True):
    """The Settle dice: each above `target` succeeds, each other one costs a crew (`lost`,
    0 with Shield Wall)."""

    seat: int
    port: str
    rolls: tuple[int, ...]
    target: int
    success: bool
    lost: int
    draws: tuple[int, ...]


class SettlementMade(Event, frozen=True):
    """A crewmember of the seat became a Settlement in the port."""

    seat: int
    port: str


class SettlementDeclined(Event, frozen=True):
    """The seat kept its last crewmember aboard instead of settling."""

    seat: int
    port: str


class RunePlayed(Event, frozen=True):
    """A Rune from the seat's hand, played (`played`) or discarded, to the discard pile."""

    seat: int
    rune: RuneKind
    played: bool


class DialTurned(Event, frozen=True):
    """The Wind Dial cover now has its blue hole over `blue` (N, E, S or W)."""

    seat: int
    blue: str


class DemandChanged(Event, frozen=True):
    """The good in demand went back to the stockpile; `good` from the stockpile replaced it."""

    seat: int
    good: Good


class SailingReduced(Event, frozen=True):
    """Fair Wind: the Sailing slider is now `sailing`."""

    seat: int
    sailing: int


class AttackPrepared(Event, frozen=True):
    """War Cry or Shield Wall now helps the seat's next attack in `port`."""

    seat: int
    port: str
    rune: RuneKind


class SettlementOverthrown(Event, frozen=True):
    """Unrest: `owner`'s Settlement in the port returned to its supply; the seat settles."""

    seat: int
    owner: int
    port: str


class SagaCompleted(Event, frozen=True):
    """The seat completed the Saga in `space` and took it, with its bonus VP."""

    seat: int
    saga: int
    space: int
    points: int


class TurnPassed(Event, frozen=True):
    """The seat's turn is over: sliders to 0, covered skulls cleared."""

    seat: int


class TurnBegan(Event, frozen=True):
    """The seat's turn starts (`sits_out`: no crew to man a longship; it passes at once)."""

    seat: int
    sits_out: bool


class GameEnded(Event, frozen=True):
    """The game is over; `reason` says which end."""

    reason: Literal["last_saga", "final_rounds", "everyone_sits_out", "round_limit"]


FireAndAxeEvent = (
    TableSetUp
    | StartingBonus
    | SagaRevealed
    | SagaDiscarded
    | EraBegan
    | FinalRoundTokensTaken
    | FinalRoundTokenPlaced
    | RuneDrawn
    | RuneDeckReshuffled
    | Loaded
    | LeftWintering
    | Sailed
    | ItemLost
    | CrewRecruited
    | Wrecked
    | Wintered
    | Traded
    | RaidRolled
    | RaidEnded
    | TownTaken
    | TreasureCollected
    | SettleRolled
    | SettlementMade
    | SettlementDeclined
    | RunePlayed
    | DialTurned
    | DemandChanged
    | SailingReduced
    | AttackPrepared
    | SettlementOverthrown
    | SagaCompleted
    | TurnPassed
    | TurnBegan
    | GameEnded
)


# --- View -----------------------------------------------------------------------------------


class PortView(msgspec.Struct, frozen=True):
    """A port as the table shows it: its town (treasure never shown), good, settlement."""

    port: str
    value: int
    region: str | None
    zone: str
    town: TownSize | None
    good: Good | None
    settlement: int | None
    longship: int | None


class SagaCard(msgspec.Struct, frozen=True):
    """A Saga: its Era, Homeland, type, goal ports and bonus VP."""

    id: int
    title: str
    era: int
    homeland: Homeland
    kind: Literal["trade", "raid", "settle"]
    ports: tuple[str, ...]
    points: int


class WonTown(msgspec.Struct, frozen=True):
    """A raided town in a player's collection, its treasure shown."""

    port: str
    size: TownSize
    treasure: int


class PlayerView(msgspec.Struct, frozen=True):
    """One player: longship, cargo, supply, VP so far, towns, Sagas; Runes only for its seat."""

    seat: int
    location: str
    crew: int
    goods: tuple[Good, ...]
    crew_supply: int
    settlements: tuple[str, ...]
    points: int
    towns: tuple[WonTown, ...]
    sagas: tuple[SagaCard, ...]
    rune_count: int
    runes: tuple[RuneKind, ...] | None  # None: hidden from this viewer
    final_round_tokens: int


class PendingView(msgspec.Struct, frozen=True):
    """A choice the player to act owes before anything else."""

    kind: Literal["losses", "raid_again", "treasure", "confirm_settlement"]
    port: str | None
    losses: int


class TurnStatus(msgspec.Struct, frozen=True):
    """Where the turn stands: the sliders, the ports tried, skulls covered, a pending choice."""

    seat: int
    preparation: int
    sailing: int
    ports_tried: tuple[str, ...]
    skulls_covered: tuple[int, ...]
    pending: PendingView | None
    prepared: tuple[RuneKind, ...]  # one entry per card played: War Crys stack


class FireAndAxeView(View, frozen=True):
    """The table as `viewer` sees it (None: a spectator)."""

    viewer: int | None
    players: int
    first_seat: int
    conflict_runes: bool
    era: int
    cargo_slots: int
    dial_blue: str
    clear_days: dict[str, int]
    demand: Good
    goods_supply: dict[str, int]
    ports: tuple[PortView, ...]
    sagas: tuple[SagaCard | None, ...]
    saga_deck: int
    rune_deck: int
    rune_discards: tuple[RuneKind, ...]
    final_round_tokens_placed: int
    round: int
    round_limit: int | None
    seats: tuple[PlayerView, ...]
    turn: TurnStatus | None  # None once the game is over
