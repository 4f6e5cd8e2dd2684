"""Tiến Lên Miền Nam: engine, scoring, bots and tools."""
