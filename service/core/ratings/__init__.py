"""Ratings: each finished rated game's result, an ordered log of them, and OpenSkill ratings
folded from that log (docs/ratings.md)."""
