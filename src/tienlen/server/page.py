"""The browser client's page, served at ``/`` from the folder ``web/`` builds into.

The page is built by ``make run`` (``npm ci && npm run build`` in ``web/``, docs/WEB.md) into
``src/tienlen/server/static/``, or the folder ``TIENLEN_WEB_DIR`` names. The server works
without it: ``/`` then says that the page is not built and how to build it, and the API and
the tables' WebSockets are unchanged.
"""

from __future__ import annotations

import os
from collections.abc import Awaitable, Callable
from pathlib import Path

from fastapi import FastAPI
from fastapi.responses import FileResponse, HTMLResponse
from starlette.responses import Response
from starlette.staticfiles import StaticFiles
from starlette.types import Scope

__all__ = ["BUILT_PAGE", "mount_page", "page_folder"]

BUILT_PAGE = Path(__file__).resolve().parent / "static"
"""Where ``web/`` builds the page (its ``vite.config.ts`` says so too)."""

NOT_BUILT = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Tiến Lên server</title></head>
<body style="font-family: sans-serif; max-width: 40em; margin: 3em auto; line-height: 1.5">
<h1>Tiến Lên server</h1>
<p>The server is running, but its web page is not built, so there is nothing to play here
yet. Build it with <code>make run</code> (or <code>npm ci &amp;&amp; npm run build</code> in
<code>web/</code>; Node.js and npm are needed) and reload this page.</p>
<p>Trang web chưa được dựng: chạy <code>make run</code> rồi tải lại trang.</p>
<p>The API works without the page (<a href="/api/openapi.json">/api/openapi.json</a>).
In a terminal, <code>tienlen play</code> plays against bots.</p>
</body></html>
"""


def page_folder(configured: Path | None) -> Path | None:
    """The built page's folder, or None when it holds no ``index.html``."""
    folder = configured if configured is not None else BUILT_PAGE
    return folder if (folder / "index.html").is_file() else None


class _Assets(StaticFiles):
    """The page's assets: their names carry a hash of their content, so they may be cached
    for good."""

    def file_response(
        self,
        full_path: str | os.PathLike[str],
        stat_result: os.stat_result,
        scope: Scope,
        status_code: int = 200,
    ) -> Response:
        response = super().file_response(full_path, stat_result, scope, status_code)
        response.headers["cache-control"] = "public, max-age=31536000, immutable"
        return response


def _file(path: Path) -> Callable[[], Awaitable[FileResponse]]:
    async def serve() -> FileResponse:
        return FileResponse(path, headers={"cache-control": "no-cache"})

    return serve


def mount_page(app: FastAPI, configured: Path | None) -> None:
    """Serve the page at ``/``, its hashed assets under ``/assets``, and the other files at
    its top (the icon), or say at ``/`` that it is not built. Nothing is mounted over ``/``
    itself, so every route under ``/api`` answers as before (404 and 405 included)."""
    folder = page_folder(configured)
    if folder is None:

        @app.get("/", include_in_schema=False, response_class=HTMLResponse)
        async def not_built() -> HTMLResponse:
            return HTMLResponse(NOT_BUILT)

        return
    index = folder / "index.html"
    top = [p for p in folder.iterdir() if p.is_file() and p.name != "index.html"]

    @app.get("/", include_in_schema=False)
    async def page() -> FileResponse:
        return FileResponse(index, headers={"cache-control": "no-cache"})

    for path in top:
        app.add_api_route(f"/{path.name}", _file(path), include_in_schema=False)

    if (folder / "assets").is_dir():
        app.mount("/assets", _Assets(directory=folder / "assets"), name="assets")
