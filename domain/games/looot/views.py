"""What players see: the view Struct (all public but the bag's content), events as a seat sees
them, and the scramble the conformance tests use."""

from __future__ import annotations

from contracts.base import Event
from contracts.games.looot import (
    ConstructionSite,
    FjordLongship,
    FjordTile,
    LandSpace,
    LongshipCard,
    LoootView,
    OceanSlot,
    PlayerFjord,
    TrophyView,
    TurnView,
)
from domain.chance import Chance
from domain.games.looot.components import LONGSHIPS, SHIELDS, SITES, TROPHY_POINTS, site_card
from domain.games.looot.fjord import SITE_SPACES, TILE_SPACES
from domain.games.looot.state import LoootState, PlayerState, step


def longship_card(longship: int) -> LongshipCard:
    """The public face of a Longship."""
    ship = LONGSHIPS[longship]
    return LongshipCard(id=ship.id, boosts=ship.boosts, bonus=ship.bonus, needs=ship.needs)


def _player_fjord(seat: int, player: PlayerState) -> PlayerFjord:
    return PlayerFjord(
        seat=seat,
        vikings_left=player.vikings_left,
        shields=tuple(shield for shield in SHIELDS if shield in player.shields),
        tiles=tuple(FjordTile(space=s, tile=t) for s, t in sorted(player.tiles.items())),
        longships=tuple(
            FjordLongship(space=s, longship=longship_card(ship), filled=ship in player.filled)
            for s, ship in sorted(player.longships.items())
        ),
        sites=tuple(
            ConstructionSite(
                site=site,
                card=player.sites[site],
                space=SITE_SPACES[site],
                needs=site_card(site, player.sites[site]).needs,
                points=site_card(site, player.sites[site]).points,
                completed=site in player.completed,
            )
            for site in SITES
        ),
        trophy=player.trophy,
        tiles_lost=player.tiles_lost,
    )


def view(state: LoootState, seat: int | None) -> LoootView:
    """The table as `seat` sees it: everything but the bag's content (the same for all)."""
    board = state.board
    turn = state.turn
    return LoootView(
        viewer=seat,
        players=len(state.players),
        faces=state.faces,
        first_seat=state.first_seat,
        land=tuple(
            LandSpace(
                space=space,
                terrain=terrain,
                vikings=state.vikings.get(space, ()),
                tiles_left=state.stacks.get(space, 0),
            )
            for space, terrain in sorted(board.land.items())
        ),
        ocean=tuple(
            OceanSlot(
                slot=slot,
                space=space,
                longship=None if ship is None else longship_card(ship),
            )
            for slot, (space, ship) in enumerate(zip(board.ocean, state.market, strict=True))
        ),
        bag_size=len(state.bag),
        trophies=tuple(
            TrophyView(axes=need, points=TROPHY_POINTS[need], holder=holder)
            for need, holder in sorted(state.trophies.items())
        ),
        fjord_spaces=TILE_SPACES,
        fjords=tuple(_player_fjord(s, player) for s, player in enumerate(state.players)),
        turn=None
        if turn is None
        else TurnView(
            seat=turn.seat,
            step=step(state),
            vikings_placed=turn.vikings_placed,
            pending=tuple(turn.pending),
            longship_taken=turn.longship_taken,
            trophy_claimed=turn.trophy_claimed,
        ),
    )


def visible_event(event: Event, seat: int | None) -> Event:
    """Every Looot event is a public fact: the market is face up and no event lists the bag."""
    return event


def scramble_hidden(state: LoootState, seat: int | None, chance: Chance) -> LoootState:
    """A copy whose bag (the only hidden thing) holds other Longships, as many of them.

    One Longship of the bag is left out for sure, the rest drawn from all 30, so the content
    always differs (the bag never holds all 30: five are in the ocean).
    """
    scrambled = state.copy()
    if not state.bag:
        return scrambled
    left_out = state.bag[chance.below(0, len(state.bag))]
    pool = [ship for ship in sorted(LONGSHIPS) if ship != left_out]
    scrambled.bag = sorted(
        pool.pop(chance.below(index, len(pool))) for index in range(1, len(state.bag) + 1)
    )
    return scrambled
