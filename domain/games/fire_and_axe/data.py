"""The game's data (map, weather, treasures, Sagas, Runes) and the rule book's fixed numbers.

The board, the treasures and both decks are designed and provisional (see this package's
README): they live in data.json alone, so the real ones replace that file and nothing else.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, cast

from contracts.games.fire_and_axe import Homeland, RuneKind, TownSize

# Rule book numbers (not board data).
DAYS = 7
HAND_LIMIT = 3
CREW_PER_PLAYER = 15
GOODS_PER_TYPE = 11
CARGO_SLOTS = {1: 5, 2: 6, 3: 7}
SAGA_SPACES = 3
SAGAS_KEPT_PER_ERA = 6
DEMAND_BONUS = 2
MAX_RAID_ROLLS = 3
MAX_SETTLE_DICE = 3
DIE_FACES = 6
AXE_POINTS_PER_TOWN = 3
SAGA_SET_POINTS = (10, 5)  # per Saga held: the most, the second-most of a Homeland
FAIR_WIND_DAYS = 2
RECRUITS = 2

SagaKind = Literal["trade", "raid", "settle"]
Window = Literal["any_time", "in_port_with_rival_settlement", "before_attack", "after_raid"]


@dataclass(frozen=True)
class Port:
    """A port: value 2 to 5, weather zone, region (None: independent or large), starred town."""

    name: str
    value: int
    zone: str
    region: str | None
    large: bool
    town: TownSize | None


@dataclass(frozen=True)
class Saga:
    """A Saga card: goal ports of one kind, its Era and Homeland, its bonus VP."""

    id: int
    title: str
    era: int
    homeland: Homeland
    kind: SagaKind
    ports: tuple[str, ...]
    points: int


@dataclass(frozen=True)
class RuneCard:
    """A kind of Rune card: how many are in the deck, whether it is a conflict card, and
    when it may be played."""

    kind: RuneKind
    title: str
    count: int
    conflict: bool
    window: Window


@dataclass(frozen=True)
class GameData:
    """Everything data.json holds, indexed for the rules."""

    provisional: bool
    zone: dict[str, str]  # every node (water, port, Homeland) -> N, E, S or W
    neighbours: dict[str, tuple[str, ...]]
    water: dict[str, bool]  # water space -> is a river
    homelands: tuple[Homeland, ...]
    ports: dict[str, Port]
    regions: dict[str, tuple[str, ...]]
    clockwise: tuple[str, ...]
    start_blue: str
    clear_days: dict[str, dict[str, int]]  # zone -> good / normal / bad
    skulls: tuple[int, ...]  # the excess at which each skull of the Losses chart is covered
    treasures: dict[TownSize, tuple[int, ...]]
    sagas: dict[int, Saga]
    runes: dict[RuneKind, RuneCard]


def load(raw: dict[str, Any]) -> GameData:
    """Index the data file's content."""
    zone: dict[str, str] = {}
    links: dict[str, set[str]] = {}

    def link(a: str, b: str) -> None:
        links.setdefault(a, set()).add(b)
        links.setdefault(b, set()).add(a)

    for name, water in raw["water"].items():
        zone[name] = water["zone"]
        links.setdefault(name, set())
    for a, b in raw["seas"]:
        link(a, b)
    for name, homeland in raw["homelands"].items():
        zone[name] = homeland["zone"]
        for water in homeland["water"]:
            link(name, water)
    ports: dict[str, Port] = {}
    regions: dict[str, list[str]] = {}
    for name, port in raw["ports"].items():
        zone[name] = port["zone"]
        ports[name] = Port(
            name, port["value"], port["zone"], port["region"], port["large"], port["town"]
        )
        for water in port["water"]:
            link(name, water)
        if port["region"] is not None:
            regions.setdefault(port["region"], []).append(name)
    weather = raw["weather"]
    return GameData(
        provisional=bool(raw["provisional"]),
        zone=zone,
        neighbours={node: tuple(sorted(near)) for node, near in sorted(links.items())},
        water={name: bool(water["river"]) for name, water in raw["water"].items()},
        homelands=tuple(cast(Homeland, name) for name in raw["homelands"]),
        ports=ports,
        regions={name: tuple(sorted(members)) for name, members in sorted(regions.items())},
        clockwise=tuple(weather["clockwise"]),
        start_blue=weather["start_blue"],
        clear_days=weather["clear_days"],
        skulls=tuple(raw["skulls"]),
        treasures={size: tuple(values) for size, values in raw["treasures"].items()},
        sagas={
            saga["id"]: Saga(
                saga["id"],
                saga["title"],
                saga["era"],
                saga["homeland"],
                saga["kind"],
                tuple(saga["ports"]),
                saga["points"],
            )
            for saga in raw["sagas"]
        },
        runes={
            rune["kind"]: RuneCard(
                rune["kind"], rune["title"], rune["count"], rune["conflict"], rune["window"]
            )
            for rune in raw["runes"]
        },
    )


DATA = load(json.loads(Path(__file__).with_name("data.json").read_text(encoding="utf-8")))
PORT_NAMES: tuple[str, ...] = tuple(sorted(DATA.ports))
NODES: tuple[str, ...] = tuple(DATA.neighbours)


def region_mates(port: str) -> tuple[str, ...]:
    """The other ports of the port's region (none for independent and large ports)."""
    region = DATA.ports[port].region
    if region is None:
        return ()
    return tuple(other for other in DATA.regions[region] if other != port)


def clear_days(blue: str, zone: str) -> int:
    """The Clear Weather Days the Wind Dial shows for `zone` with its blue hole over `blue`."""
    order = DATA.clockwise
    offset = (order.index(zone) - order.index(blue)) % len(order)
    quality = "good" if offset == 0 else "bad" if offset == len(order) // 2 else "normal"
    return DATA.clear_days[zone][quality]


def turned(blue: str, quarter_turns: int) -> str:
    """The zone under the blue hole after turning the cover (+1: a clockwise quarter turn)."""
    order = DATA.clockwise
    return order[(order.index(blue) + quarter_turns) % len(order)]


def rune_deck_cards(conflict_runes: bool) -> list[RuneKind]:
    """Every Rune card of the deck, sorted by kind (the conflict cards only if kept)."""
    return sorted(
        kind
        for kind, card in DATA.runes.items()
        if conflict_runes or not card.conflict
        for _ in range(card.count)
    )
