"""The HTTP API (Litestar on uvicorn) over the application facade `service.facade.skald.Skald`."""

from service.api.asgi import create_app, create_litestar

__all__ = ["create_app", "create_litestar"]
