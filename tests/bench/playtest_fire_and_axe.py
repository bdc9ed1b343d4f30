"""Play test of Fire & Axe's designed data with a greedy bot: prints figures, asserts nothing.

    .venv/bin/python tests/bench/playtest_fire_and_axe.py [--games 50] [--players 3 4 5]

The bot loads 3 crew and fills the other slots with goods, sails by a shortest path to the
nearest port where a Task can be tried (Saga ports count as nearer), avoids weather losses by
ending its turn before a Sail that would cover a skull, tries Raid, Settle or Trade there, plays
Runes when it may, and winters when its longship is spent. Games run with a round limit of 80;
games that reach it count as capped. Reported per player count: rounds (median and 95th
percentile), how the games end, Sagas completed (and those completed in under 5% of the games
that deal them), the share of sailing turns with losses, how often a goods type runs out, and
the ports visited in fewer than 20% of games.
"""

from __future__ import annotations

import argparse
import statistics
from collections import Counter, deque
from dataclasses import dataclass, field

from contracts.base import Command
from contracts.games.fire_and_axe import (
    WINTERING,
    ChooseLoss,
    ConfirmSettlement,
    DeclareTurnOver,
    DrawRune,
    FireAndAxeConfig,
    GameEnded,
    ItemLost,
    LeaveWintering,
    Load,
    PlayRune,
    Raid,
    RaidAgain,
    SagaCompleted,
    SagaRevealed,
    Sail,
    Sailed,
    Settle,
    StopRaid,
    TakeTreasure,
    Trade,
    TurnBegan,
    Winter,
)
from domain.chance import Chance
from domain.engine import fold
from domain.games.fire_and_axe import GAME
from domain.games.fire_and_axe.data import DATA, clear_days, region_mates
from domain.games.fire_and_axe.state import FireAndAxeState

CAP_ROUNDS = 80


def shortest_paths(start: str, blocked: set[str]) -> dict[str, list[str]]:
    """A shortest path (first step first) to every node, not through other longships' ports."""
    paths: dict[str, list[str]] = {start: []}
    queue = deque([start])
    while queue:
        node = queue.popleft()
        for near in DATA.neighbours[node]:
            if near not in paths and near not in blocked:
                paths[near] = [*paths[node], near]
                if near not in DATA.ports:  # ports are ends, not passages
                    queue.append(near)
    return paths


def saga_targets(state: FireAndAxeState, seat: int) -> set[str]:
    """Ports where a Task by this longship advances a face-up Saga (a region's town is the
    target of a Settle goal blocked by it)."""
    found: set[str] = set()
    for saga_id in state.saga_spaces:
        if saga_id is None:
            continue
        saga = DATA.sagas[saga_id]
        for port in saga.ports:
            trade = saga.kind == "trade" and tradable(state, seat, port)
            if trade or (saga.kind == "raid" and port in state.towns):
                found.add(port)
            elif saga.kind == "settle" and port not in state.settlements:
                region = DATA.ports[port].region
                mates = DATA.regions[region] if region else (port,)
                towns = [mate for mate in mates if mate in state.towns]
                found.update(towns or [port])
    return found


def tradable(state: FireAndAxeState, seat: int, port: str) -> bool:
    """Whether a good aboard may be traded to the port."""
    if port in state.port_goods:
        return False
    taken = {state.port_goods.get(mate) for mate in region_mates(port)}
    return any(good not in taken for good in state.players[seat].goods)


def useful(state: FireAndAxeState, seat: int, port: str) -> bool:
    """Whether a Raid or a Trade could be tried in the port by this longship."""
    return port in state.towns or tradable(state, seat, port)


def choose(state: FireAndAxeState, seat: int) -> Command:
    """The greedy bot's pick among the legal commands."""
    legal = GAME.legal_commands(state, seat)
    kinds = {type(command) for command in legal}
    player = state.players[seat]
    turn = state.turn
    assert turn is not None
    for wanted in (TakeTreasure, RaidAgain):
        if wanted in kinds and (wanted is TakeTreasure or player.crew >= 2):
            return wanted()
    if StopRaid in kinds:
        return StopRaid()
    if ConfirmSettlement in kinds:
        return ConfirmSettlement(settle=False)
    if ChooseLoss in kinds:
        goods = [c for c in legal if isinstance(c, ChooseLoss) and c.item != "crew"]
        return goods[0] if goods else ChooseLoss(item="crew")
    if player.location == WINTERING:
        if player.crew < 3 and Load(item="crew") in legal:
            return Load(item="crew")
        loads = [c for c in legal if isinstance(c, Load) and c.item != "crew"]
        if loads and turn.days_left > 4:
            return max(loads, key=lambda c: state.supply[c.item] - player.goods.count(c.item))
        return LeaveWintering(homeland=nearest_homeland(state, seat))
    goals = saga_targets(state, seat)
    for task in (Raid, Trade, Settle):
        options = [c for c in legal if isinstance(c, task)]
        if task is Settle and player.location not in goals:
            options = []
        if options:
            if task is Trade:
                demand = [c for c in options if isinstance(c, Trade) and c.good == state.demand]
                return (demand or options)[0]
            return options[min(len(options), player.crew) - 1] if task is Settle else options[0]
    runes = [c for c in legal if isinstance(c, PlayRune) and c.dial == 0]
    if runes:
        return runes[0]
    if DrawRune() in legal and not player.runes:
        return DrawRune()
    if player.crew <= 1 and not player.goods:
        return Winter()
    step = next_step(state, seat)
    if step is None and turn.days_left == 7 - turn.preparation:
        return Winter()  # nothing to do from here: reload
    if step is not None and Sail(to=step) in legal:
        excess = turn.sailing + 1 - clear_days(state.blue, DATA.zone[step])
        covered = [i for i, at in enumerate(DATA.skulls) if at <= excess and i not in turn.skulls]
        if not covered:
            return Sail(to=step)
    return DeclareTurnOver() if DeclareTurnOver() in legal else legal[0]


def nearest_homeland(state: FireAndAxeState, seat: int) -> str:
    """The Homeland closest to a useful port."""
    best = ("Denmark", 10**6)
    for homeland in DATA.homelands:
        distance = target_distance(state, seat, homeland)
        if distance < best[1]:
            best = (homeland, distance)
    return best[0]


def targets(state: FireAndAxeState, seat: int, start: str) -> list[tuple[int, list[str]]]:
    """(weighted distance, path) to each useful, free, untried port."""
    blocked = {p.location for s, p in enumerate(state.players) if s != seat}
    turn = state.turn
    tried = turn.tried if turn else set()
    goals = saga_targets(state, seat)
    found = []
    for node, path in shortest_paths(start, blocked).items():
        if node in DATA.ports and node not in tried:
            if node in goals:
                found.append((len(path) - 6, path))
            elif useful(state, seat, node):
                found.append((len(path), path))
    return sorted(found, key=lambda item: (item[0], item[1]))


def target_distance(state: FireAndAxeState, seat: int, start: str) -> int:
    found = targets(state, seat, start)
    return found[0][0] if found else 10**6


def next_step(state: FireAndAxeState, seat: int) -> str | None:
    found = targets(state, seat, state.players[seat].location)
    for _, path in found:
        if path:
            return path[0]
    return None


@dataclass
class Record:
    """What one game showed."""

    rounds: int = 0
    ending: str = ""
    completed: set[int] = field(default_factory=set)
    dealt: set[int] = field(default_factory=set)
    visited: set[str] = field(default_factory=set)
    goods_ran_out: bool = False
    sailing_turns: int = 0
    loss_turns: int = 0


def play(players: int, seed: int) -> Record:
    """One game, recorded."""
    chance = Chance(f"playtest {players} {seed}".encode())
    config = FireAndAxeConfig(players=players, round_limit=CAP_ROUNDS)
    state = fold(GAME, GAME.setup(config, chance))
    record = Record(dealt={saga for saga in state.saga_spaces if saga is not None})
    sailed = lost = False
    while acting := GAME.to_act(state):
        events = GAME.decide(state, choose(state, acting[0]), acting[0], chance)
        for event in events:
            if isinstance(event, Sailed):
                sailed = True
                if event.to in DATA.ports:
                    record.visited.add(event.to)
            elif isinstance(event, ItemLost) and event.reason == "weather":
                lost = True
            elif isinstance(event, TurnBegan):
                record.sailing_turns += sailed
                record.loss_turns += lost
                sailed = lost = False
            elif isinstance(event, SagaCompleted):
                record.completed.add(event.saga)
            elif isinstance(event, SagaRevealed):
                record.dealt.add(event.saga)
            elif isinstance(event, GameEnded):
                record.ending = event.reason
        state = fold(GAME, events, state)
        record.goods_ran_out |= min(state.supply.values()) == 0
    record.rounds = state.round
    return record


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--players", type=int, nargs="*", default=[3, 4, 5])
    args = parser.parse_args()
    for players in args.players:
        records = [play(players, seed) for seed in range(args.games)]
        rounds = sorted(record.rounds for record in records)
        endings = Counter(record.ending for record in records)
        sagas = [len(record.completed) for record in records]
        sailing = sum(record.sailing_turns for record in records)
        losses = sum(record.loss_turns for record in records)
        p95 = rounds[min(len(rounds) - 1, int(0.95 * len(rounds)))]
        dealt = Counter(saga for record in records for saga in record.dealt)
        done = Counter(saga for record in records for saga in record.completed)
        unlucky = sorted(
            DATA.sagas[saga].title for saga in dealt if done[saga] < 0.05 * dealt[saga]
        )
        visits = Counter(port for record in records for port in record.visited)
        rare = sorted(port for port in DATA.ports if visits[port] < 0.2 * args.games)
        ran_out = sum(record.goods_ran_out for record in records)
        print(
            f"{players} players, {args.games} games: rounds median {statistics.median(rounds)}, "
            f"95th percentile {p95}; endings {dict(sorted(endings.items()))} "
            f"(round_limit = capped at {CAP_ROUNDS})\n"
            f"  Sagas completed per game: median {statistics.median(sagas)}; completed in under "
            f"5% of the games that dealt them: {', '.join(unlucky) or 'none'}\n"
            f"  sailing turns with losses {losses / max(1, sailing):.0%}; a goods type ran out "
            f"in {ran_out / args.games:.0%} of games; ports visited in under 20% of games: "
            f"{', '.join(rare) or 'none'}"
        )


if __name__ == "__main__":
    main()
