"""The worker process: an RQ worker running drain runners, plus the sweeper thread.

`python -m workers.main` (what `skald worker` and `skald serve` start) reads its settings
from SKALD_* variables.

The worker is RQ's SimpleWorker, which runs jobs in its own process instead of forking one
child per job: a drain turn takes about a millisecond of rules and a few Redis calls, so a fork
would cost more than the job, and would throw away the loop, the connections and the LRU of
game states that let the next batch of a busy game start without refolding its stream. A crash
in a job cannot corrupt anything: writes are atomic and fenced by the lease, and the sweeper
re-queues what a dead worker left.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
import time

import redis.exceptions
import structlog
from redis import Redis as SyncRedis
from rq import Queue, SimpleWorker
from rq.serializers import JSONSerializer

from service import bootstrap
from service.shared.settings import Settings, load_plugins
from workers import jobs
from workers.archiver import ArchiverThread
from workers.notifier import NotifierThread
from workers.runtime import WorkerRuntime
from workers.sweeper import SweeperThread

log = structlog.get_logger("skald.worker")


def _configure_logging(level: str) -> None:
    try:
        from service.shared.logging import configure_logging
    except ImportError:  # the HTTP layer's logging set-up is optional for a worker
        return
    configure_logging(level)


def run(
    settings: Settings,
    *,
    burst: bool = False,
    with_sweeper: bool = True,
    name: str | None = None,
    log_level: str = "INFO",
) -> None:
    """Work on the drain queue until SIGTERM/SIGINT (or, with `burst`, until it is empty).

    Must run in the main thread (RQ handles signals there). When Redis goes away RQ's loop
    gives up; this waits for Redis to answer again and starts a fresh RQ worker.
    """
    load_plugins(settings)
    runtime = WorkerRuntime(settings)
    jobs.install(runtime)
    sweeper = SweeperThread(settings) if with_sweeper else None
    if sweeper is not None:
        sweeper.start()
    archiver = ArchiverThread(settings) if with_sweeper else None  # --no-sweeper: neither
    if archiver is not None:
        archiver.start()
    notifier = NotifierThread(settings) if with_sweeper else None  # nor the projector
    if notifier is not None:
        notifier.start()
    connection = bootstrap.queue_client(settings)
    queue = Queue(settings.queue_name, connection=connection, serializer=JSONSerializer)
    try:
        while True:
            worker = SimpleWorker(
                [queue], connection=connection, serializer=JSONSerializer, name=name
            )
            # RQ's own clean-up may fail too while Redis is away.
            with contextlib.suppress(
                redis.exceptions.ConnectionError, redis.exceptions.TimeoutError
            ):
                worker.work(burst=burst, logging_level=log_level, with_scheduler=False)
            # RQ records when a stop was asked for; otherwise its loop quit on a Redis error.
            if burst or worker._shutdown_requested_date is not None:
                break
            log.warning("worker_lost_redis", queue=settings.queue_name)
            _wait_for_redis(connection)
            # A Redis restored from its AOF still lists this worker: unregister it, or the
            # next worker of the same name would be refused as a duplicate.
            with contextlib.suppress(redis.exceptions.RedisError):
                worker.register_death()  # type: ignore[no-untyped-call]
    finally:
        if sweeper is not None:
            sweeper.stop()
        if archiver is not None:
            archiver.stop()
        if notifier is not None:
            notifier.stop()
        jobs.uninstall(runtime)
        runtime.close()
        connection.close()


def _wait_for_redis(connection: SyncRedis) -> None:
    delay = 0.1
    while True:
        try:
            connection.ping()
            return
        except (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError):
            time.sleep(delay)  # back off while Redis is down; nothing to await instead
            delay = min(delay * 2, 2.0)


def main(argv: list[str] | None = None) -> int:
    """Entry point of `python -m workers.main`."""
    parser = argparse.ArgumentParser(prog="workers.main", description=__doc__.split("\n")[0])
    parser.add_argument("--burst", action="store_true", help="stop once the queue is empty")
    parser.add_argument("--no-sweeper", action="store_true", help="do not run the sweeper")
    parser.add_argument("--name", help="the worker's name in RQ")
    parser.add_argument("--log-level", default="INFO")
    args = parser.parse_args(argv)
    settings = Settings.from_env()
    if not settings.redis_url:
        print("workers.main: set SKALD_REDIS_URL", file=sys.stderr)
        return 2
    _configure_logging(args.log_level)
    problem = bootstrap.redis_problem(settings)
    if problem is not None:
        print(f"workers.main: {problem}", file=sys.stderr)
        return 2
    run(
        settings,
        burst=args.burst,
        with_sweeper=not args.no_sweeper,
        name=args.name,
        log_level=args.log_level,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
