"""Fair play (docs/CONDUCT.md): the conduct policy as data (``policy``), roles, sanctions,
reports and the audit log (``sanctions``), the chat (``chat``) with its word filter
(``chat_filter``) and its guard (``chat_guard``: mutes and automatic sanctions), what a report
gets (``evidence``), where players connect from (``sightings``: links and the seating rule),
and chip-dumping scans (``collusion``). It knows nothing of tables: they ask it."""
