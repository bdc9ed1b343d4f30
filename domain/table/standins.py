"""Who plays a seat the service plays: the bot's move, and the command ids that name it.

Bots (each game's greedy bot) choose only among `legal_commands`, seeded by the game's seed and
the version, so a replay draws the same moves; their events carry the command id
`bot:<seat>:<version>:<bot>` (a colon: no client id holds one), which is how audit tells a
bot's move from a player's and the fairness check which bot to re-derive it with (`BotMove`).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any, Literal

from contracts.base import Command
from contracts.stream import BOT_ID_PREFIX
from domain.bots import RandomBot
from domain.engine import Game

BotKind = Literal["random", "greedy", "pass"]
PASS_SUFFIX: BotKind = "pass"  # ends the command id of a passing move played for a skipped seat
# The bot that stands in for seats now. Ids without a marker were written before the marker
# existed, when stand-ins picked uniformly: they mean "random", so such games still verify.
STANDIN_BOT: BotKind = "greedy"
UNMARKED_BOT: BotKind = "random"
BOT_KINDS: tuple[BotKind, ...] = ("random", "greedy", "pass")


@dataclass(frozen=True)
class BotMove:
    """What a bot move's command id says: the seat, the version it was chosen at, and which
    bot chose it ("pass": the game's passing command, played for a skipped seat)."""

    seat: int
    version: int
    kind: BotKind


def bot_command_id(seat: int, version: int, kind: BotKind | None = None) -> str:
    """The command id of a bot's move (by default the stand-in bot's, `STANDIN_BOT`)."""
    kind = STANDIN_BOT if kind is None else kind
    marker = "" if kind == UNMARKED_BOT else f":{kind}"
    return f"{BOT_ID_PREFIX}{seat}:{version}{marker}"


def pass_command_id(seat: int, version: int) -> str:
    """The command id of a passing move the service plays for a skipped seat (a bot's id, so
    audit marks it; the fairness check re-derives it from the game's `pass_command`)."""
    return bot_command_id(seat, version, PASS_SUFFIX)


def parse_bot_id(command_id: str) -> BotMove | None:
    """The bot move a command id names, or None when it is no bot's id (or a malformed one)."""
    if not command_id.startswith(BOT_ID_PREFIX):
        return None
    parts = command_id[len(BOT_ID_PREFIX) :].split(":")
    if len(parts) not in (2, 3) or not all(part.isdigit() for part in parts[:2]):
        return None
    kind = parts[2] if len(parts) == 3 else UNMARKED_BOT
    if kind not in BOT_KINDS:
        return None
    return BotMove(int(parts[0]), int(parts[1]), kind)


def bot_command(
    game: Game, state: Any, seat: int, seed: bytes, version: int, kind: BotKind | None = None
) -> Command | None:
    """The bot's move for `seat` at `version`, seeded by the game's seed and the version, so
    a replay (and the fairness check) draws the same one: the game's greedy bot, or (`random`,
    what stand-ins played before the greedy bots) a uniform pick among the legal commands."""
    kind = STANDIN_BOT if kind is None else kind
    draw = hashlib.sha256(seed + b"bot" + version.to_bytes(8, "big")).digest()
    if kind == "random":
        return RandomBot(draw).choose(game, state, seat)
    if kind == "pass":
        return game.pass_command(state, seat)
    return game.greedy_bot(draw).choose(game, state, seat)
