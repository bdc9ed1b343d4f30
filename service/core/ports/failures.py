"""What the store's own failures look like to the core, the facade and history.

The adapter that talks to the store registers them when it is imported
(the adapters' redis_outage.py): which exceptions are the store's (`store_errors`: a drain
round lets them through rather than resting a game), which mean its connection is gone
(`connection_errors`: no later game could be read either), and which mean it cannot serve now
(`is_outage`: answered 503 and retried). Nothing registered, nothing matches.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class StoreFailures:
    """The store's exceptions, as its adapter names them."""

    errors: tuple[type[Exception], ...] = ()
    lost: tuple[type[Exception], ...] = ()
    outage: Callable[[BaseException], bool] = lambda exc: False


_registered = [StoreFailures()]


def register_store_failures(failures: StoreFailures) -> None:
    """Called by the store's adapter: these are its exceptions."""
    _registered[0] = failures


def store_errors() -> tuple[type[Exception], ...]:
    """Every exception the store raises of its own (for an `except` clause)."""
    return _registered[0].errors


def connection_errors() -> tuple[type[Exception], ...]:
    """The exceptions that mean the store's connection is gone or timed out."""
    return _registered[0].lost


def is_outage(exc: BaseException) -> bool:
    """Whether `exc` means the store cannot serve now (answered 503, retried), not a bug."""
    return _registered[0].outage(exc)
