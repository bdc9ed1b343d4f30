"""The HTTP API (Litestar on uvicorn) over the application facade `service.app.Skald`."""

from service.api.app import create_app, create_litestar

__all__ = ["create_app", "create_litestar"]
