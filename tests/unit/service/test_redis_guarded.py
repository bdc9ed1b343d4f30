"""`redis_guarded`: Redis failures become Unavailable (503), other errors stay what they are."""

from __future__ import annotations

import pytest
import redis.exceptions

from service.facade.checks import redis_guarded
from service.shared.errors import Unavailable

pytestmark = [pytest.mark.anyio]


def _raising(exc: BaseException):  # type: ignore[no-untyped-def]
    @redis_guarded
    async def call() -> None:
        raise exc

    return call


async def test_a_connection_error_is_unavailable() -> None:
    with pytest.raises(Unavailable):
        await _raising(redis.exceptions.ConnectionError("refused"))()


async def test_a_socket_closed_while_connecting_is_unavailable() -> None:
    closed = RuntimeError(
        "unable to perform operation on <TCPTransport closed=True reading=False>; "
        "the handler is closed"
    )
    with pytest.raises(Unavailable):
        await _raising(closed)()


async def test_any_other_runtime_error_is_left_as_it_is() -> None:
    with pytest.raises(RuntimeError, match="a bug"):
        await _raising(RuntimeError("a bug"))()
