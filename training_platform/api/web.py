"""The web UI: the built single-page app (frontend/ → training_platform/web/) at /, and /docs without a CDN."""

from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exception_handlers import http_exception_handler
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import FileResponse, HTMLResponse, PlainTextResponse, Response
from starlette.exceptions import HTTPException

WEB_DIR = Path(__file__).resolve().parent.parent / "web"
# index.html names the current hashed bundles, so a browser must ask for it again after every build.
NO_CACHE = {"cache-control": "no-cache"}
# The bundles in assets/ are named by their content hash: one never changes under its name.
IMMUTABLE = {"cache-control": "public, max-age=31536000, immutable"}
BUILT_FOLDERS = ("assets/", "swagger/")


def install_web(app: FastAPI, api_prefix: str, web_dir: Path = WEB_DIR) -> None:
    """Serve the UI from whatever no route answers (a 404 of the router), so the API keeps its own 404s and
    FastAPI's trailing-slash redirects; the build is looked up per request, so a rebuild needs no restart."""
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

    @app.exception_handler(HTTPException)
    async def web_or_http_error(request: Request, error: HTTPException) -> Response:
        path = request.url.path
        is_api = path == api_prefix or path.startswith(f"{api_prefix}/")
        if error.status_code != 404 or request.method not in ("GET", "HEAD") or is_api:
            return await http_exception_handler(request, error)
        index = root / "index.html"
        if not index.is_file():
            return PlainTextResponse(
                "The web UI is not built. Build it with `make web` (needs Node.js 20 and npm), "
                "or use the API under /api/v1 (docs at /docs).",
                status_code=503,
            )
        relative = path.lstrip("/")
        file = (root / relative).resolve()
        if relative and file.is_file() and file.is_relative_to(root):
            return FileResponse(file, headers=IMMUTABLE if file.parent == root / "assets" else NO_CACHE)
        if relative.startswith(BUILT_FOLDERS):
            # A bundle of an older build: answering with index.html would hand the browser HTML as a script.
            return await http_exception_handler(request, error)
        # Any other path is a client-side route (/jobs/demo-sft): the app reads it from the address bar.
        return FileResponse(index, headers=NO_CACHE)
