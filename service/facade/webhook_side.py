"""The operator's webhook operations: endpoints (add, list, remove), dead letters (list,
replay). The API asks for the admin credential first (`admin_token`; refused when unset);
the CLI runs on the operator's machine with the settings."""

from __future__ import annotations

import builtins
import hmac
import secrets
import time

from contracts.notifications import NOTIFICATION_KINDS
from contracts.webhooks import DeadLetter, Endpoint, EndpointList, EndpointView
from service.core.notifying.signing import new_secret, secret_bytes
from service.core.ports.webhooks import HostGuard, HostUnresolved, WebhookEndpoints
from service.facade.checks import redis_guarded
from service.shared.errors import Forbidden, InvalidInput, NotFound, Unauthorized
from service.shared.settings import Settings


class WebhookAdmin:
    """Webhook endpoints and dead letters."""

    def __init__(self, settings: Settings, store: WebhookEndpoints, guard: HostGuard) -> None:
        self.settings = settings
        self.store = store
        self.guard = guard  # endpoints on non-public addresses are refused

    def check_admin(self, token: str | None) -> None:
        """Refuse unless `token` is the configured admin credential (no credential at all:
        401, as on every route that needs one, before saying the admin API is off)."""
        if token is None:
            raise Unauthorized("admin.missing", "send the admin credential as a bearer token")
        if not self.settings.admin_token:
            raise Forbidden(
                "admin.disabled", "the admin API is off: no admin credential is configured"
            )
        if not hmac.compare_digest(token.encode(), self.settings.admin_token.encode()):
            raise Unauthorized("admin.invalid", "send the admin credential as a bearer token")

    @redis_guarded
    async def add(self, url: str, kinds: list[str], secret: str | None) -> Endpoint:
        """Register an endpoint; the reply holds its secret (made when not given)."""
        if not url.startswith(("http://", "https://")):
            raise InvalidInput("webhook.bad_url", "an endpoint URL is http:// or https://")
        unknown = sorted(set(kinds) - set(NOTIFICATION_KINDS))
        if unknown:
            raise InvalidInput("webhook.bad_kinds", f"unknown notification kinds: {unknown}")
        if secret is not None:
            try:
                secret_bytes(secret)
            except ValueError as exc:
                raise InvalidInput("webhook.bad_secret", str(exc)) from None
        await self._check_host(url)
        endpoint = Endpoint(
            id="ep_" + secrets.token_hex(8),
            url=url,
            kinds=sorted(set(kinds)),
            secret=secret or new_secret(),
            created_ms=int(time.time() * 1000),
        )
        await self.store.add_endpoint(endpoint)
        return endpoint

    async def _check_host(self, url: str) -> None:
        """Refuse an endpoint whose host is, or resolves to, a non-public address."""
        try:
            refused = await self.guard.refusal(url)
        except HostUnresolved as exc:
            raise InvalidInput(
                "webhook.host_unresolved",
                f"{exc}: an endpoint's host must resolve (to public addresses)",
                status=422,
            ) from None
        if refused is not None:
            raise InvalidInput(
                "webhook.private_address",
                f"{refused}: an endpoint must be on a public address "
                "(SKALD_WEBHOOK_ALLOW_PRIVATE=1 allows private ones)",
                status=422,
            )

    @redis_guarded
    async def list(self) -> EndpointList:
        """Every endpoint, without secrets."""
        return EndpointList(
            [EndpointView(e.id, e.url, e.kinds, e.created_ms) for e in await self.store.endpoints()]
        )

    @redis_guarded
    async def remove(self, endpoint_id: str) -> None:
        """Unregister an endpoint (its pending deliveries are dropped)."""
        if not await self.store.remove_endpoint(endpoint_id):
            raise NotFound("webhook.not_found", f"no endpoint {endpoint_id!r}")

    @redis_guarded
    async def dead_letters(self) -> builtins.list[DeadLetter]:  # (`list` is a method here)
        """Deliveries given up on."""
        return await self.store.dead_letters()

    @redis_guarded
    async def replay(self, dead_id: str | None = None) -> int:
        """Deliver dead letters again (one, or all): how many were queued."""
        ids = [dead_id] if dead_id else [d.id for d in await self.store.dead_letters()]
        now = await self.store.now_ms()
        return sum([await self.store.replay(i, now) for i in ids])
