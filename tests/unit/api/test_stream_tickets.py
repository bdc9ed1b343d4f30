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


async def test_a_ticket_that_opened_a_stream_reopens_it_for_the_resume_window(api: Api) -> None:
    # Given a ticket a seat's event stream was opened with
    game_id, tokens = await api.seated_game()
    granted = await api.client.post(
        f"/v1/games/{game_id}/stream-tickets", headers=bearer(tokens[0])
    )
    ticket = granted.json()["ticket"]
    assert await api.skald.open_seat_ticket(game_id, ticket, resumable=True) == (0, None)
    # Then it is kept for the resume window, not the ticket's first few seconds
    redis = api.skald.redis
    window = api.settings.stream_ticket_resume_s
    assert api.settings.stream_ticket_ttl_s < await redis.ttl(ticket_key(PREFIX, ticket)) <= window
    # When the EventSource reconnects with the same URL, it reopens the same seat's stream
    assert await api.skald.open_seat_ticket(game_id, ticket, resumable=True) == (0, None)
    # and an open stream renews the window
    await redis.expire(ticket_key(PREFIX, ticket), 5)
    await api.skald.keep_stream_ticket(ticket)
    assert await redis.ttl(ticket_key(PREFIX, ticket)) > 5
    # It never opens another game's stream
    other_game, _ = await api.seated_game()
    with pytest.raises(Unauthorized):
        await api.skald.open_seat_ticket(other_game, ticket, resumable=True)
    # A socket's hello still uses a ticket up: it acts for the seat, once
    assert await api.skald.redeem_stream_ticket(game_id, ticket) == 0
    with pytest.raises(Unauthorized):
        await api.skald.open_seat_ticket(game_id, ticket, resumable=True)
