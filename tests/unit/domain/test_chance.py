"""Given a seed, draws are deterministic, in range, and unbiased."""

from __future__ import annotations

import hashlib
from collections import Counter

import pytest

from domain.chance import Chance, commitment, draw_below

SEED = bytes(range(32))


def test_same_seed_and_index_give_the_same_draw() -> None:
    assert [draw_below(SEED, k, 97) for k in range(50)] == [
        Chance(SEED).below(k, 97) for k in range(50)
    ]


def test_draw_is_sha256_of_seed_index_attempt_reduced_mod_n() -> None:
    digest = hashlib.sha256(SEED + (5).to_bytes(8, "big") + (0).to_bytes(4, "big")).digest()
    assert draw_below(SEED, 5, 10) == int.from_bytes(digest, "big") % 10


def test_different_seeds_give_different_sequences() -> None:
    other = bytes(32)
    assert [draw_below(SEED, k, 1000) for k in range(20)] != [
        draw_below(other, k, 1000) for k in range(20)
    ]


def test_draws_cover_the_range_evenly() -> None:
    n, draws = 6, 6000
    counts = Counter(draw_below(SEED, k, n) for k in range(draws))
    assert set(counts) == set(range(n))
    # Chi-square with 5 degrees of freedom; 20.5 is the 0.999 quantile.
    expected = draws / n
    chi2 = sum((c - expected) ** 2 / expected for c in counts.values())
    assert chi2 < 20.5


def test_empty_range_is_refused() -> None:
    with pytest.raises(ValueError, match="empty range"):
        draw_below(SEED, 0, 0)


def test_commitment_is_hex_sha256_of_the_seed() -> None:
    assert commitment(SEED) == hashlib.sha256(SEED).hexdigest()
