"""Write the wire format's JSON Schemas: ``python -m tienlen.cli.schemas [FOLDER]``.

The files under ``docs/schemas/`` are committed for the browser client to type against (``web/``
generates its TypeScript types from them at build time); a test fails while they differ from
what :mod:`tienlen.engine.wire`, :mod:`tienlen.server.table_protocol` with
:mod:`tienlen.server.table_messages`, :mod:`tienlen.server.lobby_protocol` and the REST models
of :mod:`tienlen.server.protocol` (``rest.json``) generate.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from pydantic import BaseModel
from pydantic.json_schema import JsonSchemaMode, models_json_schema

from ..engine.wire import json_schemas, render
from ..server import protocol as rest
from ..server.lobby.protocol import json_schemas as lobby_schemas
from ..server.table.messages import json_schemas as protocol_schemas


def rest_schema() -> dict[str, Any]:
    """The REST API's request and response models (:mod:`tienlen.server.protocol`) as one
    schema of ``$defs``, one per model: requests as the server reads them, responses as it
    sends them."""
    models = [getattr(rest, name) for name in sorted(rest.__all__)]
    pairs: list[tuple[type[BaseModel], JsonSchemaMode]] = [
        (model, "validation" if model.model_config.get("extra") == "forbid" else "serialization")
        for model in models
        if isinstance(model, type) and issubclass(model, BaseModel)
    ]
    _, schema = models_json_schema(pairs, ref_template="#/$defs/{model}")
    schema["$id"] = "tienlen/rest.json"
    schema["title"] = "rest"
    return schema


def write_schemas(folder: Path) -> list[Path]:
    """Write one ``NAME.json`` per wire type into ``folder``; the paths written."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    every = json_schemas() | protocol_schemas() | lobby_schemas() | {"rest": rest_schema()}
    for name, schema in every.items():
        path = folder / f"{name}.json"
        path.write_text(render(schema), encoding="utf-8")
        written.append(path)
    return written


if __name__ == "__main__":  # pragma: no cover - a developer's command
    for path in write_schemas(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/schemas")):
        print(f"wrote {path}")
