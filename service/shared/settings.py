"""Service settings, read from the environment (`SKALD_<FIELD>`, e.g. SKALD_REDIS_URL).

Every field can be set as `SKALD_` + its upper-cased name; values are converted with msgspec,
so a bad value fails at start-up with a clear message rather than at the first request.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Mapping
from typing import Any

import msgspec

from domain.games import game_names

ENV_PREFIX = "SKALD_"


class Settings(msgspec.Struct, frozen=True, kw_only=True):
    """Where Skald keeps its data and the limits it enforces."""

    # Event data (streams, inboxes, views). Empty means "not configured": `skald serve` then
    # starts an embedded Redis and fills this in with `with_redis_url`.
    redis_url: str = ""
    # `redis_url` names one node of a Redis Cluster, not a single server (docs/scaling.md):
    # the drain indexes then share one slot, every game script touches its game's slot only,
    # and notifications use sharded pub/sub. The RQ queue stays on its own Redis (`queue_url`).
    redis_cluster: bool = False
    # Connections to the event Redis a process uses at once (on a cluster: its calls in flight
    # over all the masters); a call past them waits for one (up to 10 s, then 503).
    redis_connections: int = 256
    # A command is acknowledged only once this many replicas hold it (WAIT after its submit
    # script; 0: do not wait), else 503 and the client sends it again. docs/reliability.md.
    wait_replicas: int = 0
    wait_timeout_ms: int = 1000
    # On a cluster each worker's sweeper also scans every game this often for commands left
    # past their cursor in no index (a submit stopped between its two steps).
    stranded_scan_s: float = 30.0
    # On a cluster the drain indexes are split in this many shards, each in the slot of the
    # games created into it: a submit is then one script on one master (docs/scaling.md).
    # 0: the one `{drain}` slot of before. Ignored on one Redis.
    drain_shards: int = 16
    # The RQ queue may live on its own Redis (RQ does not support Redis Cluster); empty means
    # the same server as `redis_url`.
    queue_url: str = ""
    data_dir: str = ".skald"
    # Prepended to every key, so several deployments (or test runs) can share one Redis.
    key_prefix: str = ""
    queue_name: str = "skald"
    # Comma-separated modules imported at start-up, e.g. to register games kept outside
    # domain/games/ (test fakes); every process (API and workers) must import the same ones.
    plugins: str = ""
    # Accept a seed chosen by the client at game creation (reproducible demos and tests).
    # Never in production: whoever chooses the seed knows every draw in advance.
    allow_chosen_seeds: bool = False

    # Limits on what one client may ask (docs/reliability.md).
    max_body_bytes: int = 64 * 1024
    max_wait_s: float = 30.0
    # Commands a seat may submit per rate window (0: no limit). A flood guard: bots that wait
    # for each outcome stay well below it, a client stuck in a loop does not.
    rate_per_seat: int = 100
    rate_window_s: float = 1.0
    sse_per_game: int = 64
    # Live streams: an SSE comment every this many seconds keeps an idle connection open
    # through proxies; a stream ticket (a seat's stream opened from a URL) lasts this long.
    sse_heartbeat_s: float = 15.0
    stream_ticket_ttl_s: int = 30
    # A ticket that opened a server-sent event stream reopens it (a browser's EventSource
    # reconnecting by itself) until this long after the stream was last open.
    stream_ticket_resume_s: int = 600
    max_events_page: int = 1000
    max_lobby_page: int = 200
    # Players (service/facade/player_side.py): games a player may hold a seat in at once that
    # are not over, and games a player may create per hour (0: no limit).
    max_active_games_per_player: int = 50
    max_games_created_per_hour: int = 20
    # What needs no credential, per client address and window (0: no limit; 429 with
    # Retry-After past it): players created (`POST /players`), and games created without a
    # player's token. Generous, as phones behind one carrier's NAT share an address: a flood
    # guard, not a quota (a player's own games are limited per player above).
    address_window_s: float = 60.0
    players_per_address: int = 60
    guest_games_per_address: int = 300
    # The client address is the connection's peer. Behind a reverse proxy, list the proxies'
    # addresses here (comma-separated, or `*`): the HTTP server then takes the client from
    # their X-Forwarded-For (the nearest address not among them). Empty: the header is never
    # trusted, so a client cannot choose the address it is counted under.
    forwarded_allow_ips: str = ""
    # A game a player created that waits for its players longer than this is cancelled by the
    # workers (its seated players are told); a rematch keeps its seats for the former game's
    # players this long before anyone else may join.
    open_game_ttl_s: float = 86_400.0
    rematch_hold_s: float = 600.0
    # Arrays and objects nested in a request body (JSON or MessagePack); the deepest command or
    # config of the built-in games nests 4.
    max_body_depth: int = 32

    # The HTTP server (uvicorn on httptools, which answers malformed HTTP itself with a 400).
    # A request line plus headers larger than this is refused with a 400 before the app sees it.
    max_header_bytes: int = 16 * 1024
    # A connection must have sent a whole request head within this many seconds of opening
    # (or of its previous reply), however slowly its bytes trickle in; it is closed otherwise.
    header_timeout_s: float = 10.0
    timeout_keep_alive_s: int = 5  # an idle keep-alive connection is closed after this
    # Requests (and connections) served at once; past it uvicorn answers 503 by itself.
    limit_concurrency: int = 1000
    # Open connections at most: one more is closed as soon as it is accepted, so slow or idle
    # clients cannot use up the process's file descriptors. Keep it below `ulimit -n`.
    max_connections: int = 2000
    # On SIGINT or SIGTERM open streams end at once; requests in flight get this long to
    # finish before the server stops anyway.
    shutdown_grace_s: float = 5.0
    # Browsers on these origins may call the API (CORS), comma-separated; empty: none (off).
    cors_origins: str = ""
    # Responses at least this large are gzip-compressed for clients that accept it (never
    # the event stream).
    compress_min_bytes: int = 1024

    # History (replay, audit, fairness): computed in worker processes, off the event loop that
    # serves moves (0 processes: in `history_threads` threads of the API process, which share
    # its interpreter lock). Requests in flight at once (waiting or computing) beyond
    # `history_max_inflight` are refused with 429 and Retry-After. Figures in
    # docs/reliability.md.
    history_processes: int = 2
    history_threads: int = 2
    history_max_inflight: int = 8

    # Workers.
    # Commands a runner applies to one game per turn before moving on to the next ready game.
    # 1 also makes each runner job take a single game in a single round: one RQ job per
    # command, the naive design `skald bench` measures as its baseline.
    batch_size: int = 64
    lease_ttl_s: float = 30.0  # a crashed worker's lease on a game expires after this
    job_timeout_s: int = 120
    # Game states a worker keeps, keyed by (game id, version). Every worker sees every busy
    # game (RQ hands jobs to any worker), so it should exceed the games active at once: below
    # that each batch refolds its game from the stream (300 games on 256 cost 20 % of the
    # throughput in `skald bench`). The largest built-in game state is about 23 kB.
    state_cache_size: int = 1024
    sweep_interval_s: float = 5.0  # how often a worker looks for inboxes no runner will reach
    sweep_grace_s: float = 1.0  # games submitted to more recently are left alone
    # Drain runners: RQ jobs that each drain many ready games (service.core.pipeline.runner).
    max_runners: int = 4  # scheduled at once; about two per worker process keeps all busy
    # Ready games a runner takes at once: a round opens them all in one Redis round trip and
    # commits them all in another. A round's first game waits while the others are decided
    # (well under a millisecond each), so a larger round trades a little latency for fewer
    # round trips per command under load; at light load rounds hold one game anyway.
    round_size: int = 16
    runner_budget_s: float = 1.0  # a runner hands over to a fresh job after this long
    # A runner with nothing to do waits this long for a game before its job ends, so that
    # commands arriving every few milliseconds do not each pay for a new RQ job. Capped at
    # half the slot TTL: the runner renews its slot only between waits.
    runner_idle_s: float = 1.0
    # A runner renews its slot each time it takes a game; a slot not renewed for this long
    # (its worker died, or the API died before enqueueing it) is free for a new runner.
    runner_slot_ttl_s: float = 10.0

    # Cold storage (docs/scaling.md): a finished game leaves Redis for the archive this long
    # after its last command (negative: never), checked every `archive_interval_s` by the
    # workers' archiver. The archive is PostgreSQL when `archive_url` is set
    # (postgresql://...), else a directory, `<data_dir>/archive`.
    archive_after_s: float = 3600.0
    archive_interval_s: float = 60.0
    archive_url: str = ""

    # Ratings (docs/ratings.md): each worker's sweeper logs any finished game the worker that
    # finished it did not, this often (a SCAN of the games' meta keys; negative: never).
    ratings_catch_up_s: float = 60.0
    # Notifications (service/core/notifying/): the newest this many are kept per player; the
    # workers' projector looks for games to turn into notifications this often.
    notification_retention: int = 500
    notify_interval_s: float = 0.05
    # Webhooks (service/core/notifying/dispatch.py): the operator's credential for the admin
    # API (empty: the admin API refuses every request); the delays before each retry of a
    # failed delivery, in seconds, comma-separated (one attempt more than delays, then the
    # delivery is dead-lettered; each delay gets +-20 % jitter); one attempt's time limit.
    admin_token: str = ""
    webhook_retry_s: str = "10,60,300,1800,3600,7200,14400"
    webhook_timeout_s: float = 10.0
    # A player's first pending notification waits this long for more to collapse with it
    # into one delivery (fewer requests to the endpoint, less work per notification).
    webhook_linger_ms: int = 1000
    # Endpoints whose host is or resolves to a private, loopback or link-local address are
    # refused (at registration and again at each delivery) unless this is set: a test's or a
    # single-host deployment's own receiver.
    webhook_allow_private: bool = False

    # Benchmarks only: serve POST /bench/echo/games/{id}/commands, which decodes the same body
    # as a command submission and answers at once, the HTTP ceiling `skald bench` compares to.
    bench_echo: bool = False

    @property
    def plugin_modules(self) -> list[str]:
        """The modules named in `plugins`."""
        return [name.strip() for name in self.plugins.split(",") if name.strip()]

    @property
    def webhook_retry_delays(self) -> list[float]:
        """The delays named in `webhook_retry_s`."""
        return [float(d) for d in self.webhook_retry_s.split(",") if d.strip()]

    @property
    def cors_origin_list(self) -> list[str]:
        """The origins named in `cors_origins`."""
        return [origin.strip() for origin in self.cors_origins.split(",") if origin.strip()]

    @property
    def runner_max_rounds(self) -> int:
        """Rounds one runner job drains at most (0: until its time budget is spent)."""
        return 1 if self.batch_size == 1 else 0

    @property
    def runner_idle_wait_s(self) -> float:
        """How long an idle runner waits for a game: none in the naive design."""
        if self.batch_size == 1:
            return 0.0
        return min(self.runner_idle_s, self.runner_slot_ttl_s / 2)

    @property
    def runner_round_size(self) -> int:
        """Games a runner takes per round: one in the naive one-job-per-command design."""
        return 1 if self.batch_size == 1 else self.round_size

    @property
    def queue_redis_url(self) -> str:
        """The Redis URL of the RQ queue (defaults to the event data's Redis)."""
        return self.queue_url or self.redis_url

    def with_redis_url(self, url: str) -> Settings:
        """A copy pointing at `url` for event data (and for the queue unless set apart)."""
        return msgspec.structs.replace(self, redis_url=url)

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, **overrides: Any) -> Settings:
        """Settings from `SKALD_*` variables (os.environ by default), then `overrides`."""
        source = os.environ if env is None else env
        values: dict[str, Any] = {}
        for field in msgspec.structs.fields(cls):
            raw = source.get(ENV_PREFIX + field.name.upper())
            if raw is not None:
                values[field.name] = raw
        values.update(overrides)
        try:
            return msgspec.convert(values, cls, strict=False)
        except msgspec.ValidationError as exc:
            raise ValueError(f"bad Skald setting: {exc}") from None


def load_plugins(settings: Settings) -> None:
    """Import every game: the plugin modules (each registers what it provides when imported)
    and the built-in games, so that no request or job pays for the imports."""
    for name in settings.plugin_modules:
        module = importlib.import_module(name)
        register = getattr(module, "register", None)
        if callable(register):
            register()
    game_names()  # imports the built-in games (the registry otherwise loads them on first use)
