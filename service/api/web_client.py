"""The web client at `/play/`: the build of the `web/` project (`npm run build` writes `web/dist`),
copied beside this module into `web_dist/` by `make web` (the image copies it there too), so the
package ships it as package data.

Served from this process, with no network: a page, its script and its style sheet, which talk
to the API under `/v1` on the same origin. `/` leads to `/play/`. Without a build, `/play/`
says how to make one.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from litestar import Response, get
from litestar.response import Redirect
from litestar.static_files import create_static_files_router

from .negotiation import OFFERS_KEY

WEB_PATH = "/play"
WEB_DIST = Path(__file__).resolve().parent / "web_dist"
# What the client's files are; a browser's Accept header always allows them.
WEB_MEDIA = ("text/html", "text/javascript", "text/css", "image/svg+xml", "image/png", "*/*")
NOT_BUILT = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Skald: the web client is not built</title></head>
<body>
<h1>The web client is not built</h1>
<p>This server serves the web client from <code>service/api/web_dist</code>, which holds no
build. Build it (Node.js and npm needed) from the repository's root with</p>
<pre>make web</pre>
<p>(<code>make serve</code> does it too), or by hand:</p>
<pre>mkdir -p web/generated
.venv/bin/skald openapi &gt; web/generated/openapi.json
npm ci --prefix web
npm run build --prefix web
rm -rf service/api/web_dist &amp;&amp; cp -R web/dist service/api/web_dist</pre>
<p>then restart the server. The API answers meanwhile under <a href="/schema">/v1</a>.</p>
</body></html>
"""


@get("/", include_in_schema=False, opt={OFFERS_KEY: WEB_MEDIA})
async def web_root() -> Redirect:
    """The root leads to the web client."""
    return Redirect(f"{WEB_PATH}/", status_code=302)


@get([WEB_PATH, f"{WEB_PATH}/{{rest:path}}"], include_in_schema=False, opt={OFFERS_KEY: WEB_MEDIA})
async def web_not_built() -> Response[str]:
    """Without a build: how to make one."""
    return Response(NOT_BUILT, media_type="text/html", status_code=503)


def web_client_routes(dist: Path = WEB_DIST) -> list[Any]:
    """The routes serving the client from `dist`, or saying how to build it."""
    if not (dist / "index.html").is_file():
        return [web_root, web_not_built]
    files = create_static_files_router(
        path=WEB_PATH,
        directories=[dist],
        html_mode=True,
        include_in_schema=False,
        send_as_attachment=False,
        opt={OFFERS_KEY: WEB_MEDIA},
    )
    return [web_root, files]
