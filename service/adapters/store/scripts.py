"""The Lua scripts (service/adapters/store/lua/*.lua), registered once per Redis client."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from importlib import resources
from typing import Any

from redis.asyncio import Redis
from redis.asyncio.cluster import RedisCluster
from redis.commands.core import AsyncScript
from redis.exceptions import ResponseError

from service.adapters.redis_outage import REDIS_OUTAGE
from service.adapters.script_pipeline import command_step, run_steps, script_step
from service.adapters.store.slot_call import run_on_slot

# One script call: the script, its keys, its arguments.
ScriptCall = tuple[AsyncScript, Sequence[Any], Sequence[Any]]


@cache
def script_source(name: str) -> str:
    """The text of `lua/<name>.lua`."""
    return resources.files("service.adapters.store").joinpath(f"lua/{name}.lua").read_text()


class Scripts:
    """Every script, bound to one client (EVALSHA, reloading after a Redis restart)."""

    def __init__(self, redis: Redis) -> None:
        self.redis = redis
        self.create = self._register(redis, "create")
        self.submit = self._register(redis, "submit")
        self.commit = self._register(redis, "commit")
        self.open_round = self._register(redis, "open_round")
        self.release_lease = self._register(redis, "release_lease")
        self.wake = self._register(redis, "wake")
        self.runner_take = self._register(redis, "runner_take")
        self.runner_end = self._register(redis, "runner_end")
        self.join = self._register(redis, "join")
        self.leave = self._register(redis, "leave")
        self.active_reserve = self._register(redis, "active_reserve")
        self.create_quota = self._register(redis, "create_quota")
        self.write_views = self._register(redis, "write_views")
        self.read_view = self._register(redis, "read_view")
        self.forget_pending = self._register(redis, "forget_pending")
        self.mark_pending = self._register(redis, "mark_pending")

    @staticmethod
    def _register(redis: Redis, name: str) -> AsyncScript:
        script: Any = redis.register_script(script_source(name))
        return script  # type: ignore[no-any-return]

    async def run_all(
        self,
        calls: Sequence[ScriptCall],
        then: Sequence[Sequence[Any]] = (),
        keep_errors: bool = False,
    ) -> list[Any]:
        """Run script calls in one round trip and return their replies in order.

        A pipeline, not a transaction: each script is atomic by itself and the calls are
        independent (a drain round's games); `script_pipeline.run_steps` sends them. A call
        refused because Redis lost its scripts (a restart) did not run; it is run again once
        the script is loaded. Any other error reply is raised. `then` holds plain commands
        sent after the scripts (a runner's blocking take); their replies follow the scripts',
        they are not re-run, and their errors are raised. With `keep_errors`, a script's
        error reply is returned in its place instead (the calls of a round are independent:
        one game's failure is not the others').
        """
        if len(calls) == 1 and not then and isinstance(self.redis, RedisCluster):
            # One call (an empty runner's take or end): straight to its slot's master.
            try:
                return [await run_on_slot(self.redis, *calls[0])]
            except ResponseError as exc:
                if not keep_errors or isinstance(exc, REDIS_OUTAGE):  # an outage, not the game's
                    raise
                return [exc]
        steps = [script_step(script, keys, args) for script, keys, args in calls]
        steps += [command_step(*words) for words in then]
        return await run_steps(self.redis, steps, keep_errors)
