"""Property: random legal play never loses a payment, a score or a piece, and the game ends
only when nothing waits to be resolved.

Fire & Axe once ended "immediately" while a pause (a reaction awaited) was pending, so a payment
was never made. Here, for seeded random games (random and greedy seats, head starts near the
12 points that end the game, richer hands so builds and suits happen), every event is folded one
at a time and checked:
- conservation: resource cards (hands + stock), terrain, number tokens, harbour markers and fate
  cards (deck + discards + hands) keep their totals; units and houses stay within the pieces;
- a ledger of what the events paid (white tokens of verdicts, red tokens of removed units,
  black tokens of the Althing, houses of farms and towns) equals the final score;
- the units in play are exactly those created and not removed by an event;
- the game ends once, by the end of a turn whose flight, offer and Althing are all over.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from contracts.base import Event
from contracts.games import landnam as ev
from contracts.games.landnam import Resource
from domain.bots import RandomBot, SeatPicker
from domain.chance import Chance
from domain.engine import decide, fold
from domain.games.landnam import GAME
from domain.games.landnam.board import CENTRE, corners
from domain.games.landnam.components import (
    ALTHING_CARDS,
    FATE_DECK,
    HARBOUR_MARKERS,
    HOUSES,
    NUMBER_TOKENS,
    RESOURCE_CARDS,
    RESOURCES,
    SETTLERS,
    SHIPS,
    TERRAIN_STOCK,
)
from domain.games.landnam.state import LandnamState, Unit

MAX_COMMANDS = 5000


@dataclass
class Ledger:
    """What the events paid each seat, and the units they put in and took out of play."""

    white: list[int]
    red: list[int]
    black: list[int]
    houses: list[int]
    units: set[int]
    next_unit: int
    pending: list[ev.BuildDeclared] = field(default_factory=list)

    def record(self, before: LandnamState, event: Event) -> None:
        """Book one event, read against the state just before it."""
        if isinstance(event, ev.SuitDecided) and event.white is not None:
            self.white[event.white] += 1
        elif isinstance(event, ev.UnitRemoved):
            # Every red token beside the removed unit goes to its colour, none is lost
            assert sorted(event.awarded) == sorted(before.units[event.unit].red)
            self._award(event.awarded)
            self.units.remove(event.unit)
        elif isinstance(event, ev.OutlawsRemoved):
            for unit in event.units:
                self._award(before.units[unit].red)
                self.units.remove(unit)
        elif isinstance(event, ev.AlthingClosed):
            for seat in event.black:
                self.black[seat] += 1
        elif isinstance(event, ev.BuildDeclared):
            if event.kind in ("farm", "town"):
                self.houses[event.seat] += 1  # a town adds one point to its farm's
            self.pending.append(event)
        elif isinstance(event, ev.LandnamTurnPassed):
            for build in self.pending:
                if build.kind == "farm":
                    assert build.unit is not None
                    self.units.remove(build.unit)
                elif build.kind in ("settler", "ship"):
                    self.units.add(self.next_unit)
                    self.next_unit += 1
            self.pending = []

    def _award(self, colours: list[int] | tuple[int, ...]) -> None:
        for colour in colours:
            self.red[colour] += 1


def check_conservation(state: LandnamState) -> None:
    """Nothing is created or lost: every stock and what came out of it add up."""
    seats = range(len(state.players))
    for resource in RESOURCES:
        held = [state.players[seat].hand[resource] for seat in seats]
        assert min(held) >= 0 and state.stock[resource] >= 0
        assert sum(held) + state.stock[resource] == RESOURCE_CARDS, resource
    explored = Counter(t for h, t in state.terrain.items() if h != CENTRE)
    assert {t: explored[t] + n for t, n in state.terrain_stock.items()} == TERRAIN_STOCK
    numbers = Counter(state.numbers.values())
    assert {v: numbers[v] + n for v, n in state.number_stock.items()} == NUMBER_TOKENS
    harbours = Counter(state.harbours.values())
    assert {r: harbours[r] + n for r, n in state.harbour_stock.items()} == HARBOUR_MARKERS
    fate = Counter(state.deck) + Counter(state.discards)
    for player in state.players:
        fate += Counter(player.fate)
    assert fate == Counter(FATE_DECK)
    for seat in seats:
        kinds = Counter(u.kind for u in state.units.values() if u.owner == seat)
        assert kinds["ship"] <= SHIPS and kinds["settler"] <= SETTLERS
        assert sum(level for owner, level in state.houses.values() if owner == seat) <= HOUSES


@dataclass
class Seats:
    """How the seats play: seeded random or greedy bots, and which acts when several may."""

    seed: int
    greedy: list[bool]

    def bots(self) -> list[Any]:
        """One bot per seat."""
        return [
            GAME.greedy_bot(bytes([seat]) + self.seed.to_bytes(8, "big"))
            if greedy
            else RandomBot(self.seed * 10 + seat)
            for seat, greedy in enumerate(self.greedy)
        ]


def play_out(state: LandnamState, chance: Chance, seats: Seats, ledger: Ledger) -> None:
    """Play to the end, folding each event alone and checking it; then check the outcome."""
    bots = seats.bots()
    picker = SeatPicker(seats.seed)
    ends = 0
    check_conservation(state)
    for _ in range(MAX_COMMANDS):
        acting = GAME.to_act(state)
        if not acting:
            break
        seat = picker.pick(acting)
        command = bots[seat].choose(GAME, state, seat)
        assert command is not None
        turn = state.turn
        for event in decide(GAME, state, command, seat, chance):
            assert ends == 0, "an event after the end"
            if isinstance(event, ev.LandnamTurnPassed) and event.next_seat is None:
                # The game ends only at the end of a turn with nothing left to resolve
                assert (turn.phase, turn.chase, turn.althing) == ("trade", None, None)
                ends += 1
            ledger.record(state, event)
            state = GAME.evolve(state, event)
            check_conservation(state)
            assert set(state.units) == ledger.units
    # It ended once, nobody is asked for anything, and each score is what the events paid
    outcome = GAME.outcome(state)
    assert outcome is not None and ends == 1
    assert all(GAME.legal_commands(state, seat) == [] for seat in range(len(state.players)))
    for score in outcome.scores:
        seat = score.seat
        paid = {
            "white_tokens": ledger.white[seat],
            "red_tokens": ledger.red[seat],
            "black_tokens": ledger.black[seat],
        }
        assert {k: score.breakdown[k] for k in paid} == paid
        assert score.breakdown["farms"] + score.breakdown["towns"] == ledger.houses[seat]
        assert score.total == sum(paid.values()) + ledger.houses[seat]


def opening_ledger(state: LandnamState) -> Ledger:
    """The ledger of a table as it stands: its tokens, houses and units."""
    seats = range(len(state.players))
    return Ledger(
        white=[state.players[seat].white for seat in seats],
        red=[state.players[seat].red for seat in seats],
        black=[state.players[seat].black for seat in seats],
        houses=[sum(lv for owner, lv in state.houses.values() if owner == seat) for seat in seats],
        units=set(state.units),
        next_unit=state.next_unit,
    )


def give_cards(state: LandnamState, seat: int, resource: Resource, count: int) -> None:
    """Move cards from the stock to a hand (as many as the stock holds)."""
    count = min(count, state.stock[resource])
    state.players[seat].hand[resource] += count
    state.stock[resource] -= count


PLAYERS = st.integers(3, 5)
HEAD_START = st.integers(0, 11)  # white tokens a seat starts with: 12 points end the game


@settings(max_examples=30, derandomize=True, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    players=PLAYERS,
    max_rounds=st.integers(1, 25),
    extra=st.integers(0, 2),
    data=st.data(),
)
def test_games_from_the_start_pay_every_point_keep_every_piece_and_end_with_nothing_pending(
    seed: int, players: int, max_rounds: int, extra: int, data: st.DataObject
) -> None:
    # Given a seeded game whose seats start with white tokens and extra cards of each kind
    chance = Chance(seed.to_bytes(32, "big"))
    config = ev.LandnamConfig(players=players, max_rounds=max_rounds)
    state = fold(GAME, GAME.setup(config, chance))
    assert state is not None
    for seat, player in enumerate(state.players):
        player.white = data.draw(HEAD_START)
        for resource in RESOURCES:
            give_cards(state, seat, resource, extra)
    greedy = data.draw(st.lists(st.booleans(), min_size=players, max_size=players))
    # Then played to its end, nothing is lost (see play_out)
    play_out(state, chance, Seats(seed, greedy), opening_ledger(state))


# Fields around the central mountain, and the corner of each that points away from it.
RING = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
RING_NUMBERS = (2, 3, 4, 5, 6, 8)


@settings(max_examples=30, derandomize=True, deadline=None)
@given(seed=st.integers(0, 2**32), players=PLAYERS, data=st.data())
def test_althings_on_the_brink_of_victory_pay_every_verdict_before_the_game_ends(
    seed: int, players: int, data: st.DataObject
) -> None:
    # Given each seat's settler on a field at the farm of the seat before it, so every seat
    # may sue at the Althing; seats near 12 points, holding grain and Althing cards; and the
    # active seat's next roll a 7, in the last round of the game
    chance = Chance(seed.to_bytes(32, "big"))
    config = ev.LandnamConfig(players=players, max_rounds=data.draw(st.integers(1, 2)))
    state = fold(GAME, GAME.setup(config, chance))
    assert state is not None
    for seat in range(players):
        state.players[seat].started = True
        field_, number = RING[seat], RING_NUMBERS[seat]
        state.terrain[field_] = "field"
        state.terrain_stock["field"] -= 1
        state.numbers[field_] = number
        state.number_stock[number] -= 1
        state.units[state.next_unit] = Unit(state.next_unit, seat, "settler", field_)
        state.next_unit += 1
        plaintiff = (seat - 1) % players
        state.houses[corners(field_)[_outward(seat)]] = (plaintiff, 1)
        state.players[seat].white = data.draw(HEAD_START)
        give_cards(state, seat, "grain", data.draw(st.integers(0, 4)))
        for card in data.draw(st.lists(st.sampled_from(sorted(ALTHING_CARDS)), max_size=2)):
            if card in state.deck:
                state.deck.remove(card)
                state.players[seat].fate.append(card)
        state.players[seat].fate.sort()
    state.draws = next(i for i in range(state.draws, 10_000) if _dice(chance, i) == 7)
    greedy = data.draw(st.lists(st.booleans(), min_size=players, max_size=players))
    # Then played to its end, nothing is lost (see play_out)
    play_out(state, chance, Seats(seed, greedy), opening_ledger(state))


def _outward(seat: int) -> int:
    """The corner of RING[seat] that touches neither the mountain nor another ring field."""
    field_ = RING[seat]
    return next(
        k
        for k, vertex in enumerate(corners(field_))
        if not any(h == CENTRE or (h != field_ and h in RING) for h in vertex)
    )


def _dice(chance: Chance, index: int) -> int:
    """The sum of the two dice a roll at draw `index` gives."""
    return 2 + chance.below(index, 6) + chance.below(index + 1, 6)
