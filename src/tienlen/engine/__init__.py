"""The rules engine: pure and synchronous, no I/O. Everything else in tienlen stands on it."""
