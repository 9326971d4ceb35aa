"""The web UI: the built single-page app (frontend/ → training_platform/web/) at /, and /docs without a CDN."""

from pathlib import Path

from fastapi import FastAPI
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import FileResponse, HTMLResponse, PlainTextResponse, Response

from training_platform.errors import NotFoundError

WEB_DIR = Path(__file__).resolve().parent.parent / "web"
# index.html names the current hashed bundles, so a browser must ask for it again after every build.
NO_CACHE = {"cache-control": "no-cache"}
# The hashed bundles never change under their name.
IMMUTABLE = {"cache-control": "public, max-age=31536000, immutable"}
BUILT_FOLDERS = ("assets/", "swagger/")


def install_web(app: FastAPI, api_prefix: str, web_dir: Path = WEB_DIR) -> None:
    """Register after the API routers: the catch-all below answers every GET path they do not."""
    root = web_dir.resolve()

    @app.get("/docs", include_in_schema=False)
    def swagger_ui() -> HTMLResponse:
        return get_swagger_ui_html(
            openapi_url=app.openapi_url,
            title=f"{app.title} - API",
            swagger_js_url="/swagger/swagger-ui-bundle.js",
            swagger_css_url="/swagger/swagger-ui.css",
            swagger_favicon_url="/favicon.svg",
        )

    @app.get("/{path:path}", include_in_schema=False)
    def web(path: str) -> Response:
        if path == api_prefix.strip("/") or path.startswith(api_prefix.strip("/") + "/"):
            raise NotFoundError(f"no API route /{path}")
        index = root / "index.html"
        if not index.is_file():
            return PlainTextResponse(
                "The web UI is not built. Build it with `make web` (needs Node.js 20 and npm), "
                "or use the API under /api/v1 (docs at /docs).",
                status_code=503,
            )
        file = (root / path).resolve()
        if path and file.is_file() and file.is_relative_to(root):
            return FileResponse(file, headers=IMMUTABLE if file.parent == root / "assets" else NO_CACHE)
        if path.startswith(BUILT_FOLDERS):
            # A bundle of an older build: answering with index.html would hand the browser HTML as a script.
            return PlainTextResponse(f"/{path} is not part of this build", status_code=404)
        # Any other path is a client-side route (/jobs/demo-sft): the app reads it from the address bar.
        return FileResponse(index, headers=NO_CACHE)
