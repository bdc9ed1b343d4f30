"""The designed data file keeps the constraints the rules rely on."""

from __future__ import annotations

import json
from pathlib import Path

from domain.games.landnam import components as data
from domain.games.landnam.board import CENTRE, EDGE_HEXES, ISLAND, RIM, is_corner


def test_the_data_file_is_marked_provisional() -> None:
    raw = json.loads((Path(data.__file__).parent / "components.json").read_text())
    assert raw["provisional"] is True


def test_the_island_has_60_hexes_around_the_mountain_and_3_start_hexes_per_edge() -> None:
    assert len(ISLAND - {CENTRE}) == 60 and len(EDGE_HEXES) == 24 and len(RIM) == 30
    assert sum(1 for h in EDGE_HEXES if is_corner(h)) == 6


def test_every_hex_can_be_explored_and_numbered() -> None:
    # Enough terrain for the whole island, and more number tokens than numbered terrain, so
    # exploration always ends with a terrain and a number in stock
    assert sum(data.TERRAIN_STOCK.values()) >= len(ISLAND - {CENTRE})
    numbered = sum(data.TERRAIN_STOCK[t] for t in data.NUMBERED)
    assert sum(data.NUMBER_TOKENS.values()) > numbered
    # Equal counts per value: the red die is uniform
    assert len(set(data.NUMBER_TOKENS.values())) == 1
    assert sorted(data.NUMBER_TOKENS) == sorted(data.AGING_ORDER)


def test_the_fate_deck_deals_an_exploration_card_to_five_players_and_keeps_three() -> None:
    exploration = sum(data.FATE_DECK[card] for card in data.EXPLORATION_CARDS)
    assert exploration >= 5 + 3
    kinds = data.EXPLORATION_CARDS | data.MOVEMENT_CARDS | data.HARVEST_CARDS
    assert set(data.FATE_DECK) == kinds | data.ALTHING_CARDS


def test_the_exploration_and_number_tables() -> None:
    faces = [data.exploration_terrain(v) for v in range(1, 15)]
    assert faces[:4] == ["sea"] * 4 and faces[4:6] == ["bog", "field"]
    assert faces[6:9] == ["pasture"] * 3 and faces[9] == "forest"
    assert set(faces[10:]) == {"mountain"}
    assert [data.red_die_number(f) for f in range(1, 11)] == [11, 2, 3, 4, 5, 6, 12, 8, 9, 10]
    stock = dict.fromkeys(data.AGING_ORDER, 1)
    assert data.next_number(6, stock) == 8 and data.next_number(12, stock) == 2
