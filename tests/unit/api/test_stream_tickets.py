"""Stream tickets: a seat's stream opened from a URL, once, without its token in the URL."""

from __future__ import annotations

import pytest

from service.adapters.store.tickets import ticket_key
from service.shared.errors import Unauthorized

from .conftest import PREFIX, Api, bearer

pytestmark = pytest.mark.anyio


async def test_a_ticket_names_its_seat_once_and_only_in_its_game(api: Api) -> None:
    game_id, tokens = await api.seated_game()
    other_game, _ = await api.seated_game()
    # When seat 1 asks for a ticket with its token
    granted = await api.client.post(
        f"/v1/games/{game_id}/stream-tickets", headers=bearer(tokens[1])
    )
    assert granted.status_code == 201, granted.text
    assert granted.headers["cache-control"] == "no-store"
    ticket, expires_in = granted.json()["ticket"], granted.json()["expires_in"]
    assert expires_in == api.settings.stream_ticket_ttl_s
    assert ticket not in tokens
    # Then only its hash is kept, expiring with it
    redis = api.skald.redis
    assert await redis.get(f"{PREFIX}stream-ticket:{ticket}") is None
    assert 0 < await redis.ttl(ticket_key(PREFIX, ticket)) <= expires_in
    # A ticket for another game opens nothing (and is used up trying)
    with pytest.raises(Unauthorized):
        await api.skald.redeem_stream_ticket(other_game, ticket)
    again = await api.client.post(f"/v1/games/{game_id}/stream-tickets", headers=bearer(tokens[1]))
    ticket = again.json()["ticket"]
    # It proves its seat once; a second use is refused
    assert await api.skald.redeem_stream_ticket(game_id, ticket) == 1
    reused = await api.client.get(f"/v1/games/{game_id}/stream", params={"ticket": ticket})
    assert reused.status_code == 401
    assert reused.json()["code"] == "ticket.invalid"


async def test_tickets_need_a_seat_token(api: Api) -> None:
    game_id, _ = await api.seated_game()
    anonymous = await api.client.post(f"/v1/games/{game_id}/stream-tickets")
    assert anonymous.status_code == 401
    assert anonymous.json()["code"] == "token.missing"
    made_up = await api.client.get(f"/v1/games/{game_id}/stream", params={"ticket": "x" * 32})
    assert (made_up.status_code, made_up.json()["code"]) == (401, "ticket.invalid")


@pytest.mark.parametrize("last_event_id", ["soon", "-1", "999999"])
async def test_a_bad_last_event_id_is_a_400_before_any_stream(api: Api, last_event_id: str) -> None:
    game_id, _ = await api.seated_game()
    refused = await api.client.get(
        f"/v1/games/{game_id}/stream", headers={"last-event-id": last_event_id}
    )
    assert refused.status_code == 400
    assert refused.json()["code"] == "stream.bad_last_event_id"
