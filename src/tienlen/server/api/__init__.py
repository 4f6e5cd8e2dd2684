"""The endpoints: each module holds one group of REST routes or one WebSocket's entry point
(its ``router``), which ``app.create_app`` includes. They take what they need from ``deps``
and the wings below; nothing imports them but the app."""
