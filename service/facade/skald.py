"""The application facade the HTTP layer and the CLI call: one async object, `Skald`, with a
command side (`commands`), a read side (`reads`) and the history of stored games (`history`).

Built by `service.bootstrap`, which wires every part. Connections open lazily: building the
facade succeeds while Redis is down, and `ping` tells readiness.
"""

from __future__ import annotations

import asyncio
import hmac

import msgspec

from contracts.players import PlayerProfile
from service.core.ports.connections import QueueConnection, StoreConnection
from service.core.ports.event_store import EventStore
from service.core.ports.notifier import Notifier
from service.core.ports.seats import Seats, StreamTickets
from service.facade.address_limits import AddressLimits
from service.facade.checks import (
    MAX_TOKEN_LENGTH,
    redis_guarded,
    token_hash,
)
from service.facade.command_side import CommandSide
from service.facade.history_side import HistoryService
from service.facade.known_tokens import KnownTokens
from service.facade.metas import GameMetas
from service.facade.notification_side import NotificationSide
from service.facade.player_side import PlayerSide, is_player_token
from service.facade.rating_side import RatingSide
from service.facade.read_side import ReadSide
from service.facade.token_sessions import TokenSession, TokenSessions
from service.facade.webhook_side import WebhookAdmin
from service.shared.errors import (
    Forbidden,
    Unauthorized,
)
from service.shared.settings import Settings


class Skald:
    """The service's operations: `commands`, `reads`, `history`, `players`, and who a token
    is."""

    def __init__(
        self,
        settings: Settings,
        *,
        redis: StoreConnection,
        queue_redis: QueueConnection | None,
        commands: CommandSide,
        reads: ReadSide,
        history: HistoryService,
        metas: GameMetas,
        seats: Seats,
        known_tokens: KnownTokens,
        notifier: Notifier,
        store: EventStore,
        tickets: StreamTickets,
        players: PlayerSide,
        sessions: TokenSessions,
        ratings: RatingSide | None = None,
        notifications: NotificationSide | None = None,
        webhooks: WebhookAdmin | None = None,
        address_limits: AddressLimits | None = None,
    ) -> None:
        """Built by `service.bootstrap`, the one place that wires the object graph."""
        self.settings = settings
        self.redis = redis
        self._queue_redis = queue_redis
        self.commands = commands
        self.reads = reads
        self.players = players
        self.sessions = sessions  # connections that end with the player token that opened them
        self.history = history
        self.metas = metas
        self.seats = seats
        self.known_tokens = known_tokens
        self.notifier = notifier
        self.store = store  # the whole store, for operators' tools and tests
        self.tickets = tickets
        self.ratings = ratings
        # Players' notification feeds (read only: the workers' projector writes them).
        self.notifications = notifications
        self.webhooks = webhooks  # the operator's webhook endpoints and dead letters
        # Per client address: players and token-less games created (None: not limited).
        self.address_limits = address_limits

    async def close(self) -> None:
        """Close every connection this object opened."""
        await self.notifier.close()
        await self.redis.aclose()
        if self._queue_redis is not None:
            self._queue_redis.close()

    @redis_guarded
    async def ping(self) -> None:
        """Check that the event Redis and the queue Redis answer; raises Unavailable otherwise."""
        await self.redis.ping()
        if self._queue_redis is not None:
            await asyncio.to_thread(self._queue_redis.ping)

    @redis_guarded
    async def authenticate(self, game_id: str, token: str) -> int:
        """The seat a token (a seat's, or a player's holding a seat here) belongs to in this
        game; Unauthorized otherwise."""
        seat, _ = await self.open_seat(game_id, token)
        return seat

    @redis_guarded
    async def open_seat(self, game_id: str, token: str) -> tuple[int, TokenSession | None]:
        """`authenticate`, and the session a connection opened with the token is bound to
        (a player's token: it ends when the token is rotated or revoked; None for a seat's)."""
        await self.metas.get(game_id)
        if is_player_token(token):
            player_id = await self.players.player_of(token)
            seat = await self.players.seat_of(player_id, game_id)
            if seat is None:
                raise Forbidden("player.no_seat", "you hold no seat in this game")
            return seat, TokenSession(player_id, token_hash(token))
        if not 0 < len(token) <= MAX_TOKEN_LENGTH:
            raise Unauthorized("token.invalid", "this token is not valid for this game")
        digest = token_hash(token)
        found = await self.known_tokens.seat_of(
            game_id, lambda stored: hmac.compare_digest(stored, digest)
        )
        if found is None:
            await self.seats.check_records(game_id)  # a lost seat record is not a bad token
            raise Unauthorized("token.invalid", "this token is not valid for this game")
        return found, None

    @redis_guarded
    async def stream_ticket(
        self, game_id: str, seat: int, session: TokenSession | None = None
    ) -> str:
        """A single-use ticket opening `seat`'s stream of the game (the seat proved by its
        token, bound to `session` when that was a player's), valid for `stream_ticket_ttl_s`
        seconds."""
        bound = None if session is None else (session.player_id, session.digest)
        return await self.tickets.issue(game_id, seat, self.settings.stream_ticket_ttl_s, bound)

    @redis_guarded
    async def redeem_stream_ticket(self, game_id: str, ticket: str) -> int:
        """The seat a stream ticket was issued for in this game, consuming it."""
        seat, _ = await self.open_seat_ticket(game_id, ticket)
        return seat

    @redis_guarded
    async def open_seat_ticket(
        self, game_id: str, ticket: str, *, resumable: bool = False
    ) -> tuple[int, TokenSession | None]:
        """The seat a stream ticket was issued for in this game and the session it is bound
        to, consuming it (`resumable`, for an event stream: kept to reopen that stream for
        `stream_ticket_resume_s`); refused once the player token it was minted with has
        changed."""
        await self.metas.get(game_id)
        found = None
        keep_s = self.settings.stream_ticket_resume_s if resumable else None
        if 0 < len(ticket) <= MAX_TOKEN_LENGTH:
            found = await self.tickets.redeem(ticket, keep_s)
        if found is None or found[0] != game_id:
            raise Unauthorized(
                "ticket.invalid",
                "this stream ticket is unknown, used or expired, or for another game: "
                "ask for a new one (POST /v1/games/{id}/stream-tickets with the seat token)",
            )
        _, seat, bound = found
        session = None if bound is None else TokenSession(*bound)
        if session is not None and not await self.sessions.stands(session):
            raise Unauthorized(
                "ticket.invalid",
                "the player token this stream ticket was issued with was rotated or revoked: "
                "ask for a new one with the current token",
            )
        return seat, session

    @redis_guarded
    async def keep_stream_ticket(self, ticket: str) -> None:
        """Renew the resume window of a ticket whose stream is still open."""
        await self.tickets.keep(ticket, self.settings.stream_ticket_resume_s)

    @redis_guarded
    async def public_profile(self, player_id: str) -> PlayerProfile:
        """A player's public profile with their ratings; NotFound for no such player."""
        profile = await self.players.profile(player_id)
        if self.ratings is None:
            return profile
        return msgspec.structs.replace(profile, ratings=await self.ratings.ratings(player_id))
