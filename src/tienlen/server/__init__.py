"""The game server: accounts, the chip ledger, the lobby and its live tables, fair play, and
the REST and WebSocket API the web page and other clients use (docs/SERVER.md, PROTOCOL.md).

Beside the wings, the modules every part uses: ``settings`` (the environment), ``clock``,
``protocol`` (the REST messages), ``errors`` (the error shape and codes, and ``Refused``),
``auth`` (nicknames, passwords, sessions), ``limits`` (rate limits), ``deps`` (what the routes
share: ``Server``, ``server_of``, ``session_user``), ``sockets`` and ``serving`` (every
WebSocket's plumbing, and the drain before a stop), ``botpool``, ``collector``, ``observe``
(metrics, loop lag, JSON logs), ``page`` and ``app`` (the FastAPI app).

The wings, each importing only from itself and the ones before it:

- ``store``: the database — models, migrations, the ledger (the only code that moves chips),
  games' queries.
- ``conduct``: the conduct policy and what enforces it — sanctions, chat and its filter and
  guard, reports' evidence, sightings, collusion checks.
- ``table``: one live table — seats, deals, turns, timers, who is told what, its messages and
  journal.
- ``lobby``: the live tables together — the registry, settling games, rooms, house bots,
  restoring tables after a restart, the lobby's feed.
- ``api``: the endpoints — the REST routes and the sockets' entry points.

The server sits beside ``cli/`` above ``bots/``: it may import the engine, money and bots, never
the command line (``tests/test_layers.py`` checks that and the wings' order).
"""

from __future__ import annotations
