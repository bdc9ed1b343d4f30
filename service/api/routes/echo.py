"""A bench-only echo endpoint: the same HTTP stack as a command submission, no pipeline.

Mounted only with the `bench_echo` setting (off by default). `skald bench` posts the very
payloads it submits as commands here, so the ratio of the two throughputs is what the command
pipeline costs on top of HTTP, JSON and the middleware.
"""

from __future__ import annotations

from typing import Any

from litestar import Request, Response, post
from litestar.params import FromPath, JSONBody

from contracts.api import CommandOutcome, SubmitCommand

from ..negotiation import reply


@post("/bench/echo/games/{game_id:str}/commands", status_code=202, include_in_schema=False)
async def echo_command(
    request: Request[Any, Any, Any], game_id: FromPath[str], data: JSONBody[SubmitCommand]
) -> Response[CommandOutcome]:
    """Decode a command submission and answer "queued" without touching Redis."""
    return reply(request, CommandOutcome(command_id=data.command_id, status="queued"), 202)
