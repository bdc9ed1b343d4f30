"""Rating variants, for every game the registry holds: each config is rated in the pool its
game names (by the game's registered name, never a spelling of it), options that change the
game split the pools, and the player count and set-up-only options never do."""

from __future__ import annotations

import msgspec
import pytest

from contracts.base import GameConfig
from contracts.games.fire_and_axe import FireAndAxeConfig
from contracts.games.fjords import FjordsConfig
from contracts.games.landnam import LandnamConfig
from contracts.games.looot import LoootConfig
from domain.games import fire_and_axe, fjords, game_names, get_game, landnam, looot
from service.core.ratings.variants import VARIANT_PATTERN, default_variant, variant_of

# Per game (by its registered name): groups of configs; each group is one pool (its variant
# given), and the groups are distinct pools.
POOLS: dict[str, list[tuple[str, list[GameConfig]]]] = {
    fjords.GAME.name: [
        ("base", [FjordsConfig(players=2), FjordsConfig(players=4, runes=("water",))]),
        ("epic", [FjordsConfig(players=2, variant="epic")]),
        ("classic", [FjordsConfig(players=2, variant="classic")]),
    ],
    looot.GAME.name: [
        ("standard", [LoootConfig(players=2), LoootConfig(players=4, faces=(1, 3, 5, 7))]),
    ],
    landnam.GAME.name: [
        ("standard", [LandnamConfig(players=3), LandnamConfig(players=5, max_rounds=60)]),
        (
            "rounds-20",
            [LandnamConfig(players=3, max_rounds=20), LandnamConfig(players=4, max_rounds=20)],
        ),
        ("rounds-6", [LandnamConfig(players=3, max_rounds=6)]),
    ],
    fire_and_axe.GAME.name: [
        ("standard", [FireAndAxeConfig(players=3), FireAndAxeConfig(players=5, round_limit=60)]),
        ("no-conflict-runes", [FireAndAxeConfig(players=4, conflict_runes=False)]),
        ("rounds-20", [FireAndAxeConfig(players=3, round_limit=20)]),
        ("rounds-12", [FireAndAxeConfig(players=5, round_limit=12)]),
        ("no-round-limit", [FireAndAxeConfig(players=3, round_limit=None)]),
        (
            "no-conflict-runes-rounds-16",
            [FireAndAxeConfig(players=4, conflict_runes=False, round_limit=16)],
        ),
    ],
}


def recorded(config: GameConfig) -> dict[str, object]:
    """The config as a game's GameCreated records it."""
    return dict(msgspec.to_builtins(config))


def test_the_table_covers_every_registered_game() -> None:
    assert sorted(POOLS) == game_names()


@pytest.mark.parametrize("name", sorted(POOLS))
def test_each_games_options_rate_in_their_own_pools(name: str) -> None:
    variants = []
    for variant, configs in POOLS[name]:
        assert {variant_of(name, recorded(config)) for config in configs} == {variant}
        variants.append(variant)
    assert len(set(variants)) == len(variants)


@pytest.mark.parametrize("name", sorted(POOLS))
def test_every_example_config_has_a_valid_variant_whatever_its_player_count(name: str) -> None:
    game = get_game(name)
    for config in game.example_configs():
        variant = variant_of(name, recorded(config))
        assert VARIANT_PATTERN.match(variant), variant
        for players in range(1, 7):
            other = recorded(msgspec.structs.replace(config, players=players))
            assert variant_of(name, other) == variant


@pytest.mark.parametrize("name", sorted(POOLS))
def test_the_default_leaderboard_is_the_default_configs_pool(name: str) -> None:
    first_pool, _ = POOLS[name][0]
    assert default_variant(name) == first_pool
