"""`redis_guarded`: Redis failures become Unavailable (503), other errors stay what they are."""

from __future__ import annotations

import pytest
import redis.asyncio
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


async def test_a_connection_torn_down_under_a_command_is_unavailable() -> None:
    # redis-py's own code writing on a connection whose writer another task dropped, the state
    # a Redis Cluster client leaves a failing node's connections in while commands still use
    # them (seen as a 500 in the cluster failover test)
    torn = redis.asyncio.Connection()

    @redis_guarded
    async def call() -> None:
        await torn._send_packed_command([b"PING"])

    with pytest.raises(Unavailable):
        await call()


async def test_an_attribute_error_of_skalds_own_is_left_as_it_is() -> None:
    ours = AttributeError("'NoneType' object has no attribute 'writelines'")
    with pytest.raises(AttributeError):
        await _raising(ours)()
