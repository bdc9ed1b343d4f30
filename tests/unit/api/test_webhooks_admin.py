"""The admin API for webhook endpoints: refused without a configured credential, refused with
a wrong one, and with the right one: register (a secret made), list (no secrets), remove;
bad input named and nothing changed."""

from __future__ import annotations

from typing import Any

import pytest
from standardwebhooks import Webhook

from tests.unit.api.conftest import Api, bearer

pytestmark = pytest.mark.anyio
HOOK = {"url": "https://push.example/hook", "kinds": ["your_turn", "game_finished"]}


async def test_without_a_configured_credential_the_admin_api_refuses(api: Api) -> None:
    refused = await api.client.post("/v1/admin/webhooks", json=HOOK, headers=bearer("x"))
    assert refused.status_code == 403 and refused.json()["code"] == "admin.disabled"


@pytest.mark.parametrize("settings_overrides", [{"admin_token": "s3cret-admin"}])
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
