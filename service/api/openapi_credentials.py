"""Which credential each operation takes, declared in the OpenAPI document.

Three bearer tokens travel in `Authorization: Bearer <token>`: a seat token (returned once by
a guest's join), a player token (`POST /players`; it also opens every seat its player holds)
and the operator's admin token (`SKALD_ADMIN_TOKEN`). A generated client sends its configured
token on exactly the operations that declare one, so every operation that reads one says so:
the seat operations through their route's `security` (`docs.SEAT_TOKEN`), the rest here, by
operation. An operation that takes no credential is named in `ANONYMOUS`; the tests fail for
an operation in neither, so a new route cannot forget to say.
"""

from __future__ import annotations

from typing import Any

from .docs import ADMIN_TOKEN_SCHEME, PLAYER_TOKEN_SCHEME, SEAT_TOKEN, SEAT_TOKEN_SCHEME

PLAYER: list[dict[str, list[str]]] = [{PLAYER_TOKEN_SCHEME: []}]
OPTIONAL_PLAYER: list[dict[str, list[str]]] = [{}, {PLAYER_TOKEN_SCHEME: []}]
ADMIN: list[dict[str, list[str]]] = [{ADMIN_TOKEN_SCHEME: []}]
CREDENTIALS: dict[str, list[dict[str, list[str]]]] = {
    # A guest creates and joins without a token (seat tokens come back); a player with theirs.
    "createGame": OPTIONAL_PLAYER,
    "joinGame": OPTIONAL_PLAYER,
    "leaveGame": PLAYER,
    "rotatePlayerToken": PLAYER,
    "revokePlayerToken": PLAYER,
    "listPlayerGames": PLAYER,
    "startGame": PLAYER,
    "cancelGame": PLAYER,
    "rematch": PLAYER,
    "resignSeat": list(SEAT_TOKEN),
    "listNotifications": PLAYER,
    "createNotificationStreamTicket": PLAYER,
    # A browser's EventSource cannot send a header: it opens the stream with a ticket.
    "streamNotifications": OPTIONAL_PLAYER,
    "listWebhookEndpoints": ADMIN,
    "createWebhookEndpoint": ADMIN,
    "deleteWebhookEndpoint": ADMIN,
}
ANONYMOUS = frozenset(
    {
        "listOpenGames",
        "getFairness",
        "createPlayer",
        "getPlayer",
        "getLeaderboard",
        "getPlayerRatings",
        "getPlayerRatingHistory",
        "health",
        "readiness",
        "metrics",
    }
)
# The document's security schemes: one bearer scheme per kind of token.
SCHEMES = {
    SEAT_TOKEN_SCHEME: "A seat token, returned once by POST /games/{game_id}/seats to a guest.",
    PLAYER_TOKEN_SCHEME: "A player token (`skp_...`), from POST /players or a rotation: it "
    "acts for the player and opens every seat the player holds.",
    ADMIN_TOKEN_SCHEME: "The operator's admin token (SKALD_ADMIN_TOKEN).",
}


def declare_credentials(document: dict[str, Any]) -> None:
    """Set each operation's security from `CREDENTIALS` (per-game copies included)."""
    for item in document["paths"].values():
        for operation in item.values():
            declared = CREDENTIALS.get(base_operation_id(operation["operationId"]))
            if declared is not None:
                operation["security"] = [dict(requirement) for requirement in declared]


def base_operation_id(operation_id: str) -> str:
    """The shared operation a game's copy was made from (`fjordsGetTurn` -> `getTurn`)."""
    for known in (*CREDENTIALS, *ANONYMOUS):
        if operation_id == known or operation_id.endswith(known[:1].upper() + known[1:]):
            return known
    return operation_id
