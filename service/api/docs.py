"""OpenAPI helpers: the problem responses each operation may answer, and the security scheme."""

from __future__ import annotations

from http import HTTPStatus

from litestar.openapi import ResponseSpec
from litestar.openapi.spec import SecurityRequirement

from contracts.api import Problem

from .negotiation import PROBLEM_JSON

SEAT_TOKEN_SCHEME = "seatToken"
PLAYER_TOKEN_SCHEME = "playerToken"
ADMIN_TOKEN_SCHEME = "adminToken"
# Operations that act for a seat: its seat token, or the token of the player holding it.
SEAT_TOKEN: list[SecurityRequirement] = [{SEAT_TOKEN_SCHEME: []}, {PLAYER_TOKEN_SCHEME: []}]
# Those where it is optional (spectators read too).
OPTIONAL_SEAT_TOKEN: list[SecurityRequirement] = [{}, *SEAT_TOKEN]


def problems(*statuses: int) -> dict[int, ResponseSpec]:
    """OpenAPI response entries for the given error statuses (and 406, which any operation
    answers when the Accept header allows none of its media types), all problem+json."""
    return {
        status: ResponseSpec(
            data_container=Problem,
            media_type=PROBLEM_JSON,
            description=f"{HTTPStatus(status).phrase} (RFC 9457 problem; switch on `code`)",
            generate_examples=False,
        )
        for status in sorted({*statuses, 406})
    }
