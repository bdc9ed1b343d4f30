"""The facade's player side: players, their seats and games, and the life of the games they
create (open until every seat is held, started, or cancelled by their creator).

Seat tokens stay as guest play: a guest joins a seat and gets that seat's token, as before,
and a game created without a player starts at once. A player's token opens every seat the
player holds (docs/operations.md, "Players and the life of a game").
"""

from __future__ import annotations

import math
import secrets
import time
from typing import Any

from contracts.api import CommandOutcome, GameCreated, SeatJoined
from contracts.players import (
    GameFilter,
    PlayerGame,
    PlayerGames,
    PlayerProfile,
    PlayerToken,
    Rematch,
)
from contracts.stream import Clock, ClockSet
from contracts.system import CancelGame, Resign, StartGame, SystemCommand
from domain.table import CANCEL_ID, START_ID, SYSTEM_SEAT, resign_id
from service.core.codec import codec_for
from service.core.pipeline.lifecycle import queue_system
from service.core.ports.notifications import NotifyMarks
from service.core.ports.players import (
    BOT_SEAT,
    PLAYER_SEAT_PREFIX,
    ActiveIndexMissing,
    ActiveLimitReached,
    OpenRooms,
    Players,
    PlayerSeats,
    player_seat_value,
)
from service.core.ports.seats import SeatsFull
from service.facade.checks import MAX_NAME_LENGTH, MAX_TOKEN_LENGTH, redis_guarded, token_hash
from service.facade.command_side import CommandSide
from service.facade.player_games import game_entry, games_page
from service.facade.read_side import ReadSide
from service.shared.errors import (
    Conflict,
    Forbidden,
    InvalidInput,
    NotFound,
    RateLimited,
    ServiceError,
    Unauthorized,
    Unavailable,
)

PLAYER_TOKEN_PREFIX = "skp_"  # tells a player's token from a seat's at a glance


def _now_ms() -> int:
    return int(time.time() * 1000)


def _now_us() -> int:
    return time.time_ns() // 1000


def is_player_token(token: str) -> bool:
    """Whether a bearer token is a player's (else it is a guest's seat token)."""
    return token.startswith(PLAYER_TOKEN_PREFIX)


class PlayerSide:
    """Players: register, profile, tokens, their games; and the games they create."""

    def __init__(
        self,
        commands: CommandSide,
        reads: ReadSide,
        players: Players,
        seats: PlayerSeats,
        rooms: OpenRooms,
        marks: NotifyMarks | None = None,
    ) -> None:
        self.marks = marks  # a rematch marks its game for the notification projector
        self.commands = commands
        self.reads = reads
        self.players = players
        self.seats = seats
        self.rooms = rooms  # games waiting for their players (the workers expire them)
        self.settings = commands.settings
        commands.on_seats_full = self._start_when_full

    @redis_guarded
    async def register(self, name: str) -> PlayerToken:
        """A new player with a display name, and their token (shown once)."""
        name = _checked_name(name)
        player_id = secrets.token_urlsafe(12).replace("-", "x")
        token = PLAYER_TOKEN_PREFIX + secrets.token_urlsafe(32)  # 256 random bits
        await self.players.create(player_id, name, token_hash(token), _now_ms())
        return PlayerToken(player_id=player_id, token=token)

    @redis_guarded
    async def profile(self, player_id: str) -> PlayerProfile:
        """A player's public profile; NotFound for no such player."""
        stored = await self.players.profile(player_id) if _plausible_id(player_id) else None
        if stored is None:
            raise NotFound("player.not_found", f"no player {player_id!r}")
        return PlayerProfile(player_id=player_id, name=stored["name"])

    @redis_guarded
    async def player_of(self, token: str) -> str:
        """The player a token belongs to; Unauthorized otherwise."""
        if not is_player_token(token) or len(token) > MAX_TOKEN_LENGTH:
            raise Unauthorized("player.token_invalid", "this is not a valid player token")
        player_id = await self.players.by_token(token_hash(token))
        if player_id is None:
            raise Unauthorized("player.token_invalid", "this is not a valid player token")
        return player_id

    @redis_guarded
    async def rotate_token(self, token: str) -> PlayerToken:
        """A new token for the player; the old one stops working at once."""
        player_id = await self.player_of(token)
        fresh = PLAYER_TOKEN_PREFIX + secrets.token_urlsafe(32)
        await self.players.replace_token(player_id, token_hash(token), token_hash(fresh))
        return PlayerToken(player_id=player_id, token=fresh)

    @redis_guarded
    async def revoke_token(self, token: str) -> None:
        """Retire the player's token (a lost phone); the player keeps their seats but needs a
        new token, which only an operator can issue."""
        player_id = await self.player_of(token)
        await self.players.replace_token(player_id, token_hash(token), None)

    async def seat_of(self, player_id: str, game_id: str) -> int | None:
        """The seat the player holds in the game, None for none."""
        stored = await self.commands.seats.token_hashes(game_id)
        mine = player_seat_value(player_id)
        found = [seat for seat, value in stored.items() if value == mine]
        return found[0] if found else None

    @redis_guarded
    async def create_game(
        self,
        player_id: str,
        game: str,
        config: dict[str, Any],
        seed_hex: str | None,
        clock: Clock | None = None,
        rated: bool = True,
    ) -> GameCreated:
        """Create a game the player owns: open until every seat is held or they start it.
        The creation is counted against the hourly limit first, in one step (no two
        creations both see room for one), and given back if the game is refused."""
        limit = self.settings.max_games_created_per_hour
        counted = secrets.token_hex(8)
        if limit:
            wait_ms = await self.players.count_creation(player_id, counted, _now_ms(), limit)
            if wait_ms:
                raise RateLimited(
                    "player.create_limit",
                    f"at most {limit} games created per player per hour: the next may be "
                    f"created in {math.ceil(wait_ms / 1000)} s",
                    retry_after=wait_ms / 1000,
                    details={"limit": limit, "retry_after_s": math.ceil(wait_ms / 1000)},
                )
        try:
            created = await self.commands.create_game(
                game, config, seed_hex, creator=player_id, clock=clock, rated=rated
            )
        except ServiceError as exc:
            if limit and not isinstance(exc, Unavailable):  # refused: nothing was created
                await self.players.forget_creation(player_id, counted)
            raise
        await self.players.set_creator(created.game_id, player_id)
        await self.rooms.opened(created.game_id, _now_ms())
        return created

    @redis_guarded
    async def join(self, player_id: str, game_id: str, seat: int | None) -> SeatJoined:
        """Take a seat for the player (their token opens it: none is issued). A player holds
        one seat per game: asking again answers the seat they hold (a retry is safe)."""
        meta = await self.commands.metas.get(game_id)
        if seat is not None and seat < 0:
            raise InvalidInput("seat.out_of_range", f"seat {seat} does not exist")
        profile = await self.players.profile(player_id)
        name = "" if profile is None else profile["name"]
        taken, count, seats, held = await self._take(player_id, game_id, seat, name)
        if held and seat is not None and seat != taken:
            raise Conflict(
                "seat.already_held",
                f"you already hold seat {taken} in this game (one seat per player)",
                details={"seat": taken},
            )
        if count == seats:  # again on a retry: a start lost half-way is queued then
            await self.commands.lobby.close(game_id, meta.game)
            await self._start_when_full(game_id)
        return SeatJoined(game_id=game_id, seat=taken, token="")

    async def _take(
        self, player_id: str, game_id: str, seat: int | None, name: str
    ) -> tuple[int, int, int, bool]:
        limit = self.settings.max_active_games_per_player
        for _ in range(3):
            try:
                return await self.seats.take(game_id, seat, player_id, name, limit, _now_us())
            except ActiveIndexMissing:
                await self._build_index(player_id)
            except ActiveLimitReached:
                if not await self._prune_index(player_id):
                    break
        raise Conflict(
            "player.active_limit",
            f"at most {limit} games not over at once per player",
            status=429,
            details={"limit": limit},
        )

    async def _build_index(self, player_id: str) -> None:
        """Index the games not over of a player made before the index (once)."""
        going_on = []
        for game_id in await self.players.all_games(player_id):
            if await self.seat_of(player_id, game_id) is not None and not await self._over(game_id):
                going_on.append(game_id)
        await self.seats.build_index(player_id, going_on)

    async def _prune_index(self, player_id: str) -> bool:
        """Drop the games that are over from a player's index (a worker lost between a
        game's end and its unindexing leaves one); whether any was dropped."""
        over = [
            game_id for game_id in await self.seats.active(player_id) if await self._over(game_id)
        ]
        await self.seats.unindex(player_id, over)
        return bool(over)

    async def _over(self, game_id: str) -> bool:
        try:
            return (await self.reads.turn(game_id, None)).finished
        except NotFound:
            return True  # gone (expired from the store): over

    @redis_guarded
    async def leave(self, player_id: str, game_id: str) -> int:
        """Give back the player's seat in a game that has not started; the seat."""
        await self.commands.metas.get(game_id)
        return await self.seats.leave(game_id, player_id)

    @redis_guarded
    async def start(self, player_id: str, game_id: str) -> CommandOutcome:
        """Its creator starts an open game, with bots in every free seat."""
        meta = await self._own(player_id, game_id)
        while True:
            try:
                await self.commands.seats.take(game_id, None, BOT_SEAT, "bot")
            except SeatsFull:
                break
        await self.commands.lobby.close(game_id, meta.game)
        await self._start_when_full(game_id)
        return await self.commands.outcome(game_id, START_ID, seat=SYSTEM_SEAT)

    @redis_guarded
    async def cancel(self, player_id: str, game_id: str) -> CommandOutcome:
        """Its creator cancels a game that has not started (refused once it has)."""
        meta = await self._own(player_id, game_id)
        await self._system(game_id, CANCEL_ID, CancelGame(player_id))
        await self.commands.lobby.close(game_id, meta.game)
        await self.rooms.closed(game_id)
        return await self.commands.outcome(game_id, CANCEL_ID, seat=SYSTEM_SEAT)

    @redis_guarded
    async def resign(self, game_id: str, seat: int) -> CommandOutcome:
        """The seat (authenticated by its token) resigns: a bot plays it from now on."""
        await self.commands.metas.get(game_id)
        await self._system(game_id, resign_id(seat), Resign(seat))
        return await self.commands.outcome(game_id, resign_id(seat), seat=SYSTEM_SEAT)

    @redis_guarded
    async def rematch(self, player_id: str, game_id: str) -> Rematch:
        """The rematch of a finished game the player sat in: created once, by whoever asks
        first, with the same game, config and clock; its players find it among their games."""
        if await self.seat_of(player_id, game_id) is None:
            raise Forbidden("player.no_seat", "you hold no seat in this game")
        turn = await self.reads.turn(game_id, None)
        if turn.phase != "finished":
            raise Conflict("game.not_finished", "only a finished game offers a rematch")
        claimed = await self.players.claim_rematch(game_id)
        if claimed == "":
            raise Conflict("rematch.in_progress", "the rematch is being created: ask again")
        if claimed is not None:
            return Rematch(game_id=claimed, rematch_of=game_id)
        codec = codec_for((await self.commands.metas.get(game_id)).game)
        events = [codec.decode_event(e.data) for e in await self.commands.store.read(game_id)]
        created_event = events[0]
        clock = next((e.clock for e in events if isinstance(e, ClockSet)), None)
        created = await self.commands.create_game(
            created_event.game,
            created_event.config,
            creator=player_id,
            clock=clock,
            rated=created_event.rated,
            listed=False,  # listed once its seats are kept for the former players
        )
        await self.players.set_creator(created.game_id, player_id)
        stored = await self.commands.seats.token_hashes(game_id)
        invited = [
            value[len(PLAYER_SEAT_PREFIX) :].decode()
            for value in stored.values()
            if value.startswith(PLAYER_SEAT_PREFIX)
        ]
        hold_ms = int(self.settings.rematch_hold_s * 1000)
        await self.seats.hold(created.game_id, invited, hold_ms)
        await self.players.set_rematch(game_id, created.game_id)
        now = _now_us()
        for former in invited:
            await self.players.add_game(former, created.game_id, now)
        await self.commands.lobby.open(created.game_id, created.game, _now_ms())
        await self.rooms.opened(created.game_id, _now_ms())
        if self.marks is not None:
            await self.marks.mark([game_id])  # its players are offered the rematch
        return Rematch(game_id=created.game_id, rematch_of=game_id)

    @redis_guarded
    async def games(
        self, player_id: str, which: GameFilter, cursor: str | None, limit: int
    ) -> PlayerGames:
        """A page of the player's games, newest joined first, filtered."""
        return await games_page(self.players, self._entry, player_id, which, cursor, limit)

    async def _entry(self, player_id: str, game_id: str) -> PlayerGame | None:
        seat = await self.seat_of(player_id, game_id)
        meta = await self.commands.metas.get(game_id)
        turn = await self.reads.turn(game_id, seat)
        return game_entry(game_id, meta.game, seat, turn)

    async def _own(self, player_id: str, game_id: str) -> Any:
        meta = await self.commands.metas.get(game_id)
        if await self.players.creator(game_id) != player_id:
            raise Forbidden("game.not_creator", "only the player who created this game may")
        return meta

    async def _start_when_full(self, game_id: str) -> None:
        """Start a game a player created once its every seat is held (bots' seats named)."""
        if await self.players.creator(game_id) is None:
            return  # a guest game: it started when it was created
        stored = await self.commands.seats.token_hashes(game_id)
        bots = sorted(seat for seat, value in stored.items() if value == BOT_SEAT)
        await self._system(game_id, START_ID, StartGame(bots))
        await self.rooms.closed(game_id)

    async def _system(self, game_id: str, command_id: str, command: SystemCommand) -> None:
        """Queue the service's own command on the game's inbox (once per command id)."""
        await queue_system(
            self.commands.store, self.commands.scheduler, game_id, command_id, command
        )


def _checked_name(name: str) -> str:
    name = name.strip()
    if not name or len(name) > MAX_NAME_LENGTH or not name.isprintable():
        raise InvalidInput(
            "player.bad_name", f"a display name is 1 to {MAX_NAME_LENGTH} printable characters"
        )
    return name


def _plausible_id(player_id: str) -> bool:
    return 0 < len(player_id) <= 64 and player_id.replace("_", "").isalnum()
