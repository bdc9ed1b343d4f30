"""The errors that mean Redis cannot serve now, as opposed to a bad request or a bug."""

from __future__ import annotations

from pathlib import Path

import redis
import redis.exceptions

from service.core.ports.failures import StoreFailures, register_store_failures

_REDIS_PY = Path(redis.__file__).resolve().parent

# What Redis raises while it cannot serve: down, restarting, loading, failing over, or every
# pooled connection busy past the pool's wait. All are answered 503 with Retry-After.
REDIS_OUTAGE: tuple[type[Exception], ...] = (
    redis.exceptions.ConnectionError,  # BusyLoadingError and "Too many connections" included
    redis.exceptions.TimeoutError,
    redis.exceptions.ReadOnlyError,  # a replica promoted late, or a failover in progress
    redis.exceptions.MasterDownError,
    redis.exceptions.TryAgainError,
    redis.exceptions.ClusterDownError,
    # A cluster's client ran out of redirections and retries while a failover moved slots.
    redis.exceptions.ClusterError,
    redis.exceptions.SlotNotCoveredError,
)


def closed_socket(exc: BaseException) -> bool:
    """Whether `exc` is uvloop's refusal to write on a socket that closed under a connection
    being opened (a node killed mid-handshake): redis-py lets this RuntimeError through
    instead of a ConnectionError; it is an outage all the same."""
    return isinstance(exc, RuntimeError) and "handler is closed" in str(exc)


def torn_connection(exc: BaseException) -> bool:
    """Whether `exc` is redis-py's own code using a connection another task tore down under it
    (its reader or writer gone: `'NoneType' object has no attribute 'writelines'`), as a Redis
    Cluster client does to a failing node's connections while other commands are still on
    them: an outage all the same. Only an AttributeError raised inside redis-py counts; one
    raised by Skald's own code is a bug and stays one."""
    if not isinstance(exc, AttributeError) or "'NoneType' object" not in str(exc):
        return False
    innermost = exc.__traceback__
    if innermost is None:
        return False
    while innermost.tb_next is not None:
        innermost = innermost.tb_next
    raised_in = Path(innermost.tb_frame.f_code.co_filename).resolve()
    return raised_in.is_relative_to(_REDIS_PY)


def is_outage(exc: BaseException) -> bool:
    """Whether `exc` means Redis cannot serve now (answered 503, retried), not a bug."""
    return isinstance(exc, REDIS_OUTAGE) or closed_socket(exc) or torn_connection(exc)


register_store_failures(
    StoreFailures(
        errors=(redis.exceptions.RedisError,),
        lost=(redis.exceptions.ConnectionError, redis.exceptions.TimeoutError),
        outage=is_outage,
    )
)
