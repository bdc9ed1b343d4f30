"""The request bounds the API enforces, each refused with a clear 400 problem, and the client
address the per-address limits count."""

from __future__ import annotations

from typing import Any

from litestar import Request

from service.facade.address_limits import AddressAction
from service.facade.skald import Skald
from service.shared.errors import InvalidInput


def client_address(request: Request[Any, Any, Any]) -> str | None:
    """The request's client address: the connection's peer, as the ASGI server names it
    (the client a trusted proxy names, when `forwarded_allow_ips` lists that proxy)."""
    client = request.scope.get("client")
    return None if not client else str(client[0])


async def admit_from_address(
    skald: Skald, request: Request[Any, Any, Any], action: AddressAction
) -> None:
    """Count the request against its client address's limit for `action` (429 past it)."""
    if skald.address_limits is not None:
        await skald.address_limits.admit(action, client_address(request))


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
