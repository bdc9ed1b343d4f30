"""The application facade the HTTP layer (and the CLI) call: one async object, `Skald`.

It translates between API messages (contracts.api) and the command pipeline: storage on
Redis (redis.asyncio), the RQ queue (enqueued in a thread, off the event loop), projections
pre-encoded by the workers. Every method raises a `service.errors.ServiceError` subclass on
bad input and `Unavailable` when Redis cannot be reached; nothing is changed by a call that
raises, except a command that reached the inbox (it is then processed).

Connections open lazily: `connect` succeeds while Redis is down, and `ping` tells readiness.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import secrets
from collections import OrderedDict
from collections.abc import AsyncGenerator
from datetime import UTC, datetime
from typing import Any

import msgspec
from redis import Redis as SyncRedis
from redis.asyncio import BlockingConnectionPool, Redis

from contracts.api import (
    CommandOutcome,
    EventPage,
    EventRecord,
    GameCreated,
    LobbyEntry,
    SeatJoined,
    Turn,
)
from service.errors import (
    Conflict,
    Forbidden,
    GameDamaged,
    GameQuarantined,
    InvalidInput,
    NotFound,
    RateLimited,
    Unauthorized,
)
from service.facade_checks import (
    MAX_ID_LENGTH,
    MAX_NAME_LENGTH,
    MAX_TOKEN_LENGTH,
    api_outcome,
    check_id,
    redis_guarded,
    token_hash,
)
from service.notify import RECHECK, Notifier, Update
from service.pipeline.codec import codec_for
from service.pipeline.create import open_game
from service.pipeline.schedule import DrainScheduler, RQScheduler
from service.projections import (
    FORMATS,
    TURN_FORMAT,
    decode_turn,
    encode_views,
    visible_records,
)
from service.settings import Settings, load_plugins
from service.store.keys import is_game_id
from service.store.protocol import GameMissing
from service.store.records import Accepted, Duplicate, GameMeta, ReceivedCommand, Throttled
from service.store.redis_events import RedisEventStore
from service.store.scripts import Scripts
from service.store.side import KnownTokens, Lobby, Seats, Views, view_field

SEED_BYTES = 32  # a game's secret seed (DESIGN: randomness is provably fair)

ViewFormat = str  # "json" or "msgpack"
_META_CACHE_SIZE = 10_000
_REDIS_CONNECTIONS = 256
_REDIS_POOL_WAIT_S = 10.0


def new_game_id() -> str:
    """A fresh game id: 96 random bits, URL-safe, never starting with "-" (which a command line
    would read as an option: `skald replay -x…`)."""
    while (game_id := secrets.token_urlsafe(12)).startswith("-"):
        pass
    return game_id


class Skald:
    """The service's operations, as the HTTP API sees them."""

    def __init__(
        self,
        settings: Settings,
        redis: Redis,
        scheduler: DrainScheduler,
        queue_redis: SyncRedis | None = None,
    ) -> None:
        self.settings = settings
        self.redis = redis
        self.scheduler = scheduler
        self._queue_redis = queue_redis
        prefix = settings.key_prefix
        scripts = Scripts(redis)
        self.store = RedisEventStore(redis, prefix, scripts, settings.runner_limits)
        self.seats = Seats(redis, prefix, scripts)
        self.known_tokens = KnownTokens(self.seats.token_hashes, _META_CACHE_SIZE)
        self.views = Views(redis, prefix, scripts)  # rebuilds; commits store views themselves
        self.lobby = Lobby(redis, prefix)
        self.notifier = Notifier(redis, prefix)
        self._metas: OrderedDict[str, GameMeta] = OrderedDict()
        self._streams: dict[str, int] = {}  # open update streams per game, this process

    @classmethod
    async def connect(cls, settings: Settings) -> Skald:
        """Set up clients for the event Redis and the queue Redis (opened lazily)."""
        if not settings.redis_url:
            raise ValueError("no Redis configured: set SKALD_REDIS_URL")
        load_plugins(settings)
        # A blocking pool: past its size a request waits for a free connection, where the
        # default pool (100 connections) failed it with "Too many connections" (a 503) as
        # soon as a hundred requests were in flight at once (found by `skald bench`).
        pool = BlockingConnectionPool.from_url(
            settings.redis_url, max_connections=_REDIS_CONNECTIONS, timeout=_REDIS_POOL_WAIT_S
        )
        redis = Redis(connection_pool=pool)
        queue_redis = SyncRedis.from_url(settings.queue_redis_url)
        scheduler = RQScheduler(
            queue_redis, settings.queue_name, settings.key_prefix, settings.job_timeout_s
        )
        return cls(settings, redis, scheduler, queue_redis)

    async def close(self) -> None:
        """Close every connection this object opened."""
        await self.notifier.close()
        await self.redis.aclose()
        if self._queue_redis is not None:
            self._queue_redis.close()

    @redis_guarded
    async def ping(self) -> None:
        """Check that the event Redis and the queue Redis answer; raises Unavailable otherwise."""
        await self.redis.ping()
        if self._queue_redis is not None:
            await asyncio.to_thread(self._queue_redis.ping)

    async def _meta(self, game_id: str) -> GameMeta:
        meta = self._metas.get(game_id)
        if meta is not None:
            return meta
        if not is_game_id(game_id):
            raise GameMissing(game_id)
        meta = await self.store.known_meta(game_id)
        self._metas[game_id] = meta  # a game's meta never changes: cache it
        while len(self._metas) > _META_CACHE_SIZE:
            self._metas.popitem(last=False)
        return meta

    @redis_guarded
    async def create_game(
        self, game: str, config: dict[str, Any], seed_hex: str | None = None
    ) -> GameCreated:
        """Create a game with a fresh secret seed (or a chosen one, where settings allow it);
        InvalidInput for an unknown game or a bad config or seed."""
        codec = codec_for(game)
        if not isinstance(config, dict):
            raise InvalidInput("game.bad_config", "a game's config is a JSON object")
        game_id = new_game_id()
        seed = secrets.token_bytes(SEED_BYTES) if seed_hex is None else self._chosen_seed(seed_hex)
        now = datetime.now(UTC)
        opened = open_game(codec, game_id, config, seed, now.isoformat(timespec="seconds"))
        version = len(opened.events)
        views = encode_views(codec, game_id, version, opened.state, opened.meta.seats)
        await self.store.create(game_id, opened.meta, seed, opened.events, opened.finished, views)
        if not opened.finished:
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
        meta = await self._meta(game_id)
        if seat is not None and seat < 0:
            raise InvalidInput("seat.out_of_range", f"seat {seat} does not exist")
        name = name.strip()
        if len(name) > MAX_NAME_LENGTH or not name.isprintable():
            raise InvalidInput(
                "seat.bad_name", f"a name is at most {MAX_NAME_LENGTH} printable characters"
            )
        token = secrets.token_urlsafe(32)  # 256 random bits; only its hash is stored
        taken_seat, taken, seats = await self.seats.take(game_id, seat, token_hash(token), name)
        if taken == seats:
            await self.lobby.close(game_id, meta.game)
        return SeatJoined(game_id=game_id, seat=taken_seat, token=token)

    @redis_guarded
    async def open_games(self, game: str | None, limit: int) -> list[LobbyEntry]:
        """Games with free seats, newest first, optionally of one game only."""
        limit = max(1, min(limit, self.settings.max_lobby_page))
        entries = []
        for game_id in await self.lobby.newest(game, limit):
            try:
                meta = await self._meta(game_id)
            except (GameMissing, GameDamaged, GameQuarantined):
                continue  # the lobby lists the games that can be played
            taken = sorted(await self.seats.token_hashes(game_id))
            entries.append(LobbyEntry(game_id, meta.game, meta.seats, taken, meta.created_at))
        return entries

    @redis_guarded
    async def authenticate(self, game_id: str, token: str) -> int:
        """The seat a token belongs to in this game; Unauthorized otherwise."""
        await self._meta(game_id)
        if not 0 < len(token) <= MAX_TOKEN_LENGTH:
            raise Unauthorized("token.invalid", "this token is not valid for this game")
        digest = token_hash(token)
        found = await self.known_tokens.seat_of(
            game_id, lambda stored: hmac.compare_digest(stored, digest)
        )
        if found is None:
            await self.seats.check_records(game_id)  # a lost seat record is not a bad token
            raise Unauthorized("token.invalid", "this token is not valid for this game")
        return found

    @redis_guarded
    async def submit(
        self,
        game_id: str,
        seat: int,
        command_id: str,
        command: dict[str, Any],
        request_id: str,
    ) -> CommandOutcome:
        """Queue a command for `seat` ("queued"), or return the outcome of the same command id."""
        meta = await self._meta(game_id)
        check_id(command_id, "command")
        if not 0 <= seat < meta.seats:
            raise Forbidden("seat.out_of_range", f"no seat {seat} in this game")
        codec = codec_for(meta.game)
        body = codec.canonical(codec.parse_command(command))
        received = ReceivedCommand(seat, command_id, request_id[:MAX_ID_LENGTH], body)
        job_id = self.scheduler.new_job_id()  # enqueued only if the submit claims a slot
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
                if first.seat != seat or first.body != body:
                    # One answer whether this seat or another sent the id: the reply never
                    # tells which seat's command an id names.
                    raise Conflict(
                        "command.id_reused",
                        "this command id was already used in this game for another command; "
                        "choose a fresh one",
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
        """What became of a command so far; NotFound for an unknown id (or another seat's)."""
        await self._meta(game_id)
        record = await self.store.command(game_id, command_id)
        if record is None and await self.store.meta(game_id) is None:
            await self.store.absent(game_id)  # quarantined (or damaged) since cached
        if record is None or (seat is not None and record.seat != seat):
            raise NotFound("command.not_found", f"no command {command_id!r} in this game")
        return api_outcome(command_id, record)

    @redis_guarded
    async def wait_outcome(
        self, game_id: str, command_id: str, timeout_s: float, *, seat: int | None = None
    ) -> CommandOutcome:
        """The command's outcome once decided, or "queued" after `timeout_s` seconds."""
        timeout_s = max(0.0, min(timeout_s, self.settings.max_wait_s))
        current = await self.outcome(game_id, command_id, seat=seat)
        if current.status != "queued" or timeout_s == 0:
            return current
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(timeout_s), self.notifier.listen(game_id) as versions:
                # Subscribed before this read: a decision published after it wakes us below.
                while (current := await self.outcome(game_id, command_id, seat=seat)).status == (
                    "queued"
                ):
                    await versions.get()
                return current
        return await self.outcome(game_id, command_id, seat=seat)

    @redis_guarded
    async def view(
        self, game_id: str, seat: int | None, fmt: ViewFormat = "json"
    ) -> tuple[int, bytes]:
        """(version, pre-encoded ViewEnvelope) for a seat or the public (seat None)."""
        if fmt not in FORMATS:
            raise InvalidInput("view.bad_format", f"views come as {' or '.join(FORMATS)}")
        meta = await self._meta(game_id)
        if seat is not None and not 0 <= seat < meta.seats:
            raise Forbidden("seat.out_of_range", f"no seat {seat} in this game")
        field = view_field(fmt, seat)
        stored = await self.store.view(game_id, field)
        if stored is None:  # every game is created with its views
            await self.store.absent(game_id, f"stored view {field!r}")
        return stored

    @redis_guarded
    async def turn(self, game_id: str, seat: int | None) -> Turn:
        """Who acts now and, for `seat`, its legal commands (projected with the views)."""
        meta = await self._meta(game_id)
        if seat is not None and not 0 <= seat < meta.seats:
            raise Forbidden("seat.out_of_range", f"no seat {seat} in this game")
        field = view_field(TURN_FORMAT, seat)
        stored = await self.store.view(game_id, field)
        if stored is None:
            await self.store.absent(game_id, f"stored turn {field!r}")
        try:
            return decode_turn(stored[1])
        except (msgspec.DecodeError, msgspec.ValidationError):
            raise GameDamaged(game_id, f"the stored turn {field!r} does not decode") from None

    @redis_guarded
    async def events_after(
        self, game_id: str, after: int, seat: int | None, limit: int
    ) -> EventPage:
        """Events with version > `after`, filtered to what `seat` (None: spectator) may see."""
        meta = await self._meta(game_id)
        if after < 0:
            raise InvalidInput("events.bad_after", "`after` is a version, 0 or more")
        limit = max(1, min(limit, self.settings.max_events_page))
        head = await self.store.head(game_id)
        if head is None:
            await self.store.absent(game_id)
        codec = codec_for(meta.game)
        if meta.rules_version != codec.game.rules_version:
            # Its events may not even decode under these rules: say so rather than guess.
            raise Conflict(
                "game.rules_version",
                f"this game was created under {meta.game} rules version "
                f"{meta.rules_version!r}; this service implements {codec.game.rules_version!r}",
            )
        records: list[EventRecord] = []
        # Withheld events leave gaps: read on until the page is full or the head is reached.
        while len(records) < limit and after < head.version:
            chunk = await self.store.read(game_id, after, min(limit, head.version - after))
            if not chunk:
                ends = f"ends at version {after}" if after else "is missing"
                damage = f"the event stream {ends}, the head is at version {head.version}"
                raise GameDamaged(game_id, damage, after + 1)
            records += visible_records(codec, chunk, seat, head.finished)
            after = chunk[-1].version
        return EventPage(game_id=game_id, events=records[:limit], last_version=head.version)

    async def updates(self, game_id: str) -> AsyncGenerator[Update, None]:
        """The game's current version, then each new one as workers publish it (for SSE),
        with the viewers' views when the message carried them.

        Raises NotFound (unknown game) or RateLimited (too many streams on the game) when
        first iterated, and Unavailable if Redis is down at that point.
        """
        await redis_guarded(self._meta)(game_id)
        if self._streams.get(game_id, 0) >= self.settings.sse_per_game:
            raise RateLimited(
                "stream.too_many",
                f"at most {self.settings.sse_per_game} update streams per game",
                retry_after=5.0,
            )
        self._streams[game_id] = self._streams.get(game_id, 0) + 1
        try:
            async with self.notifier.listen(game_id) as updates:
                head = await redis_guarded(self.store.head)(game_id)
                last = head.version if head is not None else 0
                yield Update(last)
                while True:
                    update = await updates.get()
                    if update.version == RECHECK:
                        head = await redis_guarded(self.store.head)(game_id)
                        update = Update(head.version if head is not None else last)
                    if update.version > last:
                        last = update.version
                        yield update
        finally:
            self._streams[game_id] -= 1
            if not self._streams[game_id]:
                del self._streams[game_id]
