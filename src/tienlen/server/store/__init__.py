"""Persistence: the tables (``models``), the database connections and migrations (``db``,
``migrations/``), the queries on tables and games (``games``) and the chip ledger (``ledger``:
the only code that moves chips)."""

from __future__ import annotations
