"""Money: settling a finished game into chips by each portal's rules (imports only the engine)."""
