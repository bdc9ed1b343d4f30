"""Provable fairness: the revealed seed against its commitment, then every draw re-derived.

GameCreated publishes SHA-256(seed); SeedRevealed, appended when the game ends, publishes the
seed. Anyone can then check that SHA-256(revealed seed) is the commitment, and re-run the
rules with that seed: `setup(config, Chance(seed))` must give the recorded setup events (a
game whose rules have revisions sets up again under the revision its first event records),
and for each applied command in order, `decide(state before, command, seat, Chance(seed))`
the events it recorded. Any difference (a tampered draw, a wrong seed, an event no command
produced) is reported at its version, expected against recorded.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from contracts.base import Event
from contracts.history import DrawMismatch, FairnessReport
from contracts.stream import BOT_ID_PREFIX, SeedRevealed
from domain.chance import Chance, commitment
from domain.engine import decide, fold, setup_as_recorded
from domain.errors import IllegalCommand
from domain.table import SYSTEM_SEAT
from domain.table.standins import bot_command, parse_bot_id
from service.history.disclosure import plain
from service.history.record import GameHistory, Step
from service.shared.errors import InvalidInput


@dataclass
class DrawTally:
    """How much a check re-derived: events compared, commands decided again."""

    events: int = 0
    commands: int = 0


def _plain(event: Any) -> dict[str, Any] | None:
    if event is None:
        return None
    data: dict[str, Any] = plain(event)
    return data


def _compare(
    expected: Sequence[Event],
    recorded: Sequence[tuple[int, Any]],
    next_version: int,
    tally: DrawTally,
) -> DrawMismatch | None:
    """The first difference between re-derived and recorded events (by their plain data, so
    that a field's container type does not matter), or None."""
    for index in range(max(len(expected), len(recorded))):
        want = expected[index] if index < len(expected) else None
        have = recorded[index][1] if index < len(recorded) else None
        version = recorded[index][0] if index < len(recorded) else next_version + index
        if _plain(want) != _plain(have):
            if have is None:
                reason = "the seed and rules produce an event the stream does not hold"
            elif want is None:
                reason = "the stream holds an event the seed and rules do not produce"
            else:
                reason = "the recorded event differs from the one the seed and rules produce"
            return DrawMismatch(version, reason, _plain(want), _plain(have))
        tally.events += 1
    return None


def first_mismatch(
    history: GameHistory, seed: bytes, tally: DrawTally | None = None
) -> DrawMismatch | None:
    """Re-derive the opening and every applied command with `seed`; the first difference."""
    tally = tally if tally is not None else DrawTally()
    game, codec, chance = history.game, history.codec, Chance(seed)
    try:
        config = codec.parse_config(history.created.config)
    except InvalidInput as exc:
        return DrawMismatch(1, f"the recorded config no longer parses: {exc.message}")
    # The opening: every game event before the first applied command's.
    first_command = min(
        (step.first_version for step in history.steps if step.first_version is not None),
        default=history.last_version + 1,
    )
    opening = history.game_events(1, first_command - 1)
    try:
        expected = setup_as_recorded(game, config, chance, [event for _, event in opening])
    except Exception as exc:  # the rules refusing their own recorded config is a finding
        return DrawMismatch(2, f"setup fails with this seed: {exc!r}")
    mismatch = _compare(expected, opening, 2, tally)
    if mismatch is not None:
        return mismatch
    state = fold(game, (event for _, event in opening))
    next_version = first_command  # every game event from here on must come from a command
    for step in history.steps:
        if step.first_version is None or step.last_version is None:
            continue
        if step.seat == SYSTEM_SEAT:
            continue  # the service's own command: service events only, the bots' come after
        stray, state = _bot_moves(history, state, next_version, step.first_version - 1, seed, tally)
        if stray is not None:
            return stray
        recorded = history.game_events(step.first_version, step.last_version)
        mismatch = _rederive(history, state, step, recorded, chance, tally)
        if mismatch is not None:
            return mismatch
        tally.commands += 1
        state = fold(game, (event for _, event in recorded), state)
        next_version = step.last_version + 1
    stray, _ = _bot_moves(history, state, next_version, history.last_version, seed, tally)
    return stray


def _bot_moves(
    history: GameHistory, state: Any, first: int, last: int, seed: bytes, tally: DrawTally
) -> tuple[DrawMismatch | None, Any]:
    """Re-derive the bots' moves among the game events from `first` to `last` (any other
    event there is uncaused); the first difference, and the state after them."""
    game, chance = history.game, Chance(seed)
    groups: dict[str, list[tuple[int, Any]]] = {}
    for version, event in history.game_events(first, last):
        command_id = history.stored[version - 1].command_id or ""
        if not command_id.startswith(BOT_ID_PREFIX):
            return _uncaused(history, version, version), state
        groups.setdefault(command_id, []).append((version, event))
    for command_id, recorded in groups.items():
        move = parse_bot_id(command_id)
        if move is None:
            at = recorded[0][0]
            return DrawMismatch(at, f"{command_id!r} names no bot move", None, None), state
        # The bot the id names (unmarked ids: the random stand-ins of games stored before).
        command = bot_command(game, state, move.seat, seed, move.version, move.kind)
        expected = [] if command is None else decide(game, state, command, move.seat, chance)
        mismatch = _compare(expected, recorded, recorded[0][0], tally)
        if mismatch is not None:
            return mismatch, state
        state = fold(game, (event for _, event in recorded), state)
    return None, state


def _rederive(
    history: GameHistory,
    state: Any,
    step: Step,
    recorded: list[tuple[int, Any]],
    chance: Chance,
    tally: DrawTally,
) -> DrawMismatch | None:
    """Decide the step's command again on the state before it; compare with its events."""
    assert step.first_version is not None
    try:
        command = history.codec.decode_command(step.received.body)
        expected = decide(history.game, state, command, step.seat, chance)
    except IllegalCommand as exc:
        return DrawMismatch(
            step.first_version,
            f"the rules refuse command {step.command_id!r} here ({exc.code}: {exc.message}) "
            "but the stream records it as applied",
            None,
            _plain(recorded[0][1]) if recorded else None,
        )
    except Exception as exc:  # a body that no longer decodes, or the rules failing
        return DrawMismatch(
            step.first_version, f"re-deciding command {step.command_id!r} fails: {exc!r}"
        )
    return _compare(expected, recorded, step.first_version, tally)


def _uncaused(history: GameHistory, first: int, last: int) -> DrawMismatch | None:
    """The first game event from `first` to `last` that no command produced, if any."""
    stray = next(iter(history.game_events(first, last)), None)
    if stray is None:
        return None
    version, event = stray
    return DrawMismatch(version, "no received command produced this event", None, _plain(event))


def fairness_report(history: GameHistory) -> FairnessReport:
    """The seed check of a game (status "pending" while the seed is not revealed)."""
    created = history.created
    revealed = history.seed_revealed
    if revealed is None:
        if history.finished:
            return FairnessReport(
                history.game_id,
                "unfair",
                created.seed_sha256,
                "the game is over but its seed was never revealed",
            )
        return FairnessReport(
            history.game_id,
            "pending",
            created.seed_sha256,
            "the seed is revealed when the game ends; only its commitment is public now",
        )
    return _check_revealed(history, revealed)


def _check_revealed(history: GameHistory, revealed: SeedRevealed) -> FairnessReport:
    try:
        seed = bytes.fromhex(revealed.seed_hex)
    except ValueError:
        return FairnessReport(
            history.game_id,
            "unfair",
            history.created.seed_sha256,
            f"the revealed seed is not hexadecimal: {revealed.seed_hex[:80]!r}",
            seed_hex=revealed.seed_hex,
            commitment_holds=False,
            mismatch=DrawMismatch(history.last_version, "the revealed seed is not hexadecimal"),
        )
    holds = commitment(seed) == history.created.seed_sha256
    tally = DrawTally()
    mismatch = first_mismatch(history, seed, tally)
    problems = []
    if not holds:
        problems.append(
            f"SHA-256 of the revealed seed is {commitment(seed)}, not the commitment "
            f"{history.created.seed_sha256} published at version 1"
        )
    if mismatch is not None:
        problems.append(f"version {mismatch.version}: {mismatch.reason}")
    if not holds and mismatch is None:
        # Name where the bad seed is: the event that reveals it.
        mismatch = DrawMismatch(
            history.last_version, "the revealed seed does not match the commitment"
        )
    detail = "; ".join(problems) or (
        f"the seed matches its commitment and re-derives all {tally.events} events of the "
        f"opening and of {tally.commands} applied commands"
    )
    return FairnessReport(
        history.game_id,
        "unfair" if problems else "fair",
        history.created.seed_sha256,
        detail,
        seed_hex=revealed.seed_hex,
        commitment_holds=holds,
        events_rederived=tally.events,
        commands_rederived=tally.commands,
        mismatch=mismatch,
    )
