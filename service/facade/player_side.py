"""The facade's player side: players, their seats and games, and the life of the games they
create (open until every seat is held, started, or cancelled by their creator).

Seat tokens stay as guest play: a guest joins a seat and gets that seat's token, as before,
and a game created without a player starts at once. A player's token opens every seat the
player holds (docs/architecture.md, "Players and the life of a game").
"""

from __future__ import annotations

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
from service.adapters.notification_feed import NotifyMarks
from service.adapters.store.players import (
    BOT_SEAT,
    PLAYER_SEAT_PREFIX,
    Players,
    player_seat_value,
)
from service.adapters.store.side import SeatsFull
from service.core.codec import codec_for
from service.core.pipeline.lifecycle import (
    CANCEL_ID,
    START_ID,
    SYSTEM_SEAT,
    CancelGame,
    Resign,
    StartGame,
    SystemCommand,
    queue_system,
    resign_id,
)
from service.facade.checks import MAX_NAME_LENGTH, MAX_TOKEN_LENGTH, redis_guarded, token_hash
from service.facade.command_side import CommandSide
from service.facade.read_side import ReadSide
from service.shared.errors import Conflict, Forbidden, InvalidInput, NotFound, Unauthorized

PLAYER_TOKEN_PREFIX = "skp_"  # tells a player's token from a seat's at a glance
MAX_GAMES_PAGE = 100


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
        marks: NotifyMarks | None = None,
    ) -> None:
        self.marks = marks  # a rematch marks its game for the notification projector
        self.commands = commands
        self.reads = reads
        self.players = players
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
        """Create a game the player owns: open until every seat is held or they start it."""
        limit = self.settings.max_games_created_per_hour
        now = _now_ms()
        if limit and await self.players.created_within_hour(player_id, now) >= limit:
            raise Conflict(
                "player.create_limit",
                f"at most {limit} games created per player per hour",
                status=429,
                details={"limit": limit},
            )
        created = await self.commands.create_game(
            game, config, seed_hex, creator=player_id, clock=clock, rated=rated
        )
        await self.players.set_creator(created.game_id, player_id)
        await self.players.note_created(player_id, created.game_id, now)
        return created

    @redis_guarded
    async def join(self, player_id: str, game_id: str, seat: int | None) -> SeatJoined:
        """Take a seat for the player (their token opens it: none is issued)."""
        meta = await self.commands.metas.get(game_id)
        if await self.seat_of(player_id, game_id) is not None:
            raise Conflict("seat.already_held", "you already hold a seat in this game")
        await self._check_active_limit(player_id)
        profile = await self.players.profile(player_id)
        name = "" if profile is None else profile["name"]
        taken, count, seats = await self.commands.seats.take(
            game_id, seat, player_seat_value(player_id), name
        )
        await self.players.add_game(player_id, game_id, _now_us())
        if count == seats:
            await self.commands.lobby.close(game_id, meta.game)
            await self._start_when_full(game_id)
        return SeatJoined(game_id=game_id, seat=taken, token="")

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
        )
        await self.players.set_creator(created.game_id, player_id)
        await self.players.set_rematch(game_id, created.game_id)
        stored = await self.commands.seats.token_hashes(game_id)
        now = _now_us()
        for value in stored.values():
            if value.startswith(PLAYER_SEAT_PREFIX):
                invited = value[len(PLAYER_SEAT_PREFIX) :].decode()
                await self.players.add_game(invited, created.game_id, now)
        if self.marks is not None:
            await self.marks.mark([game_id])  # its players are offered the rematch
        return Rematch(game_id=created.game_id, rematch_of=game_id)

    @redis_guarded
    async def games(
        self, player_id: str, which: GameFilter, cursor: str | None, limit: int
    ) -> PlayerGames:
        """A page of the player's games, newest joined first, filtered."""
        if not 1 <= limit <= MAX_GAMES_PAGE:
            raise InvalidInput("games.bad_limit", f"limit is 1 to {MAX_GAMES_PAGE}", status=400)
        before = _decode_cursor(cursor)
        found: list[PlayerGame] = []
        while len(found) < limit:
            rows = await self.players.games(player_id, before, limit)
            if not rows:
                return PlayerGames(games=found)
            for game_id, joined in rows:
                before = joined
                entry = await self._entry(player_id, game_id)
                if entry is not None and _matches(entry, which):
                    found.append(entry)
                    if len(found) == limit:
                        break
        return PlayerGames(games=found, cursor=str(before))

    async def _entry(self, player_id: str, game_id: str) -> PlayerGame | None:
        seat = await self.seat_of(player_id, game_id)
        meta = await self.commands.metas.get(game_id)
        turn = await self.reads.turn(game_id, seat)
        if seat is None:
            if turn.phase != "open":
                return None
            seat = -1  # invited (a rematch), not seated yet
        phase = "finished" if turn.finished and turn.phase == "started" else turn.phase
        return PlayerGame(
            game_id=game_id,
            game=meta.game,
            seat=seat,
            phase=phase,
            to_act=turn.to_act,
            my_turn=seat in turn.to_act and not turn.finished,
            version=turn.version,
            deadline_ms=turn.deadlines.get(seat),
        )

    async def _check_active_limit(self, player_id: str) -> None:
        limit = self.settings.max_active_games_per_player
        if not limit:
            return
        active = 0
        for game_id in await self.players.all_games(player_id):
            turn = await self.reads.turn(game_id, None)
            active += not turn.finished
        if active >= limit:
            raise Conflict(
                "player.active_limit",
                f"at most {limit} games not over at once per player",
                status=429,
                details={"limit": limit},
            )

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


def _decode_cursor(cursor: str | None) -> float:
    if cursor is None:
        return float("inf")
    try:
        return float(int(cursor))
    except ValueError:
        raise InvalidInput("games.bad_cursor", "a cursor is one a previous page gave") from None


def _matches(entry: PlayerGame, which: GameFilter) -> bool:
    if which == "active":
        return entry.phase in ("open", "started")
    if which == "finished":
        return entry.phase in ("finished", "cancelled")
    if which == "my_turn":
        return entry.my_turn
    return True
