"""The errors that mean Redis cannot serve now, as opposed to a bad request or a bug."""

from __future__ import annotations

import redis.exceptions

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
