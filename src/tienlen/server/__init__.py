"""The game server: accounts, chips and (in later slices) the lobby and live tables.

One module per concern: ``settings`` (the environment), ``store`` (tables and database
connections), ``migrations`` (Alembic, applied at start), ``auth`` (nicknames, passwords,
sessions), ``ledger`` (the only code that moves chips), ``protocol`` (the pydantic models of every
message), ``errors`` (the JSON error body and its codes), ``accounts`` (the REST routes) and
``app`` (the FastAPI application). docs/SERVER.md describes it all.

The server sits beside ``cli/`` above ``bots/``: it may import the engine, money and bots, never
the command line.
"""

from __future__ import annotations
