"""Write the wire format's JSON Schemas: ``python -m tienlen.cli.schemas [FOLDER]``.

The files under ``docs/schemas/`` are committed for the browser client to type against; a test
fails while they differ from what :mod:`tienlen.engine.wire` and
:mod:`tienlen.server.table_protocol` and :mod:`tienlen.server.lobby_protocol` generate.
"""

from __future__ import annotations

import sys
from pathlib import Path

from ..engine.wire import json_schemas, render
from ..server.lobby_protocol import json_schemas as lobby_schemas
from ..server.table_protocol import json_schemas as protocol_schemas


def write_schemas(folder: Path) -> list[Path]:
    """Write one ``NAME.json`` per wire type into ``folder``; the paths written."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, schema in (json_schemas() | protocol_schemas() | lobby_schemas()).items():
        path = folder / f"{name}.json"
        path.write_text(render(schema), encoding="utf-8")
        written.append(path)
    return written


if __name__ == "__main__":  # pragma: no cover - a developer's command
    for path in write_schemas(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/schemas")):
        print(f"wrote {path}")
