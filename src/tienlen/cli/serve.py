"""``tienlen serve``: run the game server on uvicorn.

Settings come from ``TIENLEN_*`` variables (docs/SERVER.md); the options here override the
common ones. The server's libraries are imported only when the command runs, so the other
commands start as fast as before.
"""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

if TYPE_CHECKING:
    from ..server.settings import Settings


def settings_from(**options: Any) -> Settings:
    """Settings from the environment, with the options that were given on top; exits with 2
    and says which value is wrong."""
    from pydantic import ValidationError

    from ..server.settings import Settings
    from ..server.store.db import DatabaseUrlError, async_url

    given = {name: value for name, value in options.items() if value is not None}
    try:
        settings = Settings(**given)
        async_url(settings.resolved_database_url)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e['loc']) or 'settings'}: {e['msg']}" for e in exc.errors()
        )
        typer.echo(f"error: bad setting: {problems}", err=True)
        raise typer.Exit(2) from None
    except DatabaseUrlError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
    return settings


DataDir = Annotated[
    Path | None,
    typer.Option("--data-dir", help="Data folder (TIENLEN_DATA_DIR; default ./data)."),
]
DatabaseUrl = Annotated[
    str | None,
    typer.Option(
        "--database-url",
        help="Database URL (TIENLEN_DATABASE_URL; default: SQLite in the data folder).",
    ),
]


def serve_cmd(
    host: Annotated[
        str | None, typer.Option("--host", help="Address to listen on (default 127.0.0.1).")
    ] = None,
    port: Annotated[int | None, typer.Option("--port", help="Port (default 8000).")] = None,
    data_dir: DataDir = None,
    database_url: DatabaseUrl = None,
) -> None:
    """Run the game server (the web page at /, the HTTP API under /api) until Ctrl-C.

    With no settings it keeps everything in ./data: a SQLite database and a secret key, both
    made on first start. The API is described by its OpenAPI schema at /api/openapi.json.
    """
    settings = settings_from(host=host, port=port, data_dir=data_dir, database_url=database_url)
    import uvicorn
    from uvicorn.config import LOGGING_CONFIG

    from ..server import collector
    from ..server.app import create_app
    from ..server.botpool import shutdown_bot_pool
    from ..server.observe import json_log_config
    from ..server.page import page_folder
    from ..server.serving import DrainingServer, uvicorn_options
    from ..server.store.db import redacted

    address = f"http://{settings.host}:{settings.port}"
    typer.echo(f"Tiến Lên server on {address}  (API schema: {address}/api/openapi.json)")
    if page_folder(settings.web_dir) is None:
        typer.echo("the web page is not built: `make run` builds it (see docs/WEB.md)")
    else:
        typer.echo(f"open {address}/ in a browser to play")
    typer.echo(
        f"data folder: {settings.data_dir.resolve()}; "
        f"database: {redacted(settings.resolved_database_url)}"
    )
    app = create_app(settings)
    # Short collector pauses for live tables: server/collector.py says why.
    collector.configure()
    config = uvicorn.Config(
        app,
        host=settings.host,
        port=settings.port,
        log_level="info",
        proxy_headers=False,
        log_config=json_log_config() if settings.log_format == "json" else LOGGING_CONFIG,
        # After the drain, what is left of the stop (closing the sockets) is bounded too.
        timeout_graceful_shutdown=10,
        **uvicorn_options(settings),
    )
    server = DrainingServer(config, app, settings.drain_seconds)
    try:
        with contextlib.suppress(KeyboardInterrupt):  # Ctrl-C (re-raised by uvicorn): a stop
            server.run()
        if not server.started:  # it could not start (the port is taken): as uvicorn.run says
            raise typer.Exit(3)
    finally:  # no worker of the bots' or the analysis' pool outlives the server
        shutdown_bot_pool(grace_s=2.0)
