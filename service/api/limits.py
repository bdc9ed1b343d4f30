"""The request bounds the API enforces, each refused with a clear 400 problem."""

from __future__ import annotations

from service.shared.errors import InvalidInput


def bounded_wait(wait: float, max_wait_s: float) -> float:
    """`wait` (seconds) if within the bound; InvalidInput (400) otherwise."""
    if wait > max_wait_s:
        raise InvalidInput(
            "request.wait_too_long",
            f"wait must be at most {max_wait_s:g} seconds",
            status=400,
            details={"max": max_wait_s},
        )
    return wait


def bounded_page(limit: int, max_page: int) -> int:
    """A page size if within the bound; InvalidInput (400) otherwise."""
    if limit > max_page:
        raise InvalidInput(
            "request.limit_too_large",
            f"limit must be at most {max_page}",
            status=400,
            details={"max": max_page},
        )
    return limit
