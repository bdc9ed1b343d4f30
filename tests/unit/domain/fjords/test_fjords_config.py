"""Choosing a game: variants, rune stones and the rule book's suggested presets, checked at
creation and recorded in the first event (rule book, from "The Epic 2-player variant" on)."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from contracts.games.fjords import FjordsConfig, GameStarted
from domain.chance import Chance
from domain.engine import fold
from domain.errors import IllegalCommand
from domain.games.fjords import GAME
from domain.games.fjords.variants import PRESETS, preset_config

SEED = b"fjords config test seed"

# Rule book, "Playing Fjords with the rune stones": the suggested order of games 1 to 7.
RULE_BOOK_PROGRESSION = {
    1: (),
    2: ("strength",),
    3: ("strength", "water"),
    4: ("strength", "water", "journey", "horse"),
    5: ("journey", "horse", "friendship"),
    6: ("journey", "horse", "friendship", "wisdom"),
    7: ("journey", "horse", "wisdom", "home"),
}


def started(config: FjordsConfig) -> GameStarted:
    first = GAME.setup(config, Chance(SEED))[0]
    assert isinstance(first, GameStarted)
    return first


def refusal(config: FjordsConfig) -> IllegalCommand:
    with pytest.raises(IllegalCommand) as caught:
        GAME.setup(config, Chance(SEED))
    assert caught.value.code.startswith("fjords.config.") and caught.value.message
    return caught.value


@pytest.mark.parametrize(("number", "runes"), sorted(RULE_BOOK_PROGRESSION.items()))
def test_each_preset_is_the_rule_books_game_and_is_recorded_expanded(
    number: int, runes: tuple[str, ...]
) -> None:
    # Given the preset of suggested game `number`
    first = started(preset_config(number, players=3))
    # Then the first event records that game's rune stones and the preset
    assert first.runes == runes
    assert first.preset == number
    assert PRESETS[number].runes == runes and PRESETS[number].description


def test_a_preset_may_come_as_text_as_command_lines_pass_it() -> None:
    # Given the config the demo builds from `--preset 4` (decoded as the service decodes it)
    config = msgspec.convert({"players": 2, "preset": "4"}, FjordsConfig)
    # Then it is game 4
    first = started(config)
    assert (first.preset, first.runes) == (4, RULE_BOOK_PROGRESSION[4])


def test_runes_are_recorded_once_each_in_the_rule_books_order() -> None:
    first = started(FjordsConfig(players=2, runes=("home", "water", "journey")))
    assert first.runes == ("water", "journey", "home")
    assert fold(GAME, GAME.setup(FjordsConfig(players=2, runes=("home",)), Chance(SEED))).runes == (
        "home",
    )


def test_the_variant_is_recorded_in_the_first_event() -> None:
    assert started(FjordsConfig(players=2, variant="epic")).variant == "epic"
    assert started(FjordsConfig(players=2, variant="classic")).variant == "classic"


@pytest.mark.parametrize(
    ("config", "code"),
    [
        (FjordsConfig(players=2, preset=2, runes=("water",)), "fjords.config.preset_with_runes"),
        (FjordsConfig(players=2, preset=8), "fjords.config.preset_unknown"),
        (FjordsConfig(players=2, preset=0), "fjords.config.preset_unknown"),
        (FjordsConfig(players=2, preset="seven"), "fjords.config.preset_unknown"),
        (
            FjordsConfig(players=2, variant="classic", runes=("home",)),
            "fjords.config.classic_runes",
        ),
        (FjordsConfig(players=2, variant="classic", preset=3), "fjords.config.classic_runes"),
        (FjordsConfig(players=3, variant="classic"), "fjords.config.classic_players"),
        (FjordsConfig(players=4, variant="epic"), "fjords.config.epic_players"),
        (FjordsConfig(players=3, variant="epic", preset=5), "fjords.config.epic_players"),
        (FjordsConfig(players=2, runes=("home", "home")), "fjords.config.rune_repeated"),
    ],
)
def test_invalid_combinations_are_refused_clearly(config: FjordsConfig, code: str) -> None:
    assert refusal(config).code == code


def test_a_preset_with_runes_names_both() -> None:
    error = refusal(FjordsConfig(players=2, preset=2, runes=("water",)))
    assert "strength" in error.message and error.details == {"preset": 2, "runes": ["water"]}


def test_classic_with_preset_1_has_no_runes_and_is_allowed() -> None:
    # Game 1 of the progression uses no rune stones, which Classic allows
    assert started(FjordsConfig(players=2, variant="classic", preset=1)).runes == ()


@pytest.mark.parametrize(
    "config",
    [
        {"players": 2, "variant": "grand"},
        {"players": 2, "runes": ["thor"]},
        {"players": 2, "preset": 2.5},
        {"players": 2, "colour": "red"},
    ],
)
def test_malformed_configs_do_not_decode(config: dict[str, Any]) -> None:
    with pytest.raises(msgspec.ValidationError):
        msgspec.convert(config, FjordsConfig)


def test_example_configs_cover_every_variant_rune_and_preset() -> None:
    configs = list(GAME.example_configs())
    assert {c.variant for c in configs} == {"base", "epic", "classic"}
    singles = {c.runes[0] for c in configs if len(c.runes) == 1}
    assert singles == {"strength", "water", "journey", "horse", "friendship", "wisdom", "home"}
    assert {c.preset for c in configs} >= set(range(1, 8))
    assert any(c.variant == "epic" and len(c.runes) == 7 for c in configs)
    assert any(c.variant == "base" and len(c.runes) == 7 for c in configs)
    for config in configs:
        GAME.setup(config, Chance(SEED))  # every one is valid
