"""The live tables together: ``registry`` (``Lobby``: the tables open now), ``settlement`` (a
finished game into the ledger, with seed 000's ĐKN), ``rooms`` (who may play where),
``house_bots``, ``restore`` (tables opened again after a restart), ``feed`` and ``protocol``
(the lobby's live list and chat) and ``notices`` (sanctions reaching open sockets)."""
