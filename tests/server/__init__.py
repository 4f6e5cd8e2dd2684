"""Server tests: the real app on 127.0.0.1 over HTTP, on SQLite and on PostgreSQL."""
