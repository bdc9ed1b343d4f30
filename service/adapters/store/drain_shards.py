"""The drain indexes (`pending`, `ready`, `runners`) and which of them serves a game.

On one Redis there is one set of them, under the key prefix, and every game uses it: the
submit, commit and release scripts touch the game's keys and the indexes in one step.

On a Redis Cluster a script touches one hash slot. There are then `shards` sets of drain
indexes, each under a hash tag of its own chosen so that its slot is one of `shards` slots
spread evenly over the 16,384 (`shard_tag`), plus the set under `{drain}` of before. A new
game's id is generated into the slot of one shard (`new_game_id`, round robin): its keys and
its shard's indexes then share the slot, and the one-Redis scripts serve it unchanged (one
script per submit; the commit and the release put the game back in the same step). A game
whose id is in no shard's slot (created before the shards, or under another shard count)
uses the `{drain}` set, in two steps as before (`DrainIndex.atomic` is False): its script,
then `wake.lua`; the sweeper's stranded scan closes that gap.

Runner slots are counted per set (`DrainIndex.max_runners`): a submit claims one in its
game's shard when fewer than `runners_per_shard` are alive, and a runner, whichever shard it
was started for, takes ready games from every set (`RedisDrainRounds`), blocking on its own
shard's ready set only when every set was empty.

A slot is the CRC16 (XMODEM) of the hash tag's content, modulo 16,384. CRC16 is linear: the
CRC of `prefix + a + b` is the CRC of `prefix + a` run over two zero bytes, XOR the CRC of
`b` alone. So an id is made to land in a slot by appending four characters: two random ones,
then two looked up in a table of the 4,096 two-character suffixes by their CRC's low 14 bits
(a quarter of the 16,384 values have one: about four tries of two CRCs each).
"""

from __future__ import annotations

import secrets
import threading
from binascii import crc_hqx
from dataclasses import dataclass
from functools import cache
from itertools import count

from service.adapters.store.keys import drain_prefix, pending_key, ready_key, runners_key

SLOTS = 16384
DEFAULT_DRAIN_SHARDS = 16  # the settings' default (`drain_shards`)
SHARD_SUFFIX = "-shard"  # a runner job id started for a shard ends with it and the shard's number
_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
_PAIRS = [a + b for a in _ALPHABET for b in _ALPHABET]


def slot_of(tag: str) -> int:
    """The cluster slot of a key whose hash tag is `tag` (or of a key `tag` without braces)."""
    return crc_hqx(tag.encode(), 0) & (SLOTS - 1)


@cache
def _pairs_by_low_bits() -> dict[int, list[str]]:
    table: dict[int, list[str]] = {}
    for pair in _PAIRS:
        table.setdefault(crc_hqx(pair.encode(), 0) & (SLOTS - 1), []).append(pair)
    return table


def _suffixes(head: str, slot: int, firsts: list[str] | None = None) -> str:
    """Four characters that put `head + them` in `slot`: the two first ones from `firsts` in
    order (deterministic), or at random."""
    table = _pairs_by_low_bits()
    state = crc_hqx(head.encode(), 0)
    candidates = iter(firsts) if firsts is not None else iter(lambda: secrets.choice(_PAIRS), "")
    for first in candidates:
        after_first = crc_hqx(first.encode(), state)
        zeros = crc_hqx(b"\0\0", after_first)
        matches = table.get((slot ^ zeros) & (SLOTS - 1))
        if matches:
            second = matches[0] if firsts is not None else secrets.choice(matches)
            return first + second
    raise AssertionError(f"no suffix puts {head!r} in slot {slot}")  # never: 4,096 firsts


def id_in_slot(head: str, slot: int) -> str:
    """`head` and four random characters, the whole in `slot`."""
    return head + _suffixes(head, slot)


def shard_slot(shard: int, shards: int) -> int:
    """The slot of shard `shard` of `shards`: the middle of its 1/shards of the slot range
    (a cluster's masters serve contiguous ranges, so the shards spread over them)."""
    return (2 * shard + 1) * SLOTS // (2 * shards)


@cache
def shard_tag(shard: int, shards: int) -> str:
    """The hash tag of a shard's indexes: `drain<shard>-` and four characters that put it in
    the shard's slot (the same in every process)."""
    head = f"drain{shard}-"
    return head + _suffixes(head, shard_slot(shard, shards), _PAIRS)


@dataclass(frozen=True)
class DrainIndex:
    """One set of drain indexes: the keys, and how many runner slots it has."""

    ready: str
    runners: str
    pending: str
    max_runners: int
    atomic: bool  # its games' scripts update it in the same step (same slot, or one Redis)
    shard: int | None = None  # None: the set under the prefix (one Redis) or `{drain}`


class DrainShards:
    """The drain indexes of a deployment, and which one serves each game."""

    def __init__(
        self, prefix: str, cluster: bool, shards: int = DEFAULT_DRAIN_SHARDS, max_runners: int = 4
    ) -> None:
        self.cluster = cluster
        self.count = shards if cluster else 0
        legacy = drain_prefix(prefix, cluster)
        self.legacy = DrainIndex(
            ready_key(legacy),
            runners_key(legacy),
            pending_key(legacy),
            max_runners,
            atomic=not cluster,
        )
        # Runner slots per shard: the whole limit spread over the shards, at least one each.
        self.runners_per_shard = max(1, max_runners // self.count) if self.count else 0
        self.shards: list[DrainIndex] = []
        self._by_slot: dict[int, DrainIndex] = {}
        for n in range(self.count):
            tagged = f"{prefix}{{{shard_tag(n, self.count)}}}"
            index = DrainIndex(
                ready_key(tagged),
                runners_key(tagged),
                pending_key(tagged),
                self.runners_per_shard,
                atomic=True,
                shard=n,
            )
            self.shards.append(index)
            self._by_slot[shard_slot(n, self.count)] = index
        self._next = count(secrets.randbelow(self.count) if self.count else 0)
        self._lock = threading.Lock()

    @property
    def sharded(self) -> bool:
        """Whether there are shards (a cluster with `shards` > 0)."""
        return bool(self.shards)

    @property
    def every(self) -> list[DrainIndex]:
        """Every set of drain indexes: the shards, then the one under the prefix or `{drain}`."""
        return [*self.shards, self.legacy]

    def of(self, game_id: str) -> DrainIndex:
        """The drain indexes that serve `game_id`."""
        if not self._by_slot:
            return self.legacy
        return self._by_slot.get(slot_of(game_id), self.legacy)

    def home_of_job(self, job_id: str) -> DrainIndex | None:
        """The shard a runner job was started for, as its id says (None: it does not)."""
        head, found, number = job_id.rpartition(SHARD_SUFFIX)
        if not found or not head or not number.isdigit() or int(number) >= len(self.shards):
            return None
        return self.shards[int(number)]

    def new_game_id(self, head: str) -> str:
        """`head` made into an id in the next shard's slot (round robin), or `head` itself
        when there are no shards."""
        if not self.shards:
            return head
        with self._lock:
            shard = next(self._next) % self.count
        return id_in_slot(head, shard_slot(shard, self.count))
