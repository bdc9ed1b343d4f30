"""The errors of replay, audit and verification, each with a stable code (service.shared.errors)."""

from __future__ import annotations

from service.shared.errors import Conflict, InvalidInput, NotFound, ServiceError


class RulesVersionMismatch(Conflict):
    """The game was created under rules this code does not implement: it is never replayed
    under other rules, which could silently give another game."""

    def __init__(self, game_id: str, game: str, recorded: str, implemented: str) -> None:
        super().__init__(
            "game.rules_version",
            f"game {game_id!r} was created under {game} rules version {recorded!r}; this "
            f"service implements version {implemented!r} and cannot replay it under other rules",
            details={"game_rules": recorded, "service_rules": implemented},
        )
        self.recorded = recorded
        self.implemented = implemented


class CorruptHistory(ServiceError):
    """A stored event cannot be read back or does not belong where it is (500: our fault)."""

    default_status = 500

    def __init__(self, game_id: str, version: int, reason: str) -> None:
        super().__init__(
            "history.corrupt",
            f"game {game_id!r} cannot be replayed: version {version}: {reason}",
            details={"version": version},
        )
        self.version = version


class VersionOutOfRange(InvalidInput):
    """A version the game's stream does not hold (yet)."""

    def __init__(self, version: int, last_version: int) -> None:
        super().__init__(
            "history.bad_version",
            f"version {version} is not in this game's stream: versions run from 1 "
            f"(GameCreated) to {last_version}",
            details={"version": version, "last_version": last_version},
        )


class VersionNotFound(NotFound):
    """An audit asked about a version the stream does not hold (yet)."""

    def __init__(self, version: int, last_version: int) -> None:
        super().__init__(
            "history.version_not_found",
            f"this game has no version {version}: its versions run from 1 to {last_version}",
            details={"version": version, "last_version": last_version},
        )


class CommandNotFound(NotFound):
    """An audit asked about a command id the game never received."""

    def __init__(self, command_id: str) -> None:
        super().__init__("command.not_found", f"no command {command_id!r} in this game")


class AmbiguousCommand(Conflict):
    """An audit named a command by its id alone, and several seats sent that id (command ids
    are per seat)."""

    def __init__(self, command_id: str, seats: list[int]) -> None:
        listed = ", ".join(str(seat) for seat in seats)
        super().__init__(
            "command.ambiguous",
            f"seats {listed} each sent a command {command_id!r}: name the seat",
            details={"seats": seats},
        )
