"""Seat tokens: long and random, stored only as hashes, compared in constant time, scoped to
one game and one seat, and never written to a log."""

from __future__ import annotations

import ast
import base64
import hashlib
import inspect
import io

import pytest

from service.facade.skald import Skald
from tests.unit.api.conftest import Api, bearer

pytestmark = pytest.mark.anyio

MIN_TOKEN_BITS = 128


async def everything_stored(api: Api) -> bytes:
    """Every byte Redis holds, key by key (DUMP covers every type: streams, hashes, lists)."""
    redis = api.skald.redis
    dumped = []
    async for key in redis.scan_iter(match="*", count=1000):
        dumped.append(key + (await redis.dump(key) or b""))
    return b"\n".join(dumped)


async def test_tokens_carry_at_least_128_random_bits_and_never_repeat(api: Api) -> None:
    # Given many seats taken in many games
    tokens = []
    for _ in range(25):
        _, seated = await api.seated_game(players=4)
        tokens += seated
    # Then each token decodes to at least 16 random bytes, and no two are alike
    for token in tokens:
        raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
        assert len(raw) * 8 >= MIN_TOKEN_BITS
    assert len(set(tokens)) == len(tokens)
    # And their characters are spread out (a counter or a timestamp would not be)
    assert len(set("".join(tokens))) > 50


async def test_redis_holds_the_hash_of_a_token_and_never_the_token(api: Api) -> None:
    # Given a game played a little with its seats' tokens
    game_id, tokens = await api.seated_game()
    await api.client.post(
        f"/games/{game_id}/commands",
        json={"command_id": "c1", "command": {"type": "Move", "steps": 1}},
        headers=bearer(tokens[0]),
    )
    await api.drain()
    # When everything Redis holds is read back
    stored = await everything_stored(api)
    # Then the tokens' hashes are there (the scan sees seat data) and the tokens are not
    for token in tokens:
        assert hashlib.sha256(token.encode()).digest() in stored
        assert token.encode() not in stored


def test_tokens_are_compared_in_constant_time() -> None:
    # Given the code that checks a token
    module = ast.parse(inspect.getsource(Skald))
    tree = next(
        node
        for node in ast.walk(module)
        if isinstance(node, ast.AsyncFunctionDef) and node.name == "open_seat"
    )
    calls = [ast.unparse(node.func) for node in ast.walk(tree) if isinstance(node, ast.Call)]
    compared = [ast.unparse(node) for node in ast.walk(tree) if isinstance(node, ast.Compare)]
    # Then it compares with hmac.compare_digest, and never with == on a digest or token
    assert "hmac.compare_digest" in calls
    assert not [text for text in compared if "==" in text and ("digest" in text or "token" in text)]


async def test_a_token_opens_one_seat_of_one_game(api: Api) -> None:
    # Given two games with their seats taken
    game_a, tokens_a = await api.seated_game()
    game_b, tokens_b = await api.seated_game()
    move = {"command_id": "c1", "command": {"type": "Move", "steps": 1}}
    # When a token of game A is used on game B
    response = await api.client.post(
        f"/games/{game_b}/commands", json=move, headers=bearer(tokens_a[0])
    )
    # Then it is refused as invalid, and game B's stream did not move
    assert response.status_code == 401
    assert response.json()["code"] == "token.invalid"
    assert response.headers["www-authenticate"].startswith("Bearer")
    # And within game A each token proves its own seat only
    for seat, token in enumerate(tokens_a):
        turn = await api.client.get(f"/games/{game_a}/turn", headers=bearer(token))
        assert turn.json()["seat"] == seat
    assert tokens_b[0] != tokens_a[0]


async def test_no_token_reaches_the_logs_during_a_whole_session(
    api: Api, log_output: io.StringIO
) -> None:
    # Given a session: seats joined, commands sent, views, events, replay and audit read
    game_id, tokens = await api.seated_game()
    for step, token in enumerate(tokens):
        headers = bearer(token)
        await api.client.post(
            f"/games/{game_id}/commands",
            json={"command_id": f"c{step}", "command": {"type": "Move", "steps": 1}},
            headers=headers,
        )
        await api.drain()
        for path in ("view", "turn", "events", "replay", "audit/2", f"commands/c{step}"):
            await api.client.get(f"/games/{game_id}/{path}", headers=headers)
    # and bad tokens, which are logged as refusals
    await api.client.get(f"/games/{game_id}/view", headers=bearer(tokens[0] + "x"))
    await api.client.get(f"/games/{game_id}/view", headers={"authorization": tokens[1]})
    # When the log output is read
    logged = log_output.getvalue()
    # Then the session was logged, and no token (nor its bad variants) appears in it
    assert logged.count('"request"') >= 10
    for token in tokens:
        assert token not in logged
        assert token[:20] not in logged
