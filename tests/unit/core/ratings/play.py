"""Race games played to the end by players through the facade (the harness runs the drain)."""

from __future__ import annotations

from contracts.outcome import Outcome
from tests.fakes.race import race_config
from tests.unit.facade.harness import Harness


async def play_out(harness: Harness, game_id: str, tag: str) -> Outcome:
    """Every seat's first legal command until the game is over; its outcome."""
    reads, commands = harness.skald.reads, harness.skald.commands
    for step in range(500):
        turn = await reads.turn(game_id, None)
        if turn.finished:
            assert turn.outcome is not None
            return turn.outcome
        seat = turn.to_act[0]
        legal = (await reads.turn(game_id, seat)).legal_commands
        await commands.submit(game_id, seat, f"{tag}{step}", legal[0], "r")
        await harness.run_jobs()
    raise AssertionError("the game did not end")


async def play_turns(harness: Harness, game_id: str, turns: int, tag: str) -> None:
    """`turns` turns, each by the seat to act with its first legal command."""
    reads, commands = harness.skald.reads, harness.skald.commands
    for step in range(turns):
        seat = (await reads.turn(game_id, None)).to_act[0]
        legal = (await reads.turn(game_id, seat)).legal_commands
        await commands.submit(game_id, seat, f"{tag}{step}", legal[0], "r")
        await harness.run_jobs()


async def players_game(
    harness: Harness, player_ids: list[str], rated: bool = True, target: int = 12
) -> str:
    """A race created by the first player, each player in the seat of its index, started."""
    players = harness.skald.players
    config = race_config(players=len(player_ids), target=target)
    created = await players.create_game(player_ids[0], "race", config, None, rated=rated)
    for seat, player_id in enumerate(player_ids):
        await players.join(player_id, created.game_id, seat)
    await harness.run_jobs()
    return created.game_id


def dense_ranks(outcome: Outcome, seats: list[int]) -> dict[int, int]:
    """The seats' ranks among themselves, ties kept, closed up from 1."""
    ranks = {score.seat: score.rank for score in outcome.scores if score.seat in seats}
    order = {rank: n + 1 for n, rank in enumerate(sorted(set(ranks.values())))}
    return {seat: order[rank] for seat, rank in ranks.items()}
