"""Redis key names. Every key of one game shares the hash tag `{<game id>}` (one cluster slot).

<prefix>game:{<id>}:meta      hash: fixed facts, version, chain head, inbox cursor, status
<prefix>game:{<id>}:events    stream: entry `<version>-1` = {e: event, h: chain, c: command}
<prefix>game:{<id>}:inbox     stream: every command as received, kept for audit
<prefix>game:{<id>}:commands  hash: command id -> inbox id (queued) or its outcome record
<prefix>game:{<id>}:secret    string: the 32-byte seed, revealed only when the game ends
<prefix>game:{<id>}:seats     hash: seat -> SHA-256 of its token
<prefix>game:{<id>}:views     hash: pre-encoded views (json/msgpack per seat and public)
<prefix>game:{<id>}:lease     string: fencing token of the worker draining the game
<prefix>game:{<id>}:fence     string: the last fencing token handed out (both kept off the
                              append-only file and replicas: open_round.lua)
<prefix>game:{<id>}:rate:<s>  counter: seat s's commands in the current rate window
<prefix>game:{<id>}:updates   pub/sub channel: new versions (with the views, when listened to)
<prefix>game:{<id>}:hold      hash: until (ms), p:<player> fields: a rematch's kept seats
<prefix>game:{<id>}:quarantine  string: why an operator took the game out of service
<prefix>game:{<id>}:quarantined:<family>  meta, views and commands, set aside meanwhile
<prefix>lobby[:<game>]        sorted set: open games by creation time (global index)
<prefix>pending               sorted set: games with commands submitted recently (sweeper)
<prefix>ready                 sorted set: games with commands waiting for a runner, by when (µs)
<prefix>runners               sorted set: drain runner job ids, by when their slot expires

The last three are global indexes like the lobby. On one Redis the submit, commit and
release scripts touch a game's keys and `pending`/`ready`/`runners` together. On a Redis
Cluster they are split in drain shards, `<prefix>{<shard tag>}ready`, ..., each in the slot
of the games created into it, so those scripts are one step there too (drain_shards.py); a
game in no shard's slot uses the three under the hash tag `{drain}` (`drain_prefix`), and
its game scripts touch its game's slot only: the store marks `pending` and `ready` after a
submit in a separate step, and the sweeper puts back a game left between them. On a
cluster the updates channel is a sharded one (SSUBSCRIBE/SPUBLISH), in its game's slot.
"""

from __future__ import annotations

import re

from service.core.ports.records import is_game_id


def player_key(prefix: str, player_id: str) -> str:
    """The player's record; their other keys (`:games`, `:active`, `:created`) follow it."""
    return f"{prefix}player:{player_id}"


class GameKeys:
    """The keys of one game."""

    __slots__ = (
        "base",
        "commands",
        "events",
        "fence",
        "hold",
        "inbox",
        "lease",
        "meta",
        "quarantine",
        "seats",
        "secret",
        "updates",
        "views",
    )

    def __init__(self, prefix: str, game_id: str) -> None:
        self.base = f"{prefix}game:{{{game_id}}}:"
        self.meta = self.base + "meta"
        self.events = self.base + "events"
        self.inbox = self.base + "inbox"
        self.commands = self.base + "commands"
        self.secret = self.base + "secret"
        self.seats = self.base + "seats"
        self.views = self.base + "views"
        self.lease = self.base + "lease"
        self.fence = self.base + "fence"
        self.updates = self.base + "updates"
        self.quarantine = self.base + "quarantine"
        self.hold = self.base + "hold"  # a rematch's seats kept for its former players

    def set_aside(self, key: str) -> str:
        """Where a quarantine keeps one of the game's keys (its family after the base)."""
        return f"{self.base}quarantined:{key[len(self.base) :]}"

    def rate(self, seat: int) -> str:
        """The rate counter of one seat."""
        return f"{self.base}rate:{seat}"

    def all_static(self) -> list[str]:
        """Every key of the game except the per-seat rate counters (for clean-up and tests)."""
        return [
            self.meta,
            self.events,
            self.inbox,
            self.commands,
            self.secret,
            self.seats,
            self.views,
            self.lease,
            self.fence,
        ]

    def quarantined(self) -> list[str]:
        """The keys a quarantine sets aside: without them every read and command of the game
        misses, and each miss then tells a quarantine from a game that never was."""
        return [self.meta, self.views, self.commands]


def game_key_pattern(prefix: str) -> str:
    """A SCAN pattern matching every key of every game under `prefix` (glob-escaped)."""
    return f"{_glob_escape(prefix)}game:{{*}}:*"


def game_id_of_key(prefix: str, key: str) -> str | None:
    """The game id of one of its keys (as `game_key_pattern` finds them), None if malformed."""
    head = f"{prefix}game:{{"
    if not key.startswith(head):
        return None
    game_id = key[len(head) :].split("}", 1)[0]
    return game_id if is_game_id(game_id) else None


_GLOB_SPECIALS = re.compile(r"([*?\[\]\\])")


def _glob_escape(text: str) -> str:
    return _GLOB_SPECIALS.sub(r"\\\1", text)


def lobby_key(prefix: str, game: str | None = None) -> str:
    """The lobby index of every game, or of one game when named."""
    return f"{prefix}lobby" if game is None else f"{prefix}lobby:{game}"


def drain_prefix(prefix: str, cluster: bool) -> str:
    """The prefix of the drain indexes (pending, ready, runners): on a Redis Cluster they
    share the hash tag `{drain}`, so the scripts that touch two of them touch one slot."""
    return f"{prefix}{{drain}}" if cluster else prefix


def pending_key(prefix: str) -> str:
    """The sweeper's index of games with recently submitted commands."""
    return f"{prefix}pending"


def ready_key(prefix: str) -> str:
    """The set of games with commands waiting for a drain runner, oldest first."""
    return f"{prefix}ready"


def runners_key(prefix: str) -> str:
    """The drain runners' slots: job id scored by when the slot expires unless renewed."""
    return f"{prefix}runners"
