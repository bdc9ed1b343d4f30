"""Ratings on Redis: the ordered log of rated results and the ratings folded from it."""
