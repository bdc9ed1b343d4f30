"""A small synchronous client of the Skald HTTP API (the demo's, and the tests').

Replies are decoded into the same contracts.api Structs the server encodes. Problems raise
`ApiProblem`. Submitting is idempotent by command id, so the client retries it (and every
read) when the service answers 503 or cannot be reached, honouring Retry-After.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, TypeVar

import httpx
import msgspec

from contracts.api import (
    CommandOutcome,
    CreateGameRequest,
    EventPage,
    GameCreated,
    JoinRequest,
    Lobby,
    Problem,
    SeatJoined,
    SubmitCommand,
    Turn,
    ViewEnvelope,
)
from contracts.stream import Clock

T = TypeVar("T")
RETRIES = 5


class ApiProblem(Exception):
    """The service answered with an RFC 9457 problem."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(f"{problem.status} {problem.code}: {problem.detail}")
        self.problem = problem


class SkaldClient:
    """Calls the API at `base_url`; use as a context manager to close the connection pool."""

    def __init__(self, base_url: str, timeout_s: float = 30.0) -> None:
        self.http = httpx.Client(base_url=base_url, timeout=timeout_s)

    def __enter__(self) -> SkaldClient:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.http.close()

    def create_game(
        self,
        game: str,
        config: dict[str, Any],
        seed_hex: str | None = None,
        clock: Clock | None = None,
    ) -> GameCreated:
        """POST /games (`seed_hex` only where the server accepts chosen seeds; `clock`: a turn
        timer)."""
        body = CreateGameRequest(game=game, config=config, seed_hex=seed_hex, clock=clock)
        return self._call(GameCreated, "POST", "/games", body=body, expect=(201,))

    def join(self, game_id: str, seat: int | None = None, name: str = "") -> SeatJoined:
        """POST /games/{id}/seats: the seat and its token."""
        body = JoinRequest(name=name, seat=seat)
        return self._call(SeatJoined, "POST", f"/games/{game_id}/seats", body=body, expect=(201,))

    def lobby(self, game: str | None = None) -> Lobby:
        """GET /games?open=true."""
        params = {"open": "true", **({"game": game} if game else {})}
        return self._call(Lobby, "GET", "/games", params=params)

    def turn(self, game_id: str, token: str | None = None) -> Turn:
        """GET /games/{id}/turn: who acts, and the caller's legal commands."""
        return self._call(Turn, "GET", f"/games/{game_id}/turn", token=token)

    def submit(
        self,
        game_id: str,
        token: str,
        command_id: str,
        command: dict[str, Any],
        wait_s: float = 0.0,
    ) -> CommandOutcome:
        """POST /games/{id}/commands (retried safely: the command id makes it idempotent)."""
        body = SubmitCommand(command_id=command_id, command=command)
        params = {"wait": str(wait_s)} if wait_s else None
        path = f"/games/{game_id}/commands"
        return self._call(
            CommandOutcome, "POST", path, body=body, token=token, params=params, expect=(200, 202)
        )

    def view(self, game_id: str, token: str | None = None) -> ViewEnvelope:
        """GET /games/{id}/view: the seat's view with a token, the public one without."""
        return self._call(ViewEnvelope, "GET", f"/games/{game_id}/view", token=token)

    def events(self, game_id: str, after: int = 0, token: str | None = None) -> EventPage:
        """GET /games/{id}/events?after=N."""
        params = {"after": str(after)}
        return self._call(EventPage, "GET", f"/games/{game_id}/events", token=token, params=params)

    def _call(
        self,
        result: type[T],
        method: str,
        path: str,
        *,
        body: msgspec.Struct | None = None,
        token: str | None = None,
        params: dict[str, str] | None = None,
        expect: tuple[int, ...] = (200,),
    ) -> T:
        headers = {"accept": "application/json"}
        if token is not None:
            headers["authorization"] = f"Bearer {token}"
        content = None
        if body is not None:
            content = msgspec.json.encode(body)
            headers["content-type"] = "application/json"
        send: Callable[[], httpx.Response] = lambda: self.http.request(  # noqa: E731
            method, path, content=content, headers=headers, params=params
        )
        response = _with_retries(send)
        if response.status_code in expect:
            return msgspec.json.decode(response.content, type=result)
        raise ApiProblem(_problem_of(response))


def _with_retries(send: Callable[[], httpx.Response]) -> httpx.Response:
    delay = 0.2
    for attempt in range(RETRIES):
        last = attempt == RETRIES - 1
        try:
            response = send()
        except httpx.TransportError:
            if last:
                raise
        else:
            if response.status_code != 503 or last:
                return response
            delay = float(response.headers.get("retry-after", delay))
        time.sleep(delay)
        delay = min(delay * 2, 5.0)
    raise AssertionError("unreachable")


def _problem_of(response: httpx.Response) -> Problem:
    try:
        return msgspec.json.decode(response.content, type=Problem)
    except msgspec.DecodeError:
        return Problem(
            type="about:blank",
            title=response.reason_phrase,
            status=response.status_code,
            detail=response.text[:500],
        )
