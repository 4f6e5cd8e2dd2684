"""Persistence: the tables (``models``) and the database connections (``db``)."""

from __future__ import annotations
