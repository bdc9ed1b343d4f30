"""The registry of game modules: the one place that lists the games by name.

The service looks games up here; adding a game means adding its package and one line below.
"""

from __future__ import annotations

from domain.engine import Game

_GAMES: dict[str, Game] = {}


def register(game: Game) -> Game:
    """Make a game available by its name (tests register fakes the same way)."""
    _GAMES[game.name] = game
    return game


def unregister(name: str) -> None:
    """Remove a game from the registry (for tests that registered a fake)."""
    _GAMES.pop(name, None)


def get_game(name: str) -> Game:
    """The game registered under `name`; KeyError names the known games."""
    _load_builtin_games()
    try:
        return _GAMES[name]
    except KeyError:
        raise KeyError(f"unknown game {name!r}; known games: {sorted(_GAMES)}") from None


def game_names() -> list[str]:
    """The names of every registered game."""
    _load_builtin_games()
    return sorted(_GAMES)


def builtin_game_names() -> list[str]:
    """The names of the games this package ships (tests and embedders may register others)."""
    _load_builtin_games()
    return sorted(_BUILTIN_NAMES)


_loaded = False
_BUILTIN_NAMES: set[str] = set()


def _load_builtin_games() -> None:
    global _loaded
    if _loaded:
        return
    _loaded = True
    import importlib

    for module in _BUILTIN_GAMES:
        game = register(importlib.import_module(f"domain.games.{module}").GAME)
        _BUILTIN_NAMES.add(game.name)


# One line per game package: its module exposes GAME, an object meeting domain.engine.Game.
_BUILTIN_GAMES: tuple[str, ...] = ("fire_and_axe", "fjords", "landnam", "looot")
