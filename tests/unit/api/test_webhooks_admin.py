"""The admin API for webhook endpoints: refused without a configured credential, refused with
a wrong one, and with the right one: register (a secret made), list (no secrets), remove;
bad input named and nothing changed."""

from __future__ import annotations

from typing import Any

import pytest
from standardwebhooks import Webhook

from service import bootstrap
from service.adapters.webhook_hosts import GuardedPoster, PublicOnlyResolver
from service.core.ports.webhooks import DeliveryFailed
from tests.fakes.resolver import PUBLIC_ADDRESS, TableResolver
from tests.unit.api.conftest import Api, bearer

pytestmark = pytest.mark.anyio
HOOK = {"url": "https://push.example/hook", "kinds": ["your_turn", "game_finished"]}
ADMIN = {"admin_token": "s3cret-admin"}
# Names resolved from a table: no test here asks the network.
NAMES = {
    "push.example": [PUBLIC_ADDRESS],
    "x.example": [PUBLIC_ADDRESS],
    "inside.example": ["10.0.0.7"],
    "mixed.example": [PUBLIC_ADDRESS, "fd12:3456::1"],
    "metadata.example": ["169.254.169.254"],
    "mapped.example": ["::ffff:127.0.0.1"],
}


@pytest.fixture(autouse=True)
def names(api: Api) -> TableResolver:
    resolver = TableResolver(NAMES)
    assert api.skald.webhooks is not None
    api.skald.webhooks.guard.resolver = resolver
    return resolver


async def test_without_a_configured_credential_the_admin_api_refuses(api: Api) -> None:
    refused = await api.client.post("/v1/admin/webhooks", json=HOOK, headers=bearer("x"))
    assert refused.status_code == 403 and refused.json()["code"] == "admin.disabled"
    # No credential at all is a 401, as on every route that needs one
    missing = await api.client.get("/v1/admin/webhooks")
    assert missing.status_code == 401 and missing.json()["code"] == "admin.missing"


@pytest.mark.parametrize("settings_overrides", [ADMIN])
async def test_the_operator_registers_lists_and_removes_endpoints(api: Api) -> None:
    wrong = await api.client.get("/v1/admin/webhooks", headers=bearer("nope"))
    assert wrong.status_code == 401 and wrong.json()["code"] == "admin.invalid"
    assert (await api.client.get("/v1/admin/webhooks")).status_code == 401
    admin = bearer("s3cret-admin")
    created = await api.client.post("/v1/admin/webhooks", json=HOOK, headers=admin)
    assert created.status_code == 201, created.text
    endpoint: dict[str, Any] = created.json()
    assert endpoint["secret"].startswith("whsec_")
    Webhook(endpoint["secret"])  # the independent library accepts the secret's form
    listed = (await api.client.get("/v1/admin/webhooks", headers=admin)).json()["endpoints"]
    assert [(e["id"], e["url"], e["kinds"]) for e in listed] == [
        (endpoint["id"], HOOK["url"], sorted(HOOK["kinds"]))
    ]
    assert all("secret" not in e for e in listed)
    for bad, code in (
        ({"url": "ftp://x.example/", "kinds": []}, 400),
        ({"url": "https://x.example/", "kinds": ["everything"]}, 400),
        ({"url": "https://x.example/", "secret": "plain"}, 422),
    ):
        refused = await api.client.post("/v1/admin/webhooks", json=bad, headers=admin)
        assert refused.status_code == code, refused.text
    listed = (await api.client.get("/v1/admin/webhooks", headers=admin)).json()["endpoints"]
    assert len(listed) == 1  # nothing refused was registered
    gone = await api.client.delete(f"/v1/admin/webhooks/{endpoint['id']}", headers=admin)
    assert gone.status_code == 204
    again = await api.client.delete(f"/v1/admin/webhooks/{endpoint['id']}", headers=admin)
    assert again.status_code == 404


PRIVATE_URLS = [
    "http://localhost:8080/hook",
    "http://LOCALHOST./hook",
    "http://api.localhost/hook",
    "http://127.0.0.1/hook",
    "http://127.8.9.10:9000/hook",
    "http://10.1.2.3/hook",
    "http://172.16.0.1/hook",
    "http://192.168.1.1/hook",
    "http://169.254.169.254/latest/meta-data",
    "http://0.0.0.0/hook",
    "http://[::1]/hook",
    "http://[fc00::1]/hook",
    "http://[fd12:3456::1]/hook",
    "http://[fe80::1]/hook",
    "http://[::ffff:10.0.0.1]/hook",
    "https://inside.example/hook",
    "https://mixed.example/hook",
    "https://metadata.example/hook",
    "https://mapped.example/hook",
]


@pytest.mark.parametrize("settings_overrides", [ADMIN])
@pytest.mark.parametrize("url", PRIVATE_URLS)
async def test_an_endpoint_on_a_private_address_is_refused(api: Api, url: str) -> None:
    admin = bearer("s3cret-admin")
    refused = await api.client.post("/v1/admin/webhooks", json={"url": url}, headers=admin)
    assert refused.status_code == 422, refused.text
    assert refused.json()["code"] == "webhook.private_address"
    listed = (await api.client.get("/v1/admin/webhooks", headers=admin)).json()["endpoints"]
    assert listed == []


@pytest.mark.parametrize("settings_overrides", [ADMIN])
async def test_a_name_that_does_not_resolve_is_refused(api: Api) -> None:
    refused = await api.client.post(
        "/v1/admin/webhooks",
        json={"url": "https://nowhere.example/h"},
        headers=bearer(ADMIN["admin_token"]),
    )
    assert refused.status_code == 422, refused.text
    assert refused.json()["code"] == "webhook.host_unresolved"


@pytest.mark.parametrize("settings_overrides", [{**ADMIN, "webhook_allow_private": True}])
async def test_the_setting_allows_private_addresses(api: Api, names: TableResolver) -> None:
    admin = bearer("s3cret-admin")
    for url in ("http://127.0.0.1:9/hook", "https://inside.example/hook"):
        created = await api.client.post("/v1/admin/webhooks", json={"url": url}, headers=admin)
        assert created.status_code == 201, created.text
    assert names.asked == []  # nothing to check: nothing resolved


class RecordingPoster:
    """A Poster that answers 204 and records what it was asked to post."""

    def __init__(self) -> None:
        self.posted: list[str] = []

    async def post(self, url: str, body: bytes, headers: dict[str, str], timeout_s: float) -> int:
        self.posted.append(url)
        return 204


async def test_a_name_that_resolves_elsewhere_by_delivery_time_is_not_called(api: Api) -> None:
    # Registered while public, the name now resolves to the metadata service (DNS rebinding).
    table = dict(NAMES)
    resolver = TableResolver(table)
    inner = RecordingPoster()
    poster = GuardedPoster(inner, bootstrap.host_guard(api.settings, resolver))
    assert await poster.post("https://push.example/hook", b"{}", {}, 1.0) == 204
    table["push.example"] = ["169.254.169.254"]
    with pytest.raises(DeliveryFailed) as refused:
        await poster.post("https://push.example/hook", b"{}", {}, 1.0)
    assert "169.254.169.254" in str(refused.value)
    with pytest.raises(DeliveryFailed):
        await poster.post("http://[::1]:8080/hook", b"{}", {}, 1.0)
    assert inner.posted == ["https://push.example/hook"]


async def test_the_dispatchers_connector_refuses_names_on_private_addresses() -> None:
    # `localhost` is resolved by the machine itself (its hosts file): no network asked.
    resolver = PublicOnlyResolver()
    try:
        with pytest.raises(OSError, match="non-public"):
            await resolver.resolve("localhost", 80)
        allowed = PublicOnlyResolver(allow_private=True)
        assert [r["host"] for r in await allowed.resolve("localhost", 80)]
        await allowed.close()
    finally:
        await resolver.close()
