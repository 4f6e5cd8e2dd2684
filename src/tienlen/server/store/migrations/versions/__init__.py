"""One module per migration, oldest first by ``down_revision``."""
