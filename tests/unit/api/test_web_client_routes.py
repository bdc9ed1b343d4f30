"""`/play/` serves the built web client, `/` leads to it, and without a build the page says
how to make one; the build is copied where the server looks, and the package ships it."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from litestar import Litestar
from litestar.testing import TestClient

from service.api.asgi import route_handlers
from service.api.web_client import WEB_DIST, web_client_routes
from service.shared.settings import Settings

ROOT = Path(__file__).resolve().parents[3]


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


def test_the_build_is_copied_where_the_server_looks_and_the_package_ships_it(
    tmp_path: Path,
) -> None:
    """`make web` and the image copy the build to WEB_DIST, and package data holds its files."""
    where = WEB_DIST.relative_to(ROOT).as_posix()
    makefile = (ROOT / "Makefile").read_text()
    assert re.search(rf"^WEB_DIST := {re.escape(where)}$", makefile, re.MULTILINE)
    dockerfile = (ROOT / "deploy" / "Dockerfile").read_text()
    assert re.search(
        rf"^COPY --from=web /web/dist \./{re.escape(where)}$", dockerfile, re.MULTILINE
    )
    # The package data's patterns, taken from the `service` package, reach every file of a build.
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    patterns = pyproject["tool"]["setuptools"]["package-data"]["service"]
    package = tmp_path / "service"
    build = package / WEB_DIST.relative_to(ROOT / "service")
    for name in ("index.html", "assets/index-abc.js", "assets/index-abc.css"):
        (build / name).parent.mkdir(parents=True, exist_ok=True)
        (build / name).write_text(name)
    shipped = {path for pattern in patterns for path in package.glob(pattern) if path.is_file()}
    assert shipped == {path for path in build.rglob("*") if path.is_file()}
