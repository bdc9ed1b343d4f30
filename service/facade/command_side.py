"""The facade's command side: create a game, take a seat, submit a command, learn its outcome.

Every method raises a `service.shared.errors.ServiceError` subclass on bad input and
`Unavailable` when Redis cannot be reached; nothing is changed by a call that raises, except a
command that reached the inbox (it is then processed).
"""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any

from contracts.api import (
    CommandOutcome,
    GameCreated,
    SeatJoined,
)
from contracts.stream import Clock
from service.core.codec import codec_for
from service.core.pipeline.create import open_game
from service.core.ports.deadlines import Deadlines
from service.core.ports.event_store import CommandStore
from service.core.ports.notifier import Notifier
from service.core.ports.records import Accepted, Duplicate, ReceivedCommand, Throttled
from service.core.ports.scheduling import DrainScheduler
from service.core.ports.seats import Lobby, Seats
from service.core.projections import (
    encode_views,
)
from service.facade.checks import (
    MAX_ID_LENGTH,
    MAX_NAME_LENGTH,
    api_outcome,
    check_clock,
    check_id,
    check_timeout_policy,
    redis_guarded,
    token_hash,
)
from service.facade.metas import GameMetas
from service.facade.waits import deadline_after, next_update
from service.shared.errors import (
    Conflict,
    Forbidden,
    InvalidInput,
    NotFound,
    RateLimited,
)
from service.shared.settings import Settings

SEED_BYTES = 32  # a game's secret seed (docs/architecture.md: randomness is provably fair)


def new_game_id() -> str:
    """A fresh game id: 96 random bits, URL-safe, never starting with "-" (which a command line
    would read as an option: `skald replay -x…`)."""
    while (game_id := secrets.token_urlsafe(12)).startswith("-"):
        pass
    return game_id


# A wait shorter than this is no wait: it could only end before anything can be decided.
MIN_WAIT_S = 0.001


class CommandSide:
    """What changes a game: creating it, seating players, queueing their commands."""

    def __init__(
        self,
        settings: Settings,
        store: CommandStore,
        seats: Seats,
        lobby: Lobby,
        notifier: Notifier,
        scheduler: DrainScheduler,
        metas: GameMetas,
        deadlines: Deadlines | None = None,
    ) -> None:
        self.settings = settings
        self.store = store
        self.seats = seats
        self.lobby = lobby
        self.notifier = notifier
        self.scheduler = scheduler
        self.metas = metas
        # Called once every seat of a game is taken (the player side starts the games players
        # created); None: nothing to do (guest games start at creation).
        self.on_seats_full: Callable[[str], Awaitable[None]] | None = None
        self.deadlines = deadlines  # where timed games' deadlines are indexed

    @redis_guarded
    async def create_game(
        self,
        game: str,
        config: dict[str, Any],
        seed_hex: str | None = None,
        *,
        creator: str | None = None,
        clock: Clock | None = None,
        rated: bool = True,
        listed: bool = True,
    ) -> GameCreated:
        """Create a game with a fresh secret seed (or a chosen one, where settings allow it);
        InvalidInput for an unknown game or a bad config or seed. A game a player (`creator`)
        creates stays open, refusing commands, until it starts (service.facade.player_side).
        Not `listed`, it stays out of the lobby (a rematch lists it once its seats are kept)."""
        codec = codec_for(game)
        if not isinstance(config, dict):
            raise InvalidInput("game.bad_config", "a game's config is a JSON object")
        game_id = self.store.placed_game_id(new_game_id())  # its drain shard's slot
        seed = secrets.token_bytes(SEED_BYTES) if seed_hex is None else self._chosen_seed(seed_hex)
        now = datetime.now(UTC)
        created_at = now.isoformat(timespec="seconds")
        if clock is not None:
            check_clock(clock)
            check_timeout_policy(codec.game, clock)
        now_ms = int(now.timestamp() * 1000)
        opened = open_game(
            codec, game_id, config, seed, created_at, creator, clock, now_ms, rated=rated
        )
        if opened.deadlines and self.deadlines is not None:
            await self.deadlines.add(game_id, opened.deadlines)  # before the game exists
        version = len(opened.events)
        phase = "started" if creator is None else "open"
        deadlines = {seat: at for seat, _, at in opened.deadlines}
        views = encode_views(
            codec, game_id, version, opened.state, opened.meta.seats, phase, deadlines
        )
        await self.store.create(game_id, opened.meta, seed, opened.events, opened.finished, views)
        if listed and not opened.finished:
            await self.lobby.open(game_id, game, int(now.timestamp() * 1000))
        return GameCreated(
            game_id=game_id,
            game=game,
            rules_version=opened.meta.rules_version,
            seats=opened.meta.seats,
            seed_sha256=opened.seed_sha256,
        )

    def _chosen_seed(self, seed_hex: str) -> bytes:
        """The client's seed, if this server accepts chosen seeds and it is 32 bytes in hex."""
        if not self.settings.allow_chosen_seeds:
            raise Forbidden(
                "game.chosen_seed_refused",
                "this server draws every game's seed itself; a chosen seed is accepted only "
                "by a server started with SKALD_ALLOW_CHOSEN_SEEDS (demos and tests)",
            )
        try:
            seed = bytes.fromhex(seed_hex)
        except ValueError:
            seed = b""
        if len(seed) != SEED_BYTES:
            raise InvalidInput(
                "game.bad_seed",
                f"a seed is {SEED_BYTES} bytes written as {2 * SEED_BYTES} hex digits",
            )
        return seed

    @redis_guarded
    async def join(self, game_id: str, seat: int | None, name: str) -> SeatJoined:
        """Take a seat (the lowest free one when `seat` is None) and return its token once."""
        meta = await self.metas.get(game_id)
        if seat is not None and seat < 0:
            raise InvalidInput("seat.out_of_range", f"seat {seat} does not exist")
        name = name.strip()
        if len(name) > MAX_NAME_LENGTH or not name.isprintable():
            raise InvalidInput(
                "seat.bad_name",
                f"a name is at most {MAX_NAME_LENGTH} characters (after trimming spaces) and "
                "holds no control characters (newlines, tabs...)",
            )
        token = secrets.token_urlsafe(32)  # 256 random bits; only its hash is stored
        taken_seat, taken, seats = await self.seats.take(game_id, seat, token_hash(token), name)
        if taken == seats:
            await self.lobby.close(game_id, meta.game)
            if self.on_seats_full is not None:
                await self.on_seats_full(game_id)
        return SeatJoined(game_id=game_id, seat=taken_seat, token=token)

    @redis_guarded
    async def submit(
        self,
        game_id: str,
        seat: int,
        command_id: str,
        command: dict[str, Any],
        request_id: str,
        expected_version: int | None = None,
    ) -> CommandOutcome:
        """Queue a command for `seat` ("queued"), or return the outcome of the same command id
        (refused `command.stale` when decided if the game is then past `expected_version`)."""
        meta = await self.metas.get(game_id)
        check_id(command_id, "command")
        if not 0 <= seat < meta.seats:
            raise Forbidden("seat.out_of_range", f"no seat {seat} in this game")
        codec = codec_for(meta.game)
        body = codec.canonical(codec.parse_command(command))
        received = ReceivedCommand(
            seat, command_id, request_id[:MAX_ID_LENGTH], body, expected_version=expected_version
        )
        # Enqueued only if the submit claims a slot (named after the game's drain shard).
        job_id = self.store.runner_job_for(game_id, self.scheduler.new_job_id())
        result = await self.store.submit(
            game_id,
            received,
            job_id,
            self.settings.rate_per_seat,
            int(self.settings.rate_window_s * 1000),
        )
        match result:
            case Accepted(start_runner=start_runner):
                if start_runner:
                    await self.scheduler.schedule(job_id)
                return CommandOutcome(command_id=command_id, status="queued", seat=seat)
            case Duplicate(received=first, record=record):
                if first.body != body or first.expected_version != expected_version:
                    raise Conflict(
                        "command.id_reused",
                        "this seat already used this command id in this game for another "
                        "command; choose a fresh one",
                    )
                return api_outcome(command_id, record)
            case Throttled(retry_after_ms=retry_after_ms):
                raise RateLimited(
                    "seat.rate_limited",
                    f"at most {self.settings.rate_per_seat} commands per "
                    f"{self.settings.rate_window_s:g}s per seat",
                    retry_after=retry_after_ms / 1000,
                )
        raise AssertionError(f"unexpected submit result {result!r}")

    @redis_guarded
    async def outcome(
        self, game_id: str, command_id: str, *, seat: int | None = None
    ) -> CommandOutcome:
        """What became of a seat's command so far; NotFound when the seat never sent that id
        (command ids are per seat: another seat's command with the same id is never found).

        Without a seat (operators, the service's own system commands under seat -1, tests):
        the command of that id whichever seat sent it, Conflict `command.ambiguous` when
        several seats used it. The API always names the caller's seat."""
        meta = await self.metas.get(game_id)
        seats = range(-1, meta.seats) if seat is None else (seat,)
        found = [
            record
            for candidate in seats
            if (record := await self.store.command(game_id, candidate, command_id)) is not None
        ]
        if not found and await self.store.meta(game_id) is None:
            await self.store.absent(game_id)  # quarantined (or damaged) since cached
        if not found:
            raise NotFound("command.not_found", f"no command {command_id!r} in this game")
        if len(found) > 1:
            raise Conflict(
                "command.ambiguous",
                f"several seats sent a command {command_id!r}: name the seat",
            )
        return api_outcome(command_id, found[0])

    @redis_guarded
    async def wait_outcome(
        self, game_id: str, command_id: str, timeout_s: float, *, seat: int | None = None
    ) -> CommandOutcome:
        """The command's outcome once decided, or "queued" after `timeout_s` seconds."""
        timeout_s = max(0.0, min(timeout_s, self.settings.max_wait_s))
        current = await self.outcome(game_id, command_id, seat=seat)
        if current.status != "queued" or timeout_s < MIN_WAIT_S:
            return current
        # The deadline covers the waiting only, never the subscription (a timeout that fired
        # while the notifier's pub/sub call was half-way once left later requests waiting past
        # 10 s; subscribing is bounded by the notifier itself), nor a read (`next_update`).
        deadline = deadline_after(timeout_s)
        async with self.notifier.listen(game_id) as versions:
            # Subscribed before this read: a decision published after it wakes us.
            while (
                current := await self.outcome(game_id, command_id, seat=seat)
            ).status == "queued":
                if not await next_update(versions, deadline):
                    break
        return current
