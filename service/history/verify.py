"""Verification of a game's whole record, as an operator runs it (`skald verify`).

Each game gets a structured report of named checks, each "ok", "failed" (with the version
where it broke) or "skipped" (with why):
- stream: versions run 1..head without gaps, GameCreated first, meta agrees with it;
- chain: every event's chain value, and the head's (the first bad version is named);
- rules: the game and the rules version it was created under are the ones this code runs;
- events: every event decodes and folds, SeedRevealed closes a finished game and only it;
- outcomes: each decided command's record agrees with the events;
- projections: the stored views and turns equal a fresh rebuild from the events;
- fairness: the revealed seed matches its commitment and re-derives every draw;
- records (on Redis): the meta, the event stream, the secret of a live game and every seat
  record a player took are there;
- liveness (on Redis): no command waits past a grace period with no worker coming for it.

A game whose meta is lost is still listed (by its other keys), a quarantined one is reported
as such, and every damage is named ("event 12 is missing", "the record of seat 1 is
missing"), never reported as an unexpected error.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import msgspec

from contracts.history import Check, GameVerification
from contracts.stream import BOT_ID_PREFIX, GameCancelled
from domain.table import is_service_event
from service.core.pipeline.chain import first_broken_link
from service.core.ports.event_store import GameMissing, HistoryStore
from service.core.ports.failures import connection_errors
from service.core.ports.inspection import GameKeysState, KeyInspector
from service.core.projections import TURN_FORMAT, decode_turn
from service.history.fairness import fairness_report
from service.history.history_errors import CorruptHistory
from service.history.loading import StoredGame, inbox_order, read_game
from service.history.rebuild import fresh_projections
from service.history.record import GameHistory, created_event, decode_history
from service.shared.errors import Conflict, GameDamaged, ServiceError

# How long a command may wait with no worker holding or coming for its game before the game
# is reported frozen (the sweeper re-wakes games well within it).
FROZEN_GRACE_S = 60.0


def _ok(name: str, detail: str) -> Check:
    return Check(name, "ok", detail)


def _failed(name: str, detail: str, version: int | None = None) -> Check:
    return Check(name, "failed", detail, version)


def _skipped(name: str, detail: str) -> Check:
    return Check(name, "skipped", detail)


def check_stream(stored: StoredGame) -> Check:
    """Versions 1..head without gaps, GameCreated first, and the meta agreeing with it."""
    for expected, event in enumerate(stored.events, 1):
        if event.version != expected:
            return _failed("stream", f"version {expected} is missing", expected)
    if len(stored.events) != stored.head.version:
        return _failed(
            "stream",
            f"the head says version {stored.head.version} but the stream holds "
            f"{len(stored.events)} events",
            len(stored.events) + 1,
        )
    try:
        created = created_event(stored)
    except CorruptHistory as exc:
        return _failed("stream", exc.message, exc.version)
    meta = stored.meta
    if (meta.game, meta.rules_version) != (created.game, created.rules_version):
        return _failed(
            "stream",
            f"the meta says {meta.game} rules {meta.rules_version!r}, GameCreated says "
            f"{created.game} rules {created.rules_version!r}",
            1,
        )
    return _ok("stream", f"{len(stored.events)} events, GameCreated first")


def check_chain(stored: StoredGame) -> Check:
    """Every stored chain value, then the head's, against a fresh computation."""
    broken = first_broken_link(stored.game_id, stored.events)
    if broken is not None:
        return _failed(
            "chain",
            f"the hash chain breaks at version {broken}: the event or its chain value there "
            "was changed after it was written",
            broken,
        )
    if stored.events and stored.head.hash != stored.events[-1].hash:
        version = stored.events[-1].version
        return _failed("chain", "the head's chain value is not the last event's", version)
    return _ok("chain", f"holds over all {len(stored.events)} events")


def check_events(history: GameHistory) -> Check:
    """Every game event folds, and the end of the stream matches whether the game is over."""
    state = None
    evolve = history.game.evolve
    for version, event in enumerate(history.events, 1):
        if is_service_event(event):
            continue
        try:
            state = evolve(state, event)
        except Exception as exc:
            return _failed("events", f"the rules fail to apply this event: {exc!r}", version)
    over = state is not None and history.game.outcome(state) is not None
    # A game cancelled before it started is over too: its creator ended it, not the rules.
    over = over or any(isinstance(event, GameCancelled) for event in history.events)
    revealed = history.seed_revealed is not None
    last = history.last_version
    if history.finished and not revealed:
        return _failed("events", "the game is over but no SeedRevealed closes it", last)
    if revealed and not over:
        return _failed("events", "the seed is revealed but the rules say the game goes on", last)
    if over != history.finished:
        said = "over" if over else "still going on"
        return _failed("events", f"the rules say the game is {said}; the head says otherwise")
    return _ok("events", f"{last} events decode and fold" + (", game over" if over else ""))


async def check_outcomes(store: HistoryStore, history: GameHistory) -> Check:
    """Each decided command's outcome record against the events it produced (or not)."""
    known = {step.key for step in history.steps}
    for stored_event in history.stored:
        command_id = stored_event.command_id
        if command_id is None or command_id.startswith(BOT_ID_PREFIX):
            continue  # a bot's move is no received command
        if command_id not in known:
            return _failed(
                "outcomes",
                f"the event names command {stored_event.command_id!r}, never received",
                stored_event.version,
            )
    decided = 0
    for step in history.steps:
        if step.status == "queued":
            continue
        decided += 1
        try:
            record = await store.command(history.game_id, step.seat, step.command_id)
        except GameDamaged as exc:
            return _failed("outcomes", exc.damage, step.first_version or step.version_before)
        status = None if record is None else record.status
        spans = (step.first_version, step.last_version)
        recorded = (None, None) if record is None else (record.first_version, record.last_version)
        if status != step.status or (status == "applied" and spans != recorded):
            return _failed(
                "outcomes",
                f"seat {step.seat}'s command {step.command_id!r}: the record says {status} "
                f"{recorded}, the events say {step.status} {spans}",
                step.first_version or step.version_before,
            )
    return _ok("outcomes", f"{decided} decided commands agree with the events")


def _decoded(name: str, data: bytes) -> Any:
    if name.startswith(f"{TURN_FORMAT}:"):
        return decode_turn(data)  # a finished game's turn stored as "started" says "finished"
    decode = msgspec.json.decode if name.startswith("json:") else msgspec.msgpack.decode
    return decode(data)


async def check_projections(store: HistoryStore, history: GameHistory) -> Check:
    """The stored projections against a fresh rebuild at the stream's version."""
    version = history.last_version
    fresh = fresh_projections(history)
    for name, expected in fresh.items():
        try:
            stored = await store.view(history.game_id, name)
        except GameDamaged as exc:
            return _failed("projections", exc.damage, version)
        if stored is None:
            return _failed("projections", f"projection {name!r} is missing", version)
        stored_version, data = stored
        if stored_version > version:
            return _skipped("projections", "the game moved on during the check: verify again")
        if stored_version < version:
            return _failed(
                "projections",
                f"projections are at version {stored_version}, the stream at {version}",
                version,
            )
        if data != expected and _decoded(name, data) != _decoded(name, expected):
            return _failed(
                "projections", f"projection {name!r} differs from a rebuild from events", version
            )
    return _ok("projections", f"{len(fresh)} projections equal a rebuild at version {version}")


def check_fairness(history: GameHistory) -> Check:
    """The seed check, skipped while the seed is not revealed."""
    try:
        report = fairness_report(history)
    except Exception as exc:  # the rules failing on a recorded event they re-derived
        return _failed("fairness", f"the rules fail re-deriving the draws: {exc!r}")
    if report.status == "pending":
        return _skipped("fairness", report.detail)
    if report.status == "unfair":
        version = report.mismatch.version if report.mismatch is not None else None
        return _failed("fairness", report.detail, version)
    return _ok("fairness", report.detail)


def check_records(stored: StoredGame, keys: GameKeysState, seed: bytes | None) -> Check:
    """The keys a game cannot do without: its secret while live, and every taken seat's; and
    no player in two seats of it."""
    if seed is None and not stored.head.finished:
        return _failed(
            "records",
            "the secret (seed) is missing for a live game: it can never move again once a "
            "worker restarts",
        )
    # Every join names its player in the meta: a named seat without a record lost it.
    lost = sorted(keys.named_seats - keys.seat_records)
    if lost:
        return _failed(
            "records",
            f"seat records missing for seat{'s' if len(lost) > 1 else ''} "
            f"{', '.join(map(str, lost))}: taken by players whose tokens are lost",
        )
    doubled = {p: seats for p, seats in keys.players_seats.items() if len(seats) > 1}
    if doubled:
        return _failed(
            "records",
            "one player in several seats (a player holds one seat per game): "
            + "; ".join(
                f"player {player} holds seats {', '.join(map(str, seats))}"
                for player, seats in sorted(doubled.items())
            ),
        )
    kept = "kept" if seed is not None else "gone, revealed in the stream"
    return _ok("records", f"{len(keys.seat_records)} seat records, the secret {kept}")


def check_liveness(stored: StoredGame, keys: GameKeysState, grace_s: float) -> Check:
    """Frozen: commands queued past the inbox cursor longer than `grace_s` while no worker
    holds the game's lease and none will take it (not marked ready, or no runner alive)."""
    queued = [command for command in stored.commands if not command.decided]
    if not queued:
        return _ok("liveness", "no command waiting")
    oldest_ms = inbox_order(queued[0].received.inbox_id)[0]
    waited_s = (keys.now_ms - oldest_ms) / 1000
    if waited_s <= grace_s or "lease" in keys.present:
        return _ok("liveness", f"{len(queued)} commands waiting {waited_s:.0f}s, a worker due")
    if keys.ready_since_ms is not None and keys.live_runners:
        return _ok("liveness", f"{len(queued)} commands waiting, the game is ready for a runner")
    why = "it is not marked ready" if keys.ready_since_ms is None else "no runner is alive"
    return _failed(
        "liveness",
        f"frozen: {len(queued)} command{'s' if len(queued) > 1 else ''} queued for "
        f"{waited_s:.0f}s past the inbox cursor with no worker on the game and {why}",
        stored.head.version,
    )


def check_deadlines(stored: StoredGame, members: list[str]) -> Check:
    """A game that is over (finished or cancelled) leaves no deadline in the deadlines set."""
    if not stored.head.finished:
        return _ok("deadlines", f"{len(members)} deadlines indexed while the game goes on")
    if not members:
        return _ok("deadlines", "the game is over and no deadline of it remains")
    return _failed(
        "deadlines",
        f"the game is over but {len(members)} deadline{'s' if len(members) > 1 else ''} of "
        f"it remain in the deadlines set ({', '.join(sorted(members)[:5])}): each would "
        "queue a timeout on a game that is over",
        stored.head.version,
    )


async def verify_game(
    store: HistoryStore,
    game_id: str,
    inspector: KeyInspector | None = None,
    grace_s: float = FROZEN_GRACE_S,
) -> GameVerification:
    """Every check of one game (GameMissing when there is no such game). With an
    `inspector` (Redis), the game's keys are checked too (records, liveness, quarantine)."""
    keys = await inspector.inspect(game_id) if inspector is not None else None
    if keys is not None and keys.quarantine is not None:
        return _unverifiable(
            game_id,
            f"quarantined by an operator: {keys.quarantine} (`skald quarantine --release` "
            "puts it back in service)",
            "quarantine",
        )
    try:
        stored = await read_game(store, game_id)
    except GameMissing:
        if keys is None or not keys.present:
            raise
        remaining = ", ".join(sorted(keys.present))
        return _unverifiable(
            game_id, f"the meta record is missing (the game's {remaining} remain)", "records"
        )
    except GameDamaged as exc:
        return _unverifiable(game_id, exc.damage, "stream", exc.version)
    checks = [check_stream(stored), check_chain(stored)]
    if keys is not None:
        checks += [
            check_records(stored, keys, await store.seed(game_id)),
            check_liveness(stored, keys, grace_s),
        ]
        assert inspector is not None
        checks.append(check_deadlines(stored, await inspector.deadlines_of(game_id)))
    later = ("events", "outcomes", "projections", "fairness")
    try:
        history = decode_history(stored)
    except CorruptHistory as exc:
        if exc.version == 1:
            checks.append(_skipped("rules", "GameCreated cannot be read"))
        else:
            checks.append(_ok("rules", f"{stored.meta.game} rules {stored.meta.rules_version}"))
        checks.append(_failed("events", exc.message, exc.version))
        checks += [_skipped(name, "the events cannot be read") for name in later[1:]]
    except Conflict as exc:  # unknown game or rules version: nothing can be replayed
        checks.append(_failed("rules", exc.message, 1))
        checks += [_skipped(name, "not replayable under this code") for name in later]
    else:
        checks.append(_ok("rules", f"{history.created.game} rules {history.game.rules_version}"))
        events = check_events(history)
        checks += [events, await check_outcomes(store, history)]
        # Projections need the whole fold; fairness stops at the first event it cannot
        # re-derive, which is what names a tampered draw that the rules then choke on.
        if events.status == "failed":
            checks.append(_skipped("projections", "the events do not fold"))
        else:
            checks.append(await check_projections(store, history))
        checks.append(check_fairness(history))
    return GameVerification(
        game_id=game_id,
        game=stored.meta.game,
        rules_version=stored.meta.rules_version,
        version=stored.head.version,
        finished=stored.head.finished,
        ok=all(check.status != "failed" for check in checks),
        checks=checks,
    )


def _unverifiable(
    game_id: str, reason: str, check: str = "stream", version: int | None = None
) -> GameVerification:
    return GameVerification(
        game_id=game_id,
        game="",
        rules_version="",
        version=0,
        finished=False,
        ok=False,
        checks=[_failed(check, reason, version)],
    )


def is_quarantined(report: GameVerification) -> bool:
    """Whether the report is of a game an operator quarantined."""
    return any(check.name == "quarantine" for check in report.checks)


async def verify_games(
    store: HistoryStore,
    game_ids: Iterable[str],
    on_done: Callable[[GameVerification], None] | None = None,
    inspector: KeyInspector | None = None,
    grace_s: float = FROZEN_GRACE_S,
) -> list[GameVerification]:
    """Verify each game in turn; one game's failure (even an unexpected error) never stops
    the others. `on_done` sees each report as it is made (a progress bar)."""
    reports = []
    for game_id in game_ids:
        try:
            report = await verify_game(store, game_id, inspector, grace_s)
        except ServiceError as exc:
            report = _unverifiable(game_id, exc.message)
        except connection_errors():
            raise  # the store is gone: no later game could be checked either
        except Exception as exc:
            # A damage no check knows yet: still reported against the game, and the others go on.
            report = _unverifiable(game_id, f"the record could not be read: {exc!r}")
        reports.append(report)
        if on_done is not None:
            on_done(report)
    return reports
