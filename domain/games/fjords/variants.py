"""The game's options: variants, rune stones, the suggested presets, and what each changes at
setup (who plays which colours, which tiles go in the bag, which rune stones players hold).

Rule book, "The Epic 2-player variant": 2 players use all the tiles; each takes 20 vikings and 4
longhouses of one colour and 10 vikings and 2 longhouses of another, both their own (decision 9 in
this package's README); "when using particular rune stones variants only use runes of one colour per
player". "The Classic variant": 2 players only, no rune stones, three games a match (decision 10 in
this package's README). "Playing Fjords with the rune stones": any number of rune stones may be
combined; the rule book suggests a progression of seven games (`PRESETS`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import NamedTuple

from contracts.games.fjords import RUNE_NAMES, FjordsConfig, Variant
from domain.errors import IllegalCommand
from domain.games.fjords.state import COLOURS
from domain.games.fjords.tiles import TileSet

VARIANTS = ("base", "epic", "classic")
TWO_PLAYER_VARIANTS = ("epic", "classic")
# Epic (decision 9 in this package's README): each seat's main colour, then its second colour.
EPIC_COLOURS = (("white", "purple"), ("yellow", "black"))
# Rune stones each player starts with in their supply (rule book: Journey, Horse, Wisdom and
# Home, "Each player starts with 1 ... rune stone"); the others lie beside the table.
PERSONAL_RUNES = ("journey", "horse", "wisdom", "home")
MATCH_GAMES = 3  # Classic: "Play the game three times, combining your scores"


class Preset(NamedTuple):
    """One game of the rule book's suggested progression: a name for a set of rune stones."""

    number: int
    runes: tuple[str, ...]
    description: str


# Rule book, "Playing Fjords with the rune stones": "we suggest adding them to your games in the
# following order". Descriptions are the rule book's own.
PRESETS: dict[int, Preset] = {
    preset.number: preset
    for preset in (
        Preset(1, (), "Do not use any rune stones."),
        Preset(
            2,
            ("strength",),
            "The strength rune brings your vikings a new way to score points in the mountains.",
        ),
        Preset(
            3,
            ("strength", "water"),
            "The water rune makes one coastline worth more points as your vikings prepare to "
            "travel across the sea.",
        ),
        Preset(
            4,
            ("strength", "water", "journey", "horse"),
            "Spend runes to give your vikings new ways to move across the land and find new "
            "places to settle.",
        ),
        Preset(
            5,
            ("journey", "horse", "friendship"),
            "The Friendship Runes mark special sites in the plains. Score points by having the "
            "most vikings surrounding them.",
        ),
        Preset(
            6,
            ("journey", "horse", "friendship", "wisdom"),
            "The Wisdom Rune provides a surprising new way to gain access to important land.",
        ),
        Preset(
            7,
            ("journey", "horse", "wisdom", "home"),
            "Make one of your longhouses your special home to score extra points around it.",
        ),
    )
}


def preset_config(number: int, players: int = 2, variant: Variant = "base") -> FjordsConfig:
    """The config of suggested game `number` (1 to 7): a preset is a config."""
    return FjordsConfig(players=players, variant=variant, preset=number)


@dataclass(frozen=True)
class GameOptions:
    """A checked config: the variant, and the rune stones in play in the rule book's order."""

    players: int
    variant: str
    runes: tuple[str, ...]
    preset: int | None


def resolve_options(config: FjordsConfig) -> GameOptions:
    """The options a config stands for, or IllegalCommand naming the first thing wrong with it."""
    if not 2 <= config.players <= 4:
        raise IllegalCommand(
            "fjords.config.players",
            f"Fjords is for 2 to 4 players, not {config.players}.",
            players=config.players,
        )
    if config.variant not in VARIANTS:
        raise IllegalCommand(
            "fjords.config.variant_unknown",
            f"There is no {config.variant!r} variant; choose one of {', '.join(VARIANTS)}.",
            variant=config.variant,
        )
    preset = _preset_number(config.preset)
    runes = _checked_runes(config.runes)
    if preset is not None:
        if runes:
            raise IllegalCommand(
                "fjords.config.preset_with_runes",
                f"Preset {preset} already chooses the rune stones "
                f"({', '.join(PRESETS[preset].runes) or 'none'}); give a preset or runes, "
                "not both.",
                preset=preset,
                runes=list(runes),
            )
        runes = PRESETS[preset].runes
    if config.variant in TWO_PLAYER_VARIANTS and config.players != 2:
        raise IllegalCommand(
            f"fjords.config.{config.variant}_players",
            f"The {config.variant.capitalize()} variant is for 2 players, not {config.players}.",
            variant=config.variant,
            players=config.players,
        )
    if config.variant == "classic" and runes:
        raise IllegalCommand(
            "fjords.config.classic_runes",
            "The Classic variant is played without rune stones (rule book: \"Don't use any of "
            f'the rune stone expansions"); drop {", ".join(runes)}.',
            runes=list(runes),
        )
    return GameOptions(config.players, config.variant, runes, preset)


def _preset_number(preset: int | str | None) -> int | None:
    if preset is None:
        return None
    number = preset if isinstance(preset, int) and not isinstance(preset, bool) else None
    if isinstance(preset, str) and preset.strip().isdigit():
        number = int(preset.strip())
    if number not in PRESETS:
        raise IllegalCommand(
            "fjords.config.preset_unknown",
            f"There is no preset {preset!r}; the rule book suggests games 1 to {len(PRESETS)}.",
            preset=str(preset),
        )
    return number


def _checked_runes(runes: tuple[str, ...]) -> tuple[str, ...]:
    """The runes in the rule book's order; unknown or repeated names are refused."""
    for rune in runes:
        if rune not in RUNE_NAMES:
            raise IllegalCommand(
                "fjords.config.rune_unknown",
                f"There is no {rune!r} rune stone; choose among {', '.join(RUNE_NAMES)}.",
                rune=rune,
            )
    repeated = sorted({rune for rune in runes if runes.count(rune) > 1})
    if repeated:
        raise IllegalCommand(
            "fjords.config.rune_repeated",
            f"Name each rune stone once; repeated: {', '.join(repeated)}.",
            runes=repeated,
        )
    return tuple(rune for rune in RUNE_NAMES if rune in runes)


def seat_colours(options: GameOptions) -> list[list[str]]:
    """Each seat's colours, main colour first (Epic: two each, decision 9 in this package's
    README)."""
    if options.variant == "epic":
        return [list(pair) for pair in EPIC_COLOURS]
    return [[COLOURS[seat]] for seat in range(options.players)]


def bag_for(tiles: TileSet, variant: str, players: int) -> list[int]:
    """The landscape tiles in the bag at setup, sorted by id: the player count's tiles, or all
    of them in the Epic variant ("Use all the tiles in the game")."""
    return tiles.bag_for(4 if variant == "epic" else players)


def starting_runes(runes: tuple[str, ...], players: int) -> list[list[str]]:
    """The rune stones in each seat's supply at setup: one of each personal rune in play, of
    the seat's main colour only in the Epic variant ("only use runes of one colour")."""
    held = _personal_runes(runes)
    return [list(held) for _ in range(players)]


@cache
def _personal_runes(runes: tuple[str, ...]) -> tuple[str, ...]:
    """The personal runes among `runes`, in RUNE_NAMES order (asked by every replayed setup)."""
    return tuple(rune for rune in RUNE_NAMES if rune in runes and rune in PERSONAL_RUNES)
