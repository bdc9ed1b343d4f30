"""Phase 3 trading: with the stock at 4:1 or at a harbour 2:1, and offers between players
(decisions 11 and 12)."""

from __future__ import annotations

from contracts.games.landnam import (
    AcceptTrade,
    DeclineTrade,
    OfferClosed,
    OfferTrade,
    Resource,
    StockTraded,
    TradeAnswered,
    TradeOffered,
    TradeWithStock,
    WithdrawOffer,
)
from domain.errors import IllegalCommand
from domain.games.landnam.cases import house_owners
from domain.games.landnam.components import (
    HARBOUR_RATE,
    MAX_OFFER_CARDS,
    OFFERS_PER_TURN,
    STOCK_RATE,
)
from domain.games.landnam.evolve import offer_targets
from domain.games.landnam.requirements import require_phase
from domain.games.landnam.state import LandnamState, Offer
from domain.games.landnam.work import Work


def harbour_usable(state: LandnamState, seat: int, resource: Resource) -> bool:
    """A harbour of `resource` where the seat has a ship, or a house at a corner while no ship
    of any player is in it. Harbours built this turn are still pending."""
    for h, marker in state.harbours.items():
        if marker != resource:
            continue
        occupant = state.unit_at(h)
        if occupant is not None:
            if occupant.owner == seat and occupant.kind == "ship" and not occupant.landed:
                return True
        elif seat in house_owners(state, h):
            return True
    return False


def stock_rate(state: LandnamState, seat: int, resource: Resource) -> int:
    """How many cards of `resource` buy one other card from the stock."""
    return HARBOUR_RATE if harbour_usable(state, seat, resource) else STOCK_RATE


def _require_trading(state: LandnamState, seat: int) -> None:
    require_phase(state, "trade")
    if seat != state.turn.seat:
        raise IllegalCommand("landnam.trade.not_active", "Only the active player may do that.")


def check_stock_trade(state: LandnamState, seat: int, command: TradeWithStock) -> None:
    """Enough identical cards, and the stock has the card asked for."""
    _require_trading(state, seat)
    if command.give == command.get:
        raise IllegalCommand("landnam.trade.same", "Trade for a different resource.")
    rate = stock_rate(state, seat, command.give)
    if state.players[seat].hand[command.give] < rate:
        raise IllegalCommand("landnam.trade.short", f"You need {rate} {command.give}.")
    if state.stock[command.get] < 1:
        raise IllegalCommand("landnam.trade.stock_empty", f"The stock has no {command.get}.")


def do_stock_trade(work: Work, seat: int, command: TradeWithStock) -> None:
    """Trade with the stock."""
    rate = stock_rate(work.state, seat, command.give)
    work.emit(StockTraded(seat=seat, give=command.give, count=rate, get=command.get))


def check_offer(state: LandnamState, seat: int, command: OfferTrade) -> None:
    """An offer: one resource for another, 1 to the offer limit of each, cards held."""
    _require_trading(state, seat)
    if state.turn.offers_made >= OFFERS_PER_TURN:
        raise IllegalCommand("landnam.offer.limit", f"At most {OFFERS_PER_TURN} offers a turn.")
    if command.to is not None and (command.to == seat or not 0 <= command.to < len(state.players)):
        raise IllegalCommand("landnam.offer.target", "Offer to another player, or to all.")
    if command.give == command.get:
        raise IllegalCommand("landnam.trade.same", "Trade for a different resource.")
    for count in (command.give_count, command.get_count):
        if not 1 <= count <= MAX_OFFER_CARDS:
            raise IllegalCommand(
                "landnam.offer.count", f"Each side gives 1 to {MAX_OFFER_CARDS} cards."
            )
    if state.players[seat].hand[command.give] < command.give_count:
        raise IllegalCommand("landnam.trade.short", f"You do not hold that much {command.give}.")


def do_offer(work: Work, seat: int, command: OfferTrade) -> None:
    """Open the offer (closing any open one)."""
    work.emit(
        TradeOffered(
            seat=seat,
            to=command.to,
            give=command.give,
            give_count=command.give_count,
            get=command.get,
            get_count=command.get_count,
        )
    )


def _open_offer(state: LandnamState, seat: int) -> Offer:
    offer = state.turn.offer
    if state.turn.phase != "trade" or offer is None or seat not in offer_targets(state, offer):
        raise IllegalCommand("landnam.offer.none", "No offer awaits your answer.")
    return offer


def check_accept(state: LandnamState, seat: int, command: AcceptTrade) -> None:
    """Both sides must still hold their cards."""
    offer = _open_offer(state, seat)
    if state.players[seat].hand[offer.get] < offer.get_count:
        raise IllegalCommand("landnam.trade.short", f"You do not hold that much {offer.get}.")
    if state.players[offer.seat].hand[offer.give] < offer.give_count:
        raise IllegalCommand("landnam.offer.gone", "The offering player no longer has the cards.")


def do_accept(work: Work, seat: int, command: AcceptTrade) -> None:
    """The trade is carried out."""
    work.emit(TradeAnswered(seat=seat, accepted=True))


def check_decline(state: LandnamState, seat: int, command: DeclineTrade) -> None:
    """Any target may decline."""
    _open_offer(state, seat)


def do_decline(work: Work, seat: int, command: DeclineTrade) -> None:
    """Decline."""
    work.emit(TradeAnswered(seat=seat, accepted=False))


def check_withdraw(state: LandnamState, seat: int, command: WithdrawOffer) -> None:
    """Only an open offer can be withdrawn."""
    _require_trading(state, seat)
    if state.turn.offer is None:
        raise IllegalCommand("landnam.offer.none", "No offer is open.")


def do_withdraw(work: Work, seat: int, command: WithdrawOffer) -> None:
    """Close the offer."""
    work.emit(OfferClosed())
