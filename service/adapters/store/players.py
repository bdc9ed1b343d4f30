"""Players on Redis: display names, token hashes, and the games each player holds a seat in.

<prefix>player:<id>           hash: name, token (SHA-256 of the current token), created (ms)
<prefix>player-token:<sha256> string: the player id a token hash belongs to
<prefix>player:<id>:games     sorted set: game ids by when the player joined (µs)
<prefix>player:<id>:created   sorted set: creations of the last hour, by when (the hourly limit)
<prefix>game:{<id>}:creator   string: the id of the player who created the game
<prefix>player:{<id>}:token   pub/sub channel: "the player's token changed" (rotated, revoked):
                              every connection opened with the old one ends

A seat a player holds is stored in the game's seats hash as `p:<player id>` in place of a
token hash, in the same atomic step as the seat is taken: the player's token (whatever it is
now) opens every seat they hold, and rotating it changes nothing in any game.
"""

from __future__ import annotations

from typing import Any

from redis.asyncio import Redis

from service.adapters.redis_clients import is_cluster
from service.adapters.store.keys import GameKeys, player_key
from service.adapters.store.scripts import Scripts

HOUR_MS = 3_600_000


class Players:
    """Player records, their token index and their games."""

    def __init__(self, redis: Redis, prefix: str, scripts: Scripts | None = None) -> None:
        self.redis = redis
        self.prefix = prefix
        self.scripts = Scripts(redis) if scripts is None else scripts

    def _key(self, player_id: str) -> str:
        return player_key(self.prefix, player_id)

    def _token_key(self, digest: bytes) -> str:
        return f"{self.prefix}player-token:{digest.hex()}"

    def token_channel(self, player_id: str) -> str:
        """The channel announcing that the player's token changed (rotated or revoked)."""
        return f"{self.prefix}player:{{{player_id}}}:token"

    async def create(self, player_id: str, name: str, digest: bytes, now_ms: int) -> None:
        """Store a new player with its token hash."""
        fields = {"name": name, "token": digest.hex(), "created": now_ms}
        # A new player's index of games not over is complete (empty) from the start
        # (player_seats.py); it is written first, so no acknowledged player lacks it.
        await self.redis.sadd(f"{self._key(player_id)}:active", "*")
        if is_cluster(self.redis):
            # The two keys live in different slots: no transaction, so in order (a player
            # whose token is not indexed yet was never acknowledged).
            await self.redis.hset(self._key(player_id), mapping=fields)  # type: ignore[arg-type]
            await self.redis.set(self._token_key(digest), player_id)
            return
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.hset(self._key(player_id), mapping=fields)  # type: ignore[arg-type]
            pipe.set(self._token_key(digest), player_id)
            await pipe.execute()

    async def profile(self, player_id: str) -> dict[str, str] | None:
        """The player's stored fields, None for no such player."""
        stored: Any = await self.redis.hgetall(self._key(player_id))
        if not stored:
            return None
        return {key.decode(): value.decode() for key, value in stored.items()}

    async def by_token(self, digest: bytes) -> str | None:
        """The player a token hash belongs to, None if no current token hashes to it."""
        found: Any = await self.redis.get(self._token_key(digest))
        return None if found is None else found.decode()

    async def replace_token(self, player_id: str, old: bytes, new: bytes | None) -> None:
        """Retire the token hashing to `old`; `new` (if any) opens the player's seats now.
        Then announce it, so every API process ends the connections the old token opened."""
        if is_cluster(self.redis):
            # Different slots, no transaction: the new token first and the old one last, so a
            # step left half-way leaves both tokens working, never none.
            if new is not None:
                await self.redis.set(self._token_key(new), player_id)
            await self.redis.hset(self._key(player_id), "token", "" if new is None else new.hex())
            await self.redis.delete(self._token_key(old))
            await self.redis.spublish(self.token_channel(player_id), 0)
            return
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.delete(self._token_key(old))
            if new is not None:
                pipe.set(self._token_key(new), player_id)
            pipe.hset(self._key(player_id), "token", "" if new is None else new.hex())
            pipe.publish(self.token_channel(player_id), 0)
            await pipe.execute()

    async def add_game(self, player_id: str, game_id: str, now_ms: int) -> None:
        """List a game among the player's games."""
        await self.redis.zadd(f"{self._key(player_id)}:games", {game_id: now_ms}, nx=True)

    async def games(self, player_id: str, before: float, limit: int) -> list[tuple[str, int]]:
        """(game id, joined µs) of the player's games joined before `before`, newest first."""
        rows: Any = await self.redis.zrevrangebyscore(
            f"{self._key(player_id)}:games",
            f"({before}",
            "-inf",
            start=0,
            num=limit,
            withscores=True,
        )
        return [(game_id.decode(), int(score)) for game_id, score in rows]

    async def all_games(self, player_id: str) -> list[str]:
        """Every game the player holds a seat in."""
        ids: Any = await self.redis.zrange(f"{self._key(player_id)}:games", 0, -1)
        return [game_id.decode() for game_id in ids]

    async def count_creation(self, player_id: str, member: str, now_ms: int, limit: int) -> int:
        """Count a creation against the player's hourly limit (in one step): 0 when counted,
        else the ms until one of the hour's creations leaves the window."""
        reply = await self.scripts.create_quota(
            keys=[f"{self._key(player_id)}:created"], args=[member, now_ms, HOUR_MS, limit]
        )
        return 0 if reply[0] == b"ok" else max(1, int(reply[1]))

    async def forget_creation(self, player_id: str, member: str) -> None:
        """Give back a counted creation that did not happen (a refused config)."""
        await self.redis.zrem(f"{self._key(player_id)}:created", member)

    async def claim_rematch(self, game_id: str) -> str | None:
        """Claim the right to create a game's rematch: None when claimed now, else what the
        first claimant left (the rematch's id, or "" while it is being created)."""
        key = GameKeys(self.prefix, game_id).base + "rematch"
        if await self.redis.set(key, "", nx=True):
            return None
        found: Any = await self.redis.get(key)
        return "" if found is None else found.decode()

    async def set_rematch(self, game_id: str, rematch_id: str) -> None:
        """Record a game's rematch."""
        await self.redis.set(GameKeys(self.prefix, game_id).base + "rematch", rematch_id)

    async def set_creator(self, game_id: str, player_id: str) -> None:
        """Record who created a game (the one who may start or cancel it)."""
        await self.redis.set(GameKeys(self.prefix, game_id).base + "creator", player_id)

    async def creator(self, game_id: str) -> str | None:
        """Who created a game; None for a guest's game."""
        found: Any = await self.redis.get(GameKeys(self.prefix, game_id).base + "creator")
        return None if found is None else found.decode()
