"""The README's Python example runs as written and its command table names real commands."""

from __future__ import annotations

import re
from pathlib import Path

from typer.testing import CliRunner

from tienlen.cli import app

README = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")


def test_the_python_example_runs() -> None:
    blocks = re.findall(r"```python\n(.*?)```", README, re.S)
    assert len(blocks) == 1
    scope: dict[str, object] = {}
    exec(blocks[0], scope)  # the example as a reader would paste it
    assert "snapshot" in scope


def test_every_command_in_the_table_exists() -> None:
    names = set(re.findall(r"^\| `tienlen (\w+)", README, re.M))
    assert names >= {"play", "replay", "verify", "moves", "arena", "presets"}
    for name in names:
        result = CliRunner().invoke(app, [name, "--help"])
        assert result.exit_code == 0, (name, result.output)
