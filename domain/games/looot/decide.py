"""Checking a command against the rules and turning it into events.

This is the only place that validates. Each broken rule has one stable `looot.` code.
Rule sources: the rules summary, and the rule points of this package's README (Rules), which
win where they differ.
"""

from __future__ import annotations

from typing import NoReturn

from contracts.base import Command, Event
from contracts.games.looot import (
    ClaimTrophy,
    EndTurn,
    Hex,
    LongshipDrawn,
    LongshipFilled,
    LongshipTaken,
    LoootPlaceTile,
    LoootPlaceViking,
    LoootTilePlaced,
    LoootVikingPlaced,
    Resource,
    Shield,
    SiteCompleted,
    TakeLongship,
    Tile,
    TilesLost,
    TrophyClaimed,
    TurnEnded,
)
from domain.chance import Chance
from domain.errors import IllegalCommand
from domain.games.looot.components import RESOURCE_ON, TROPHY_POINTS, site_card
from domain.games.looot.fjord import axes, free_spaces, is_free, is_tile_space, newly_completed
from domain.games.looot.setup import draw_from_bag
from domain.games.looot.state import LoootState, PlayerState, Turn, step
from domain.games.looot.vikings import anchor_spaces, capture_events, captured_tiles, may_share
from domain.kernel.seats import next_seat_where


def decide(state: LoootState, command: Command, seat: int, chance: Chance) -> list[Event]:
    """The events `command` from `seat` produces; raises IllegalCommand if the rules refuse."""
    turn = _current_turn(state, seat)
    match command:
        case LoootPlaceViking():
            return _place_viking(state, turn, command)
        case LoootPlaceTile():
            return _place_tile(state, turn, command)
        case TakeLongship():
            _require_end_of_turn(state)
            return _take_longship(state, turn, command, chance)
        case ClaimTrophy():
            _require_end_of_turn(state)
            return _claim_trophy(state, turn, command)
        case EndTurn():
            _require_end_of_turn(state)
            return [TurnEnded(seat=seat, next_seat=next_seat(state, seat))]
    raise IllegalCommand(
        "looot.command.unknown",
        f"Looot has no command {type(command).__name__}.",
        command=type(command).__name__,
    )


def _current_turn(state: LoootState, seat: int) -> Turn:
    """The turn under way; `domain.engine.decide` has already refused a finished game and a
    seat out of turn (the turn rules every game shares)."""
    turn = state.turn
    assert turn is not None and turn.seat == seat, "decide through domain.engine.decide"
    return turn


def _require_end_of_turn(state: LoootState) -> None:
    """Longships, Trophies and ending the turn come after the Viking and its tiles."""
    current = step(state)
    if current == "place_viking":
        raise IllegalCommand(
            "looot.turn.viking_first", "Place a Viking first: it is mandatory every turn."
        )
    if current == "place_tiles":
        _refuse_pending(state)


def _refuse_pending(state: LoootState) -> NoReturn:
    assert state.turn is not None
    raise IllegalCommand(
        "looot.turn.tiles_pending",
        "Put the tiles you gained on your Fjord first.",
        pending=list(state.turn.pending),
    )


# --- Placing a Viking --------------------------------------------------------------------


def may_place_second_viking(state: LoootState, turn: Turn) -> bool:
    """Decision 6 in this package's README: the second-Viking Shield comes after the first Viking's
    tiles are placed and before a Longship or Trophy is taken (those are end-of-turn actions)."""
    player = state.players[turn.seat]
    return (
        step(state) == "end_of_turn"
        and turn.vikings_placed == 1
        and not turn.longship_taken
        and not turn.trophy_claimed
        and "second_viking" in player.shields
        and player.vikings_left > 0
    )


def _place_viking(state: LoootState, turn: Turn, command: LoootPlaceViking) -> list[Event]:
    """Rules summary "Place a Viking" and "Use a Shield": the Viking, its resource tile(s),
    then what it captures; all of it lost at once if the Fjord is already full."""
    player = state.players[turn.seat]
    _check_viking_timing(state, turn, command)
    shields = _shields_spent(command)
    for shield in shields:
        if shield not in player.shields:
            raise IllegalCommand(
                "looot.shield.used",
                f"Your {shield.replace('_', '-')} Shield is already used: once per game.",
                shield=shield,
            )
    _check_landing(state, turn.seat, command)
    resource = RESOURCE_ON[state.board.land[command.space]]
    gained: tuple[Resource, ...] = (resource, resource) if command.double_resource else (resource,)
    events: list[Event] = [
        LoootVikingPlaced(seat=turn.seat, space=command.space, shields=shields, resources=gained)
    ]
    captures = capture_events(state, turn.seat, command.space)
    events += captures
    if not free_spaces(player):
        lost: list[Tile] = [*gained]
        for event in captures:
            lost += captured_tiles(event)
        events.append(TilesLost(seat=turn.seat, tiles=tuple(lost)))
    return events


def _check_viking_timing(state: LoootState, turn: Turn, command: LoootPlaceViking) -> None:
    """Decision 6 in this package's README (see `may_place_second_viking`); a third Viking fails the
    Shield check."""
    current = step(state)
    if current == "place_tiles":
        _refuse_pending(state)
    if current == "place_viking":
        if command.second_viking:
            raise IllegalCommand(
                "looot.shield.second_viking_too_early",
                "The second-Viking Shield is for a second Viking: place your first one first.",
            )
    elif not command.second_viking:
        raise IllegalCommand(
            "looot.viking.one_per_turn",
            "You already placed your Viking this turn; only the second-Viking Shield adds one.",
        )
    elif turn.longship_taken or turn.trophy_claimed:
        raise IllegalCommand(
            "looot.viking.after_end_of_turn",
            "A Longship or Trophy ends your turn's placements: no more Vikings this turn.",
        )
    if state.players[turn.seat].vikings_left == 0:
        raise IllegalCommand("looot.viking.none_left", "You have no Vikings left.")


def _shields_spent(command: LoootPlaceViking) -> tuple[Shield, ...]:
    flags: tuple[tuple[bool, Shield], ...] = (
        (command.second_viking, "second_viking"),
        (command.occupied_space, "occupied_space"),
        (command.double_resource, "double_resource"),
    )
    return tuple(shield for used, shield in flags if used)


def _check_landing(state: LoootState, seat: int, command: LoootPlaceViking) -> None:
    """An unoccupied resource space (README, Rules) next to a Viking or a Longship (summary)."""
    space = command.space
    terrain = state.board.land.get(space)
    if terrain is None:
        raise IllegalCommand(
            "looot.viking.not_land",
            f"{space} is not a land space of the board.",
            space=list(space),
        )
    if state.board.is_building(space):
        raise IllegalCommand(
            "looot.viking.building_space",
            f"Vikings go on resource spaces only; {space} is a {terrain}.",
            space=list(space),
            terrain=terrain,
        )
    occupants = state.vikings.get(space, ())
    if seat in occupants:
        raise IllegalCommand(
            "looot.viking.own_space",
            f"You already have a Viking on {space}.",
            space=list(space),
        )
    if occupants and not command.occupied_space:
        raise IllegalCommand(
            "looot.viking.space_occupied",
            f"{space} is occupied; only the occupied-space Shield lets you join an opponent.",
            space=list(space),
            occupants=list(occupants),
        )
    if command.occupied_space and not may_share(occupants, seat):
        raise IllegalCommand(
            "looot.shield.space_not_occupied",
            f"The occupied-space Shield is for a space an opponent holds; {space} is empty.",
            space=list(space),
        )
    if space not in anchor_spaces(state):
        raise IllegalCommand(
            "looot.viking.not_adjacent",
            f"{space} touches no Viking and no Longship.",
            space=list(space),
        )


# --- Tiles on the Fjord ------------------------------------------------------------------


def _check_fjord_space(player: PlayerState, space: Hex) -> None:
    if not is_tile_space(space):
        raise IllegalCommand(
            "looot.fjord.not_a_space",
            f"{space} is not a tile space of your Fjord.",
            space=list(space),
        )
    if not is_free(player, space):
        raise IllegalCommand(
            "looot.fjord.space_taken",
            f"{space} on your Fjord is taken; tiles never move.",
            space=list(space),
        )


def _completion_events(player: PlayerState, seat: int) -> list[Event]:
    sites, ships = newly_completed(player)
    events: list[Event] = [
        SiteCompleted(seat=seat, site=site, points=site_card(site, player.sites[site]).points)
        for site in sites
    ]
    events += [LongshipFilled(seat=seat, longship=ship) for ship in ships]
    return events


def _place_tile(state: LoootState, turn: Turn, command: LoootPlaceTile) -> list[Event]:
    """Decision 4 in this package's README: one gained tile onto a free Fjord space; what no longer
    fits is lost."""
    if not turn.pending:
        raise IllegalCommand(
            "looot.tile.none_pending", "You have no gained tile waiting for your Fjord."
        )
    if command.tile not in turn.pending:
        raise IllegalCommand(
            "looot.tile.not_pending",
            f"You gained no {command.tile} tile to place.",
            tile=command.tile,
            pending=list(turn.pending),
        )
    player = state.players[turn.seat]
    _check_fjord_space(player, command.space)
    placed = LoootTilePlaced(seat=turn.seat, tile=command.tile, space=command.space)
    after = player.copy()
    after.tiles[command.space] = command.tile
    events: list[Event] = [placed, *_completion_events(after, turn.seat)]
    rest = list(turn.pending)
    rest.remove(command.tile)
    if rest and not free_spaces(after):
        events.append(TilesLost(seat=turn.seat, tiles=tuple(rest)))
    return events


# --- End of the turn ---------------------------------------------------------------------


def _take_longship(
    state: LoootState, turn: Turn, command: TakeLongship, chance: Chance
) -> list[Event]:
    """README, Rules: at most one per turn, at its end, onto a free Fjord space; the ocean slot is
    refilled from the bag (left empty once the bag is empty)."""
    if turn.longship_taken:
        raise IllegalCommand("looot.longship.one_per_turn", "At most one Longship per turn.")
    if not 0 <= command.slot < len(state.market):
        raise IllegalCommand(
            "looot.longship.no_such_slot",
            f"The ocean has slots 0 to {len(state.market) - 1}.",
            slot=command.slot,
        )
    longship = state.market[command.slot]
    if longship is None:
        raise IllegalCommand(
            "looot.longship.empty_slot",
            f"Ocean slot {command.slot} holds no Longship.",
            slot=command.slot,
        )
    player = state.players[turn.seat]
    _check_fjord_space(player, command.space)
    events: list[Event] = [
        LongshipTaken(seat=turn.seat, slot=command.slot, longship=longship, space=command.space)
    ]
    after = player.copy()
    after.longships[command.space] = longship
    events += _completion_events(after, turn.seat)
    if state.bag:
        drawn = draw_from_bag(state.bag, chance, state.draws)
        events.append(LongshipDrawn(slot=command.slot, longship=drawn, draw=state.draws))
    return events


def _claim_trophy(state: LoootState, turn: Turn, command: ClaimTrophy) -> list[Event]:
    """Decision 11 in this package's README: any free Trophy whose Axes the player has, not only the
    highest."""
    player = state.players[turn.seat]
    if player.trophy is not None:
        raise IllegalCommand(
            "looot.trophy.one_per_game",
            "You already hold a Trophy: one per game.",
            trophy=player.trophy,
        )
    if command.axes not in state.trophies:
        raise IllegalCommand(
            "looot.trophy.no_such_trophy",
            f"No Trophy needs {command.axes} Axes; they need {sorted(state.trophies)}.",
            axes=command.axes,
        )
    holder = state.trophies[command.axes]
    if holder is not None:
        raise IllegalCommand(
            "looot.trophy.taken",
            f"Seat {holder} already holds the {command.axes}-Axe Trophy.",
            axes=command.axes,
            holder=holder,
        )
    have = axes(player)
    if have < command.axes:
        raise IllegalCommand(
            "looot.trophy.too_few_axes",
            f"That Trophy needs {command.axes} Axes; your Fjord has {have}.",
            axes=command.axes,
            have=have,
        )
    return [TrophyClaimed(seat=turn.seat, axes=command.axes, points=TROPHY_POINTS[command.axes])]


def next_seat(state: LoootState, seat: int) -> int | None:
    """Decision 12 in this package's README: the next seat in increasing order that has Vikings
    left, or None.

    Players out of Vikings are skipped, so a player who used the second-Viking Shield stops
    a turn early and everyone still places 13 Vikings (rules summary, "Game End").
    """
    players = state.players
    return next_seat_where(seat, len(players), lambda other: players[other].vikings_left > 0)
