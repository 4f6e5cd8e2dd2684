"""Persistence: the tables (``models``), the database connections and migrations (``db``,
``migrations/``), trying a write again while the database is away (``retry``), the queries on
tables and games (``games``) and the chip ledger (``ledger``: the only code that moves
chips)."""

from __future__ import annotations
