"""`/play/` serves the built web client, `/` leads to it, and without a build the page says
how to make one."""

from __future__ import annotations

from pathlib import Path

from litestar import Litestar
from litestar.testing import TestClient

from service.api.asgi import route_handlers
from service.api.web_client import web_client_routes
from service.shared.settings import Settings


def client_for(dist: Path) -> TestClient[Litestar]:
    return TestClient(Litestar(route_handlers=web_client_routes(dist)))


def test_without_a_build_the_client_page_says_how_to_build_it(tmp_path: Path) -> None:
    with client_for(tmp_path) as client:
        page = client.get("/play/", headers={"accept": "text/html"})
        assert page.status_code == 503
        assert "make web" in page.text and "npm run build" in page.text
        assert client.get("/play/#/fjords/abc").status_code == 503
        root = client.get("/", follow_redirects=False)
        assert root.status_code == 302 and root.headers["location"] == "/play/"


def test_a_build_is_served_under_play(tmp_path: Path) -> None:
    (tmp_path / "index.html").write_text("<!doctype html><title>Skald</title>")
    (tmp_path / "assets").mkdir()
    (tmp_path / "assets" / "index-abc.js").write_text("console.log('skald')")
    with client_for(tmp_path) as client:
        page = client.get("/play/", headers={"accept": "text/html,*/*;q=0.8"})
        assert page.status_code == 200 and "<title>Skald</title>" in page.text
        script = client.get("/play/assets/index-abc.js", headers={"accept": "*/*"})
        assert script.status_code == 200 and script.text == "console.log('skald')"
        assert "javascript" in script.headers["content-type"]
        assert client.get("/play/assets/missing.js").status_code == 404
        assert client.get("/", follow_redirects=False).headers["location"] == "/play/"


def test_the_served_app_routes_the_client_beside_the_api() -> None:
    """The API's own app holds the client's routes (the document does not list them)."""
    paths: set[str] = set()
    for handler in route_handlers(Settings()):
        paths |= set(getattr(handler, "paths", ())) | {getattr(handler, "path", "")}
    assert {"/", "/play"} <= paths
