"""Alembic migrations of the server's database, shipped with the package.

The server applies them at start (``store.db.migrate``); no ``alembic.ini`` is needed at run
time. To write a new one, see docs/SERVER.md ("Migrations").
"""
