"""Command-line tools (typer and rich live here and in nothing below)."""

from .app import app

__all__ = ["app"]
