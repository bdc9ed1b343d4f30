"""The Lua scripts (service/store/lua/*.lua), registered once per Redis client."""

from __future__ import annotations

from functools import cache
from importlib import resources
from typing import Any

from redis.asyncio import Redis
from redis.commands.core import AsyncScript


@cache
def script_source(name: str) -> str:
    """The text of `lua/<name>.lua`."""
    return resources.files("service.store").joinpath(f"lua/{name}.lua").read_text()


class Scripts:
    """Every script, bound to one client (EVALSHA, reloading after a Redis restart)."""

    def __init__(self, redis: Redis) -> None:
        self.create = self._register(redis, "create")
        self.submit = self._register(redis, "submit")
        self.commit = self._register(redis, "commit")
        self.lease = self._register(redis, "lease")
        self.open_turn = self._register(redis, "open_turn")
        self.release_lease = self._register(redis, "release_lease")
        self.wake = self._register(redis, "wake")
        self.runner_take = self._register(redis, "runner_take")
        self.runner_end = self._register(redis, "runner_end")
        self.join = self._register(redis, "join")
        self.write_views = self._register(redis, "write_views")
        self.mark_pending = self._register(redis, "mark_pending")
        self.forget_pending = self._register(redis, "forget_pending")

    @staticmethod
    def _register(redis: Redis, name: str) -> AsyncScript:
        script: Any = redis.register_script(script_source(name))
        return script  # type: ignore[no-any-return]
