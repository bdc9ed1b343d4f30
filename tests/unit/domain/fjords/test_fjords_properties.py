"""Property: random legal play never loses a tile, a piece, a rune stone or a point, and a game
ends only when nobody can place anything more.

Fire & Axe once ended "immediately" while a pause was pending, so a payment was never made.
Fjords has no reactions, but it has the same two risks: a phase or a seat closed while a move
was still open to it (a viking, so a point, never placed), and a piece or tile lost on the way.
For seeded random games of every variant and rune set (random seats, one perhaps greedy), every
event is folded one at a time and checked:
- conservation: each tile of the game's set is in exactly one place (bag, row, set-aside rows,
  Classic's set-aside or drawn tile, board); each seat's vikings and longhouses of each colour
  are in its supply or on the board; each personal rune stone is held, on the board or spent;
- a seat is put out only when it has no legal command, Settlement ends only when every seat is
  out, and Exploration only when no tile is left or none fits anywhere;
- each score's vikings are the vikings the events placed, and its total the sum of its parts.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from hypothesis import given, settings
from hypothesis import strategies as st

from contracts.base import Event
from contracts.games.fjords import (
    RUNE_NAMES,
    ExplorationEnded,
    FjordsConfig,
    GameStarted,
    MatchGameStarted,
    PlayerOut,
    RuneStoneDiscarded,
    RuneStonePlaced,
    SettlementEnded,
    VikingPlaced,
)
from domain.bots import RandomBot, SeatPicker
from domain.chance import Chance
from domain.engine import decide
from domain.errors import IllegalCommand
from domain.games.fjords import GAME
from domain.games.fjords.board import check_placement, open_slots
from domain.games.fjords.state import FjordsState

MAX_COMMANDS = 2000


@dataclass
class Ledger:
    """What one game of the table started with, and what its events placed and spent."""

    tiles: Counter[int] = field(default_factory=Counter)
    pieces: dict[tuple[int, str], tuple[int, int]] = field(default_factory=dict)
    runes: list[Counter[str]] = field(default_factory=list)
    vikings: list[int] = field(default_factory=list)
    games: list[list[int]] = field(default_factory=list)  # vikings placed, per finished game

    def start(self, state: FjordsState) -> None:
        """A game (or a Classic match's next game) begins: take stock."""
        starting = Counter(s.tile.id for s in GAME.tiles.starting)
        self.tiles = Counter(state.bag) + starting
        self.pieces = {
            (seat, supply.colour): (supply.vikings, supply.longhouses)
            for seat, supplies in enumerate(state.supplies)
            for supply in supplies
        }
        self.runes = [Counter(held) for held in state.runes_held]
        self.vikings = [0] * state.players

    def record(self, before: FjordsState, event: Event) -> None:
        """Check and book one event against the state just before it."""
        if isinstance(event, VikingPlaced):
            self.vikings[event.seat] += 1
        elif isinstance(event, RuneStoneDiscarded | RuneStonePlaced) and event.seat is not None:
            self.runes[event.seat][event.rune] -= 1  # spent, or (Home, Wisdom) on the board
        elif isinstance(event, PlayerOut):
            # Nobody is put out while a viking (a point) could still be placed
            assert GAME.legal_commands(before, event.seat) == [], event
        elif isinstance(event, SettlementEnded):
            assert all(before.out), "Settlement ended with a seat still in"
            self.games.append(list(self.vikings))
        elif isinstance(event, ExplorationEnded):
            check_exploration_over(before, event)


def check_exploration_over(state: FjordsState, event: ExplorationEnded) -> None:
    """Exploration ends only with no tile left, or none that fits any open space."""
    left = [*state.row, *state.bag, *state.discarded, *state.set_aside]
    if state.drawn is not None:
        left.append(state.drawn)
    if event.reason == "no_tile_fits":
        for tile in left:
            for slot in open_slots(state.board):
                for rotation in range(6):
                    try:
                        check_placement(state.board, GAME.tiles.tile(tile), slot.position, rotation)
                    except IllegalCommand:
                        continue
                    raise AssertionError(f"tile {tile} still fits at {slot.position}")
    else:
        assert not state.bag and not state.row, event


def check_conservation(state: FjordsState, ledger: Ledger, settled: bool) -> None:
    """Every tile in one place, every piece in its supply or on the board, every rune kept."""
    placed = Counter(tile.tile for tile in state.board.values())
    located = placed + Counter([*state.bag, *state.row, *state.discarded, *state.set_aside])
    if state.drawn is not None:
        located[state.drawn] += 1
    # Between a game's first event and its starting tiles, those are not laid yet
    assert located == ledger.tiles if settled else located <= ledger.tiles
    on_board = Counter((p.seat, p.colour, p.kind) for p in state.pieces.values())
    for seat, supplies in enumerate(state.supplies):
        for supply in supplies:
            vikings, longhouses = ledger.pieces[(seat, supply.colour)]
            assert supply.vikings + on_board[(seat, supply.colour, "viking")] == vikings
            longhouses_placed = on_board[(seat, supply.colour, "longhouse")]
            assert supply.longhouses + longhouses_placed == longhouses
        kept = ledger.runes[seat]
        assert min(kept.values(), default=0) >= 0 and Counter(state.runes_held[seat]) == +kept


@st.composite
def configs(draw: st.DrawFn) -> FjordsConfig:
    """Any variant, player count and set of rune stones the game allows."""
    variant = draw(st.sampled_from(["base", "base", "base", "epic", "classic"]))
    players = draw(st.integers(2, 4)) if variant == "base" else 2
    runes: tuple[str, ...] = ()
    if variant != "classic":
        chosen = draw(st.lists(st.sampled_from(RUNE_NAMES), unique=True, max_size=7))
        runes = tuple(rune for rune in RUNE_NAMES if rune in chosen)
    return FjordsConfig(players=players, variant=variant, runes=runes)  # type: ignore[arg-type]


@settings(max_examples=40, derandomize=True, deadline=None)
@given(config=configs(), seed=st.integers(0, 2**32), data=st.data())
def test_random_play_loses_nothing_and_ends_only_when_nobody_can_place(
    config: FjordsConfig, seed: int, data: st.DataObject
) -> None:
    # Given a seeded game of random seats, one of them perhaps greedy (a slower bot)
    greedy = data.draw(st.integers(-1, config.players - 1))
    bots = [
        GAME.greedy_bot(bytes([seat]) + seed.to_bytes(8, "big"))
        if seat == greedy
        else RandomBot(seed * 10 + seat)
        for seat in range(config.players)
    ]
    picker = SeatPicker(seed)
    chance = Chance(seed.to_bytes(32, "big"))
    ledger = Ledger()
    state: FjordsState | None = None
    for event in GAME.setup(config, chance):
        state = GAME.evolve(state, event)
        if isinstance(event, GameStarted):
            ledger.start(state)
    assert state is not None
    check_conservation(state, ledger, settled=True)
    # When it is played to its end, each event folded alone and checked
    for _ in range(MAX_COMMANDS):
        acting = GAME.to_act(state)
        if not acting:
            break
        seat = picker.pick(acting)
        command = bots[seat].choose(GAME, state, seat)
        assert command is not None, "a seat asked to act has a legal command"
        for event in decide(GAME, state, command, seat, chance):
            assert GAME.outcome(state) is None, "an event after the end"
            ledger.record(state, event)
            state = GAME.evolve(state, event)
            if isinstance(event, MatchGameStarted):
                ledger.start(state)
            check_conservation(state, ledger, settled=False)
        check_conservation(state, ledger, settled=True)
    # Then it is over, nobody is asked for anything, and each score adds up
    outcome = GAME.outcome(state)
    assert outcome is not None
    assert all(GAME.legal_commands(state, seat) == [] for seat in range(config.players))
    for score in outcome.scores:
        assert score.total == sum(score.breakdown.values())
        if config.variant == "classic":
            placed = [game[score.seat] for game in ledger.games]
            assert [score.breakdown[f"game_{n}_vikings"] for n in (1, 2, 3)] == placed
        else:
            assert score.breakdown["vikings"] == ledger.games[-1][score.seat]
            if state.vikings_left(score.seat) > 0:
                assert score.breakdown["undisputed_tiles"] == 0
