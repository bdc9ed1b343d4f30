"""The security suite runs on the API suite's app: the real ASGI app over fakeredis."""

from tests.unit.api.conftest import api, settings, settings_overrides

__all__ = ["api", "settings", "settings_overrides"]
