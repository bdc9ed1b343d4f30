"""`/schema`: the OpenAPI document rendered by Swagger UI, with no network.

Litestar's default page loads its viewer from a CDN and shows Litestar's own document, which
lacks the games' schemas. Here the viewer's files come from the `swagger-ui-bundle-v2` package
(Swagger UI 5, which reads OpenAPI 3.1), served by Skald under `/schema/assets/`, and the page
renders `/openapi.json`, the one document. `/schema/openapi.json` is that document too.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from litestar import Litestar, Request, Router
from litestar.enums import MediaType
from litestar.openapi.plugins import OpenAPIRenderPlugin
from litestar.static_files import create_static_files_router
from swagger_ui_bundle import swagger_ui_path  # type: ignore[import-untyped]

ASSETS = "/assets"
DOCUMENT_PATH = "/openapi.json"
PAGE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Skald API</title>
<link rel="stylesheet" href="{root}/assets/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="{root}/assets/swagger-ui-bundle.js"></script>
<script>
window.ui = SwaggerUIBundle({{url: "{document}", dom_id: "#swagger-ui", deepLinking: true}});
</script>
</body>
</html>
"""


class SwaggerSite(OpenAPIRenderPlugin):
    """Swagger UI from local files, on the full document."""

    def __init__(self) -> None:
        super().__init__(path="/", media_type=MediaType.HTML)

    def render(self, request: Request[Any, Any, Any], openapi_schema: dict[str, Any]) -> bytes:
        """The page."""
        root = request.url.path.rstrip("/")
        return PAGE.format(root=root, document=DOCUMENT_PATH).encode()

    def receive_router(self, router: Router) -> None:
        """Serve the viewer's files beside the page."""
        router.register(
            create_static_files_router(
                path=ASSETS,
                directories=[swagger_ui_path],
                include_in_schema=False,
                send_as_attachment=False,
            )
        )


class FullDocument(OpenAPIRenderPlugin):
    """`/schema/openapi.json`: the full document, not Litestar's (which lacks the games')."""

    def __init__(self, document: Callable[[Litestar], bytes]) -> None:
        super().__init__(path=DOCUMENT_PATH, media_type=MediaType.JSON)
        self.document = document

    def render(self, request: Request[Any, Any, Any], openapi_schema: dict[str, Any]) -> bytes:
        """The document."""
        return self.document(request.app)


def render_plugins(document: Callable[[Litestar], bytes]) -> list[OpenAPIRenderPlugin]:
    """What `/schema` serves; `document` gives an app's full OpenAPI document, encoded."""
    return [SwaggerSite(), FullDocument(document)]
