"""One live table (docs/PROTOCOL.md): ``live`` (``LiveTable``, one asyncio task per table),
``items`` and ``turns`` (what its task takes and waits on), ``seating``, ``seats`` and
``seat_rules`` (who sits, who is dealt in, sitting out), ``dealing`` (a committed deal),
``timers``, ``recipients`` and ``outbox`` (who is sent what, numbered for resuming),
``protocol`` and ``messages`` (its messages in and out), ``journal`` (its deals and actions
written as they happen). It knows nothing of the lobby: the lobby passes it what it needs."""
