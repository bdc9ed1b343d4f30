"""Tables played through the pure table engine (domain.table), and what they must keep."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

import msgspec

from contracts.stream import Clock, ClockSet, GameCreated, GameOpened, SeedRevealed
from contracts.system import Resign, StartGame, SystemCommand, TimeOut
from domain.chance import Chance, commitment
from domain.engine import Game
from domain.table import (
    START_ID,
    SYSTEM_SEAT,
    Applied,
    Decision,
    Refused,
    Table,
    TableCommand,
    Undecodable,
    decide,
    evolve,
    fold,
    resign_id,
    timeout_id,
)
from domain.table.forfeits import rank_forfeited_last
from domain.table.standins import parse_bot_id

# Every clock policy a table runs under: what acts for a timed-out seat, take-back, the total
# clock (abandon_after 1 so that a seat is abandoned at its first miss).
POLICIES: dict[str, Clock] = {
    "bot": Clock(per_move_s=60),
    "skip": Clock(per_move_s=60, on_timeout="skip"),
    "forfeit": Clock(per_move_s=60, on_timeout="forfeit"),
    "take_back": Clock(per_move_s=60, abandon_after=1, take_back=True),
    "no_take_back": Clock(per_move_s=60, abandon_after=1),
    "total_clock": Clock(per_move_s=60, total_s=90, increment_s=5),
}


@dataclass
class Played:
    """A table as played so far: every event it recorded (with its command id) from the
    opening on, and how many commands each outcome had."""

    table: Table
    recorded: list[tuple[Any, str | None]] = field(default_factory=list)
    outcomes: dict[str, int] = field(default_factory=dict)
    now_ms: int = 1_000_000
    commands: int = 0

    def run(
        self, seat: int, command_id: str, command: Any, expected: int | None = None
    ) -> Decision:
        """Decide one command (`<seat>:<id>` its key), check it, keep its events."""
        self.commands += 1
        key = f"{seat}:{command_id}"
        version = self.table.version
        decision = decide(self.table, TableCommand(seat, key, command, expected), self.now_ms)
        check_decision(self.table, decision, key, version)
        self.recorded += [(r.event, r.command_id) for r in decision.events]
        outcome = decision.outcome
        name = outcome.code if isinstance(outcome, Refused) else "applied"
        self.outcomes[name] = self.outcomes.get(name, 0) + 1
        return decision

    def system(self, command_id: str, command: SystemCommand) -> Decision:
        return self.run(SYSTEM_SEAT, command_id, command)


def opened(game: Game, seed: bytes, clock: Clock | None, config_index: int = 0) -> Played:
    """A player-created table of `game` (its first example config), opened and started with
    no bots: the opening folded, then `sys:start` decided."""
    config = game.example_configs()[config_index]
    setup = game.setup(config, Chance(seed))
    created = GameCreated(
        game.name, game.rules_version, msgspec.to_builtins(config), commitment(seed), "t"
    )
    opening: list[Any] = [created, GameOpened("creator")]
    opening += [] if clock is None else [ClockSet(clock)]
    opening += setup
    table = fold(Table.new(game, config.players, game.rules_version, seed), opening)
    played = Played(table, [(event, None) for event in opening])
    applied = played.system(START_ID, StartGame([]))
    assert isinstance(applied.outcome, Applied), applied.outcome
    return played


def snapshot(table: Table) -> tuple[Any, ...]:
    """What a table holds, to compare two of them (its state compares with ==)."""
    return (
        table.state,
        table.version,
        table.finished,
        table.phase,
        table.bots,
        table.clock,
        table.clocks,
        table.abandoned,
        table.forfeited,
    )


def refolded(played: Played) -> Table:
    """The table folded from scratch over every event the played table recorded."""
    kept = played.table
    table = Table.new(kept.game, kept.seats, kept.rules_version, kept.seed)
    for event, _ in played.recorded:
        evolve(table, event)
    return table


def check_decision(table: Table, decision: Decision, key: str, version: int) -> None:
    """What every decision keeps: the rules never fail, its events are numbered from the
    version before it, bots' ids parse back, its span holds its own events, and the deadlines
    it sets are the ones the table now waits on."""
    outcome = decision.outcome
    assert decision.trusted and decision.error is None, decision.error
    assert not (isinstance(outcome, Refused) and outcome.code == "engine.error")
    assert table.version == version + len(decision.events)
    for offset, recorded in enumerate(decision.events, start=1):
        command_id = recorded.command_id
        if command_id is not None and command_id != key:
            move = parse_bot_id(command_id)
            assert move is not None, command_id
            assert 0 <= move.seat < table.seats and move.kind in ("greedy", "pass")
            assert move.version < version + offset
    if isinstance(outcome, Applied) and outcome.first is not None:
        assert outcome.last is not None
        span = decision.events[outcome.first - version - 1 : outcome.last - version]
        assert span[0].command_id == key and span[-1].command_id == key
    if isinstance(outcome, Refused):
        assert all(r.command_id is None for r in decision.events)  # a take-back at most
    held = {} if table.clocks is None else {(e.seat, e.since): e for e in table.clocks.entries}
    for seat, since, at in decision.deadlines:
        if not table.finished:
            assert held[(seat, since)].deadline_ms == at
    assert decision.finished == table.finished
    if table.finished:
        assert isinstance(decision.events[-1].event, SeedRevealed) or not decision.events


def check_table(table: Table) -> None:
    """What a table keeps between commands: a started game not over waits for a player (the
    bots have played), and each seat it waits for has one deadline, in a timed game."""
    if table.finished or table.phase != "started":
        return
    waiting = set(table.game.to_act(table.state))
    assert waiting - table.bots, "the game waits for its bots only"
    if table.clocks is not None:
        assert {e.seat for e in table.clocks.entries} == waiting - table.bots


def check_outcome(table: Table) -> None:
    """A finished game's outcome ranks its forfeited seats last."""
    outcome = rank_forfeited_last(table.game.outcome(table.state), table.forfeited)
    assert outcome is not None
    last = max(score.rank for score in outcome.scores)
    for score in outcome.scores:
        if score.seat in table.forfeited:
            assert score.rank == last
            assert score.seat not in outcome.winners or len(table.forfeited) == table.seats


def step(played: Played, rng: random.Random, command_no: int) -> None:
    """One thing happens at the table: mostly a waited-for player moves; sometimes a seat's
    deadline passes, a stale timeout or a late command comes, a player resigns, or the player
    of an abandoned seat comes back."""
    table = played.table
    played.now_ms += rng.randint(1, 90_000)
    roll = rng.random()
    entries = [] if table.clocks is None else list(table.clocks.entries)
    players = sorted(set(range(table.seats)) - table.bots)
    if roll < 0.2 and entries:
        entry = rng.choice(entries)
        played.system(timeout_id(entry.seat, entry.since), TimeOut(entry.seat, entry.since))
        return
    if roll < 0.23 and entries:
        entry = rng.choice(entries)  # a deadline already passed, named again
        stale = played.system("stale", TimeOut(entry.seat, entry.since - 1))
        assert isinstance(stale.outcome, Refused) and stale.outcome.code == "timer.stale"
        return
    if roll < 0.25 and len(players) > 1:
        seat = rng.choice(players)
        played.system(resign_id(seat), Resign(seat))
        return
    if roll < 0.32 and table.abandoned:
        seat = rng.choice(sorted(table.abandoned))
        candidates = table.game.candidate_commands(table.state, seat)
        if candidates:
            played.run(seat, f"back{command_no}", rng.choice(candidates))
        return
    if roll < 0.34:
        seat = rng.randrange(table.seats)  # chosen two versions ago: refused stale
        late = played.run(seat, f"late{command_no}", Undecodable("{}"), expected=table.version - 2)
        assert isinstance(late.outcome, Refused) and late.outcome.code == "command.stale"
        return
    waiting = sorted(set(table.game.to_act(table.state)) - table.bots)
    seat = rng.choice(waiting)
    legal = table.game.legal_commands(table.state, seat)
    moved = played.run(seat, f"m{command_no}", rng.choice(legal))
    assert isinstance(moved.outcome, Applied), moved.outcome


def play(game: Game, clock: Clock | None, seed: int, commands: int) -> Played:
    """Up to `commands` things happen at a table (fewer if the game ends), each checked."""
    rng = random.Random(seed)
    played = opened(game, seed.to_bytes(32, "big"), clock)
    for command_no in range(commands):
        if played.table.finished:
            break
        step(played, rng, command_no)
        check_table(played.table)
    return played
