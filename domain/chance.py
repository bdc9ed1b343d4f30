"""Provably fair randomness: every random choice is derived from the game's secret seed.

Draw k picks uniformly in range(n) from SHA-256(seed || k || attempt), where k and attempt are
8- and 4-byte big-endian integers. Values at or above the largest multiple of n below 2**256
are rejected and the next attempt is tried, so no outcome is favoured. Anyone who knows the
seed (revealed when the game ends) can re-derive every draw; the rules stay pure because the
same seed and index always give the same result.
"""

from __future__ import annotations

import hashlib

_SPACE = 1 << 256


def draw_below(seed: bytes, index: int, n: int) -> int:
    """Draw number `index` of the game: a uniform integer in range(n)."""
    if n <= 0:
        raise ValueError(f"cannot draw from an empty range (n={n})")
    if n == 1:
        return 0
    limit = _SPACE - (_SPACE % n)
    attempt = 0
    while True:
        digest = hashlib.sha256(
            seed + index.to_bytes(8, "big") + attempt.to_bytes(4, "big")
        ).digest()
        value = int.from_bytes(digest, "big")
        if value < limit:
            return value % n
        attempt += 1


def commitment(seed: bytes) -> str:
    """The public commitment to a seed: its SHA-256, in hex."""
    return hashlib.sha256(seed).hexdigest()


class Chance:
    """The draws of one game, bound to its seed. Pure: the draw index is the caller's."""

    __slots__ = ("_seed",)

    def __init__(self, seed: bytes) -> None:
        self._seed = seed

    def below(self, index: int, n: int) -> int:
        """Draw number `index`: uniform in range(n)."""
        return draw_below(self._seed, index, n)
