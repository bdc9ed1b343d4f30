"""Ratings computed directly with the `openskill` package, independently of the service's
fold: the reference the ledger's numbers are checked against."""

from __future__ import annotations

import random

from openskill.models import PlackettLuce

from service.core.ratings.results import RatedResult, RatedSeat


def fold_directly(
    results: list[RatedResult],
) -> tuple[dict[tuple[str, str], tuple[float, float, int]], dict[str, list[tuple[str, float]]]]:
    """(rating key, player) -> (mu, sigma, games) after every result in order, and each
    player's (game id, ordinal after) in order."""
    model = PlackettLuce()
    ratings: dict[tuple[str, str], object] = {}
    games: dict[tuple[str, str], int] = {}
    history: dict[str, list[tuple[str, float]]] = {}
    for result in results:
        key = f"{result.game}/{result.variant}"
        teams = [
            [ratings.get((key, s.player_id)) or model.rating(name=s.player_id)]
            for s in result.seats
        ]
        rated = model.rate(teams, ranks=[s.rank for s in result.seats])  # type: ignore[arg-type]
        for seat, team in zip(result.seats, rated, strict=True):
            ratings[key, seat.player_id] = team[0]
            games[key, seat.player_id] = games.get((key, seat.player_id), 0) + 1
            history.setdefault(seat.player_id, []).append((result.game_id, team[0].ordinal()))
    final = {
        k: (r.mu, r.sigma, games[k])  # type: ignore[attr-defined]
        for k, r in ratings.items()
    }
    return final, history


def random_results(count: int, seed: int, pool: int = 9) -> list[RatedResult]:
    """Results of 2 to 5 seats among `pool` players, with ties, in two games, drawn from a
    fixed seed."""
    draw = random.Random(seed)
    everyone = [f"p{n}" for n in range(pool)]
    results = []
    for n in range(count):
        seats = draw.randint(2, 5)
        players = draw.sample(everyone, seats)
        # Ranks with ties: each seat's rank drawn from 1..seats, then closed up.
        raw = [draw.randint(1, seats) for _ in players]
        dense = {rank: i + 1 for i, rank in enumerate(sorted(set(raw)))}
        ranked = sorted(zip(players, (dense[r] for r in raw), strict=True), key=lambda p: p[1])
        game, variant = draw.choice([("race", "standard"), ("fjords", "epic")])
        results.append(
            RatedResult(
                f"game{n}",
                game,
                variant,
                [RatedSeat(seat, player, rank) for seat, (player, rank) in enumerate(ranked)],
            )
        )
    return results
