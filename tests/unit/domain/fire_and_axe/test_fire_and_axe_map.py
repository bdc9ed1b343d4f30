"""The designed map, treasures, Sagas and Runes meet every constraint the rule book's text and
worked examples give (distances are fewest Sails)."""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Callable
from itertools import combinations

import pytest

from domain.games.fire_and_axe.data import DATA, clear_days, rune_deck_cards, turned
from domain.games.fire_and_axe.runes import EFFECTS

Allowed = Callable[[str], bool]


def distances(start: str, allowed: Allowed = lambda node: True) -> dict[str, int]:
    """Fewest Sails from `start` to every node reachable through allowed nodes."""
    seen = {start: 0}
    queue = deque([start])
    while queue:
        node = queue.popleft()
        for near in DATA.neighbours[node]:
            if near not in seen and allowed(near):
                seen[near] = seen[node] + 1
                queue.append(near)
    return seen


def dist(a: str, b: str, allowed: Allowed = lambda node: True) -> int:
    return distances(a, allowed).get(b, 10**6)


def in_zone(zone: str) -> Allowed:
    return lambda node: DATA.zone[node] == zone


def test_the_data_says_it_is_provisional() -> None:
    assert DATA.provisional


def test_forty_ports_in_eight_regions_of_three_with_thirteen_independent_and_three_large() -> None:
    assert len(DATA.ports) == 40
    assert len(DATA.regions) == 8
    assert all(len(ports) == 3 for ports in DATA.regions.values())
    large = sorted(name for name, port in DATA.ports.items() if port.large)
    assert large == ["Constantinople", "Paris", "Rome"]
    independent = [p for p in DATA.ports.values() if p.region is None and not p.large]
    assert len(independent) == 13
    assert all(DATA.ports[name].region is None and DATA.ports[name].value == 5 for name in large)
    assert all(2 <= port.value <= 4 for port in DATA.ports.values() if not port.large)


@pytest.mark.parametrize(
    ("port", "value", "region", "zone"),
    [
        ("Rome", 5, None, "S"),
        ("Constantinople", 5, None, "S"),
        ("Paris", 5, None, "W"),
        ("Kiev", 4, "Rus", "E"),
        ("Lubech", 3, "Rus", "E"),
        ("Gnezdovo", 3, "Rus", "E"),
        ("Bayeux", 4, "Frankia", "W"),
        ("Rouen", 3, "Frankia", "W"),
        ("Nantes", 3, "Frankia", "W"),
        ("Faeroes", 2, "Northern Isles", "W"),
        ("Shetland", 2, "Northern Isles", "W"),
        ("Orkney", 2, "Northern Isles", "W"),
        ("Reykjanes", 3, "Iceland", "N"),
        ("Horn", 2, "Iceland", "N"),
        ("Hvarf", 2, "Iceland", "N"),
        ("Iona", 3, "Isles", "W"),
        ("Man", 2, "Isles", "W"),
        ("Dublin", 3, "Ireland", "W"),
        ("Cork", 2, "Ireland", "W"),
        ("Lindisfarne", 2, None, "W"),
        ("York", 4, None, "W"),
        ("Caithness", 2, None, "W"),
        ("Seville", 4, "Iberia", "W"),
        ("Balearics", 2, None, "S"),
        ("Arles", 3, None, "S"),
        ("Bjarmaland", 4, None, "N"),
    ],
)
def test_the_named_ports_have_their_value_region_and_zone(
    port: str, value: int, region: str | None, zone: str
) -> None:
    assert (DATA.ports[port].value, DATA.ports[port].region, DATA.zone[port]) == (
        value,
        region,
        zone,
    )


def test_towns_stand_on_one_port_per_region_four_independents_and_the_large_ports() -> None:
    small = sorted(name for name, port in DATA.ports.items() if port.town == "small")
    large = sorted(name for name, port in DATA.ports.items() if port.town == "large")
    assert large == ["Constantinople", "Paris", "Rome"]
    assert len(small) == 12
    for ports in DATA.regions.values():
        assert sum(1 for port in ports if DATA.ports[port].town) == 1
    assert {"Lubech", "Bayeux", "Orkney", "Reykjanes", "Iona", "Dublin", "Lindisfarne"} <= set(
        small
    )
    assert sorted(DATA.treasures["small"]) == [2, 3, 3, 4, 4, 4, 5, 5, 5, 6, 6, 7]
    assert 5 in DATA.treasures["small"]  # Bayeux's treasure was a 5
    assert sorted(DATA.treasures["large"]) == [8, 10, 12]


def test_ports_and_homelands_touch_only_water_and_share_its_zone() -> None:
    for node in [*DATA.ports, *DATA.homelands]:
        waters = DATA.neighbours[node]
        assert all(near in DATA.water for near in waters), node
        if node in DATA.ports:
            assert 1 <= len(waters) <= 2, node
        zones = {DATA.zone[water] for water in waters}
        if node in ("Faeroes", "Shetland"):
            assert zones == {"N", "W"} and DATA.zone[node] == "W"
        else:
            assert zones == {DATA.zone[node]}, node


def test_river_cities_touch_river_spaces_only() -> None:
    for city in ("Paris", "York", "Kiev", "Lubech", "Gnezdovo", "Novgorod"):
        assert all(DATA.water[water] for water in DATA.neighbours[city]), city


def test_homelands_zones_and_sweden_touches_one_water_space() -> None:
    assert {home: DATA.zone[home] for home in DATA.homelands} == {
        "Norway": "N",
        "Denmark": "W",
        "Sweden": "E",
    }
    assert len(DATA.neighbours["Sweden"]) == 1


def test_the_southern_sailing_example() -> None:
    # Balearics to Arles in 2, Arles to Rome in 3, every node on the way in the South
    south = in_zone("S")
    assert dist("Balearics", "Arles") == 2 == dist("Balearics", "Arles", south)
    assert dist("Arles", "Rome") == 3 == dist("Arles", "Rome", south)
    # A West water space touches Seville and a South water space touching the Balearics
    assert any(
        DATA.zone[west] == "W"
        and any(
            DATA.zone[near] == "S" and "Balearics" in DATA.neighbours[near]
            for near in DATA.neighbours[west]
        )
        for west in DATA.neighbours["Seville"]
    )


def test_the_rus_settling_example() -> None:
    assert dist("Kiev", "Lubech") == 2
    assert dist("Kiev", "Gnezdovo") <= 4


def test_the_northern_weather_example() -> None:
    assert dist("Norway", "Bjarmaland") == 5 == dist("Norway", "Bjarmaland", in_zone("N"))


def test_the_western_weather_example() -> None:
    assert dist("Denmark", "Caithness") == 4 == dist("Denmark", "Caithness", in_zone("W"))
    walks = [
        (a, b, c)
        for a in DATA.neighbours["Caithness"]
        for b in DATA.neighbours[a]
        for c in DATA.neighbours[b]
        if DATA.zone[a] == DATA.zone[b] == "W" and DATA.zone[c] == "N" and c in DATA.water
    ]
    assert walks


def test_every_port_is_near_a_homeland_and_every_homeland_near_a_port() -> None:
    from_homes = [distances(home) for home in DATA.homelands]
    for port in DATA.ports:
        assert min(reach.get(port, 99) for reach in from_homes) <= 12, port
    for reach in from_homes:
        assert min(reach.get(port, 99) for port in DATA.ports) <= 3


def test_the_wind_dial_fits_the_weather_examples() -> None:
    assert {zone: clear_days("S", zone) for zone in "NESW"} == {"N": 2, "E": 4, "S": 7, "W": 5}
    blue = turned("S", +1)
    assert blue == "W"
    assert (clear_days(blue, "W"), clear_days(blue, "N"), clear_days(blue, "E")) == (6, 3, 3)
    assert turned("S", -1) == "E"
    assert DATA.skulls == (1, 3, 5)


def test_twenty_seven_sagas_one_per_era_homeland_and_type() -> None:
    keys = Counter((s.era, s.homeland, s.kind) for s in DATA.sagas.values())
    assert len(DATA.sagas) == 27 and len(keys) == 27
    sizes = {1: range(1, 3), 2: range(2, 4), 3: range(3, 4)}
    bonus = {1: range(1, 3), 2: range(2, 4), 3: range(3, 6)}
    for era in (1, 2, 3):
        cards = [s for s in DATA.sagas.values() if s.era == era]
        assert all(len(s.ports) in sizes[era] for s in cards)
        paying = [s for s in cards if s.points]
        assert len(paying) == 5 and all(s.points in bonus[era] for s in paying)


def test_saga_goals_are_reachable_and_spread() -> None:
    on_cards = Counter(port for s in DATA.sagas.values() for port in s.ports)
    on_raids = Counter(port for s in DATA.sagas.values() if s.kind == "raid" for port in s.ports)
    assert all(port in DATA.ports for port in on_cards)  # no Homeland, no water
    assert max(on_cards.values()) <= 3 and max(on_raids.values()) <= 2
    for saga in DATA.sagas.values():
        for a, b in combinations(saga.ports, 2):
            assert dist(a, b) <= 8, saga.title
        if saga.kind == "raid":
            assert all(DATA.ports[port].town for port in saga.ports), saga.title
            if saga.era == 1:
                assert all(DATA.ports[port].town == "small" for port in saga.ports)
    fixed = {(s.era, s.homeland, s.kind, s.ports, bool(s.points)) for s in DATA.sagas.values()}
    assert (2, "Norway", "settle", ("Cork", "Dublin", "Man"), False) in fixed
    assert (1, "Norway", "raid", ("Lindisfarne",), True) in fixed


def test_thirty_three_runes_nine_of_them_conflict_cards_each_with_its_effect() -> None:
    assert len(rune_deck_cards(True)) == 33
    assert len(rune_deck_cards(False)) == 24
    conflict = sum(card.count for card in DATA.runes.values() if card.conflict)
    assert conflict == 9
    assert set(EFFECTS) == set(DATA.runes)
    for kind, card in DATA.runes.items():
        assert EFFECTS[kind].window == card.window, kind
