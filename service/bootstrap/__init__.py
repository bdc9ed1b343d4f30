"""The composition root: the one place that builds Skald's object graph from its settings.

Every entrypoint takes its objects from here, one graph per process role: the HTTP API and the
CLI (`connect`, api.py; `history`, history_service.py), a worker (`worker_graph`, worker.py), the
archiver (`archiving_graph`, archiving.py), the webhook dispatcher (`dispatcher_graph`,
webhooks.py), the notification and ratings commands (notifications.py, ratings.py), over the
clients and stores they share (clients.py); and the tests (the same functions, on clients they
made themselves: fakeredis, a real Redis, a recording scheduler). Nothing else constructs an
adapter, a store, a scheduler or a facade, so a change of wiring is a change to this package
alone.
"""

from __future__ import annotations

from service.bootstrap.api import GAME_METAS_CACHED, KNOWN_TOKENS_CACHED, connect, skald
from service.bootstrap.archiving import ArchivingGraph, archiver, archiving_graph
from service.bootstrap.clients import (
    archive,
    archived_reads,
    embedded_redis,
    event_client,
    queue_client,
    redis_problem,
    replica_wait,
    runner_limits,
    scheduler,
    store,
)
from service.bootstrap.history_service import history
from service.bootstrap.notifications import (
    NOTIFY_SESSIONS_CACHED,
    notification_feed,
    notification_projector,
    notification_side,
    rebuild_notifications,
)
from service.bootstrap.ratings import catch_up_ratings, rating_ledger, rebuild_ratings
from service.bootstrap.webhooks import (
    dispatcher,
    dispatcher_graph,
    host_guard,
    webhook_admin,
    webhook_store,
)
from service.bootstrap.worker import WorkerGraph, drain_runner, worker_graph

__all__ = [
    "GAME_METAS_CACHED",
    "KNOWN_TOKENS_CACHED",
    "NOTIFY_SESSIONS_CACHED",
    "ArchivingGraph",
    "WorkerGraph",
    "archive",
    "archived_reads",
    "archiver",
    "archiving_graph",
    "catch_up_ratings",
    "connect",
    "dispatcher",
    "dispatcher_graph",
    "drain_runner",
    "embedded_redis",
    "event_client",
    "history",
    "host_guard",
    "notification_feed",
    "notification_projector",
    "notification_side",
    "queue_client",
    "rating_ledger",
    "rebuild_notifications",
    "rebuild_ratings",
    "redis_problem",
    "replica_wait",
    "runner_limits",
    "scheduler",
    "skald",
    "store",
    "webhook_admin",
    "webhook_store",
    "worker_graph",
]
