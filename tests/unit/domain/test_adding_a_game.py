"""The walkthrough of docs/adding-a-game.md, run: a minimal game built as the doc says, registered
for the test's duration, played through the domain engine, the conformance checks and the
service (HTTP API, inbox and drain on fakeredis).

Pile: two players take 1 to 3 stones in turn from a pile; who takes the last stone wins. A draw
picks who starts. The doc's Python blocks are this file's own lines (the first test checks it),
so the doc cannot show code that does not run.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import fakeredis
import pytest
from litestar.testing import AsyncTestClient

from contracts.base import Command, Event, GameConfig, View
from contracts.outcome import Outcome
from domain import engine
from domain.bots import GreedyBot, RandomBot
from domain.chance import Chance
from domain.errors import IllegalCommand
from domain.games import game_names, get_game, register, unregister
from domain.kernel.ranking import ranked
from domain.kernel.recorder import Recorder
from domain.kernel.rules_game import Rules, RulesGame
from domain.kernel.seats import next_seat
from service import bootstrap
from service.api import create_app
from service.shared.settings import Settings
from tests.conformance import test_every_version as every_version
from tests.conformance import test_game_protocol as conformance
from tests.conformance import test_turn_rules as turn_rules
from tests.fakes.scheduler import RecordingScheduler

REPOSITORY = Path(__file__).parents[3]
DOC = REPOSITORY / "docs" / "adding-a-game.md"

# --- contracts (a real game: contracts/games/pile.py) ---


class PileConfig(GameConfig, frozen=True):
    """Two players and the pile's size."""

    stones: int = 10


class TakeStones(Command, frozen=True):
    """Take `count` stones (1 to 3, no more than the pile holds)."""

    count: int


PileCommand = TakeStones


class PileStarted(Event, frozen=True):
    """The first event: the table, and the seat draw `draw` picked to start."""

    players: int
    stones: int
    first_seat: int
    draw: int


class StonesTaken(Event, frozen=True):
    """A seat took `count` stones."""

    seat: int
    count: int


class LastStoneTaken(Event, frozen=True):
    """The seat took the last stone: it wins, the game is over."""

    seat: int


PileEvent = PileStarted | StonesTaken | LastStoneTaken


class PileView(View, frozen=True):
    """Everything: the pile hides nothing."""

    stones: int
    to_act: list[int]
    winner: int | None


# --- rules (a real game: domain/games/pile/{state,setup,decide,evolve,...}.py) ---

MAX_TAKE = 3


@dataclass
class PileState:
    players: int
    stones: int
    turn: int | None  # the seat to act; None once the game is over
    draws: int  # draws used: the next draw's index
    winner: int | None = None

    def copy(self) -> PileState:
        return replace(self)


def setup(config: GameConfig, chance: Chance) -> list[Event]:
    if not isinstance(config, PileConfig) or config.players != 2:
        raise IllegalCommand("pile.config.players", "Pile is for two players.")
    if config.stones < 1:
        raise IllegalCommand("pile.config.stones", "The pile needs a stone at least.")
    first = chance.below(0, config.players)
    return [PileStarted(players=2, stones=config.stones, first_seat=first, draw=0)]


def evolve(state: PileState | None, event: Event) -> PileState:
    match event:
        case PileStarted():
            return PileState(event.players, event.stones, event.first_seat, event.draw + 1)
        case StonesTaken(seat=seat, count=count):
            assert state is not None
            state.stones -= count
            state.turn = next_seat(seat, state.players)
        case LastStoneTaken(seat=seat):
            assert state is not None
            state.turn, state.winner = None, seat
    assert state is not None
    return state


def decide(state: PileState, command: Command, seat: int, chance: Chance) -> list[Event]:
    # The engine has checked that the game goes on and that `seat` is to act.
    if not isinstance(command, TakeStones):
        raise IllegalCommand("pile.command.unknown", "Pile has only TakeStones.")
    most = min(MAX_TAKE, state.stones)
    if not 1 <= command.count <= most:
        raise IllegalCommand(
            "pile.take.count",
            f"Take 1 to {most} stones, not {command.count}.",
            count=command.count,
        )
    record = Recorder(state.copy(), evolve)
    record.emit(StonesTaken(seat=seat, count=command.count))
    if record.state.stones == 0:  # the scratch state shows what the take did
        record.emit(LastStoneTaken(seat=seat))
    return record.events


def to_act(state: PileState) -> list[int]:
    return [] if state.turn is None else [state.turn]


def legal_commands(state: PileState, seat: int) -> list[Command]:
    if seat not in to_act(state):
        return []
    return [TakeStones(count) for count in range(1, min(MAX_TAKE, state.stones) + 1)]


def candidate_commands(state: PileState, seat: int) -> list[Command]:
    return [TakeStones(count) for count in range(MAX_TAKE + 2)]


def view(state: PileState, seat: int | None) -> PileView:
    return PileView(stones=state.stones, to_act=to_act(state), winner=state.winner)


def visible_event(event: Event, seat: int | None) -> Event | None:
    return event  # every event is public


def scramble_hidden(state: PileState, seat: int | None, chance: Chance) -> PileState:
    return state.copy()  # nothing is hidden


def outcome(state: PileState) -> Outcome | None:
    if state.winner is None:
        return None
    won = [{"last_stone": int(seat == state.winner)} for seat in range(state.players)]
    return ranked(won, [()] * state.players, shared_victory="", tie_broken="")


def render_text(state: PileState) -> str:
    if state.winner is not None:
        return f"Seat {state.winner} took the last stone."
    return f"{state.stones} stones; seat {state.turn} takes."


def immediate_score(state: PileState, seat: int) -> tuple[int, ...]:
    return (int(state.winner == seat),)


def greedy_bot(seed: bytes) -> GreedyBot:
    return GreedyBot(seed, immediate_score)


# --- the game object (a real game: domain/games/pile/game.py) ---


class PileGame(RulesGame[PileState]):
    """Pile: take 1 to 3 stones; who takes the last one wins."""

    name = "pile"
    rules_version = "1"
    config_type: type[GameConfig] = PileConfig
    command_type = PileCommand
    event_type = PileEvent
    view_type = PileView
    may_pass = False  # every turn takes a stone
    rules = Rules(
        setup=setup,
        decide=decide,
        evolve=evolve,
        copy_state=PileState.copy,
        legal_commands=legal_commands,
        candidate_commands=candidate_commands,
        to_act=to_act,
        view=view,
        visible_event=visible_event,
        scramble_hidden=scramble_hidden,
        outcome=outcome,
        render_text=render_text,
        greedy_bot=greedy_bot,
    )

    def example_configs(self) -> Sequence[GameConfig]:
        return [PileConfig(players=2), PileConfig(players=2, stones=21)]

    def rating_variant(self, config: Mapping[str, object]) -> str:
        return "standard"  # the pile's size changes the length, not the game


GAME = PileGame()


@pytest.fixture(autouse=True)
def pile_registered() -> Iterator[None]:
    register(GAME)  # a built-in game is one line of the registry instead (section 9)
    yield
    unregister(GAME.name)


# --- the tests ---


def test_every_python_block_of_the_doc_is_this_files_code() -> None:
    source = Path(__file__).read_text(encoding="utf-8")
    registry = (REPOSITORY / "domain" / "games" / "__init__.py").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.DOTALL)

    assert len(blocks) >= 10
    for block in blocks:
        # The registry's line of built-in games is quoted from the registry itself.
        quoted = registry if "_BUILTIN_GAMES" in block else source
        assert block in quoted, f"the doc shows code that is not the code:\n{block}"


def test_the_registered_game_meets_the_protocol() -> None:
    assert isinstance(GAME, engine.Game)
    assert get_game("pile") is GAME
    assert "pile" in game_names()


def test_a_seeded_game_played_through_the_engine() -> None:
    config = PileConfig(players=2, stones=10)
    chance = Chance(b"pile seed")
    (started,) = GAME.setup(config, chance)
    assert isinstance(started, PileStarted)
    events: list[Event] = [started]
    state = engine.fold(GAME, events)
    bots = [RandomBot(b"seat 0"), GAME.greedy_bot(b"seat 1")]
    taken = []
    while GAME.to_act(state):
        (seat,) = GAME.to_act(state)
        command = bots[seat].choose(GAME, state, seat)
        assert isinstance(command, TakeStones) and command in GAME.legal_commands(state, seat)
        new_events = engine.decide(GAME, state, command, seat, chance)
        events += new_events
        state = engine.fold(GAME, new_events, state)
        taken.append((seat, command.count))

    result = GAME.outcome(state)
    last_seat = taken[-1][0]
    assert sum(count for _, count in taken) == 10
    assert [seat for seat, _ in taken[:2]] == [started.first_seat, 1 - started.first_seat]
    assert result is not None and result.winners == [last_seat]
    assert [score.rank for score in result.scores] == [1 if s == last_seat else 2 for s in (0, 1)]
    assert GAME.view(state, None) == PileView(stones=0, to_act=[], winner=last_seat)
    assert engine.fold(GAME, events) == state  # replay from the events alone
    assert GAME.render_text(state) == f"Seat {last_seat} took the last stone."


def test_the_shared_turn_rules_and_the_games_own_refusals() -> None:
    chance = Chance(b"refusals")
    state = engine.fold(GAME, GAME.setup(PileConfig(players=2, stones=2), chance))
    seat = state.turn
    assert seat is not None

    def code_of(state: PileState, command: Command, by: int) -> str:
        with pytest.raises(IllegalCommand) as refused:
            engine.decide(GAME, state, command, by, chance)
        return refused.value.code

    assert code_of(state, TakeStones(1), 1 - seat) == "turn.not_yours"
    assert code_of(state, TakeStones(3), seat) == "pile.take.count"  # two stones left
    assert code_of(state, TakeStones(0), seat) == "pile.take.count"
    events = engine.decide(GAME, state, TakeStones(2), seat, chance)
    finished = engine.fold(GAME, events, GAME.copy_state(state))
    assert code_of(finished, TakeStones(1), 1 - seat) == "game.finished"
    assert GAME.outcome(state) is None
    assert GAME.outcome(finished) is not None and GAME.outcome(finished).winners == [seat]


def test_the_greedy_bot_takes_the_last_stones_when_it_can() -> None:
    chance = Chance(b"greedy")
    state = engine.fold(GAME, GAME.setup(PileConfig(players=2, stones=3), chance))
    seat = state.turn
    assert seat is not None

    assert GAME.greedy_bot(b"any seed").choose(GAME, state, seat) == TakeStones(3)


@pytest.mark.parametrize("config", GAME.example_configs())
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_game_passes_the_conformance_checks(config: PileConfig, seed: int) -> None:
    conformance.test_random_game_obeys_the_protocol(GAME, config, seed)
    conformance.test_setup_is_a_pure_function_of_config_and_seed(GAME, config, seed)
    conformance.test_a_stored_opening_sets_up_again_as_recorded(GAME, config, seed)


def test_the_game_passes_the_shared_turn_rules_and_every_version_checks() -> None:
    turn_rules.test_every_game_refuses_out_of_turn_and_after_the_end_with_the_shared_codes(GAME)
    every_version.test_every_version_of_a_game_can_be_viewed(GAME)


@pytest.fixture
async def client() -> AsyncIterator[tuple[AsyncTestClient[Any], Any]]:
    """The HTTP API over the service on fakeredis, and its drain runner (the worker)."""
    settings = Settings(
        redis_url="redis://fake/0", key_prefix="pile:", runner_idle_s=0.0, history_processes=0
    )
    redis = fakeredis.aioredis.FakeRedis(server=fakeredis.FakeServer())
    scheduler = RecordingScheduler()
    skald = bootstrap.skald(settings, redis, scheduler)
    runner = bootstrap.drain_runner(settings, redis, skald.store, scheduler)

    async def connect(_: Settings) -> Any:
        return skald

    async def drain() -> int:
        return await scheduler.run_all(runner)

    async with AsyncTestClient(create_app(settings, connect)) as http:
        yield http, drain


@pytest.mark.anyio
async def test_a_game_played_through_the_service(
    client: tuple[AsyncTestClient[Any], Any],
) -> None:
    http, drain = client
    created = await http.post("/games", json={"game": "pile", "config": {"players": 2}})
    assert created.status_code == 201, created.text
    game_id = created.json()["game_id"]
    tokens = []
    for _ in range(2):
        seated = await http.post(f"/games/{game_id}/seats", json={})
        assert seated.status_code == 201, seated.text
        tokens.append(seated.json()["token"])

    turns: list[dict[str, Any]] = []
    while not (turn := (await http.get(f"/games/{game_id}/turn")).json())["finished"]:
        turns.append(turn)
        (seat,) = turn["to_act"]
        headers = {"authorization": f"Bearer {tokens[seat]}"}
        legal = (await http.get(f"/games/{game_id}/turn", headers=headers)).json()
        body = {"command_id": f"c{len(turns)}", "command": legal["legal_commands"][-1]}
        sent = await http.post(f"/games/{game_id}/commands", json=body, headers=headers)
        assert sent.status_code == 202, sent.text
        await drain()

    # Each seat took the most it could (3, 3, 3, then the last stone): the second seat won.
    first = turns[0]["to_act"][0]
    assert [turn["to_act"] for turn in turns] == [[first], [1 - first]] * 2
    assert turn["outcome"]["winners"] == [1 - first]
    view = (await http.get(f"/games/{game_id}/view")).json()["view"]
    assert view == {"stones": 0, "to_act": [], "winner": 1 - first}
