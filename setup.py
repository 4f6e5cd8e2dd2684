"""Build: compile the hot engine modules with mypyc, or fall back to pure Python.

Everything else about the package is declared in pyproject.toml; this file only adds the
compiled extensions, the way black ships. The pure Python sources stay in the package either
way and behave the same (tests/test_compiled.py plays the same games on both).

The engine is installed pure when

* the environment sets ``TIENLEN_PURE=1`` (``TIENLEN_PURE=1 pip install -e .``),
* mypyc cannot be imported (a build without the pinned build requirements), or
* no C compiler works: each extension is optional, so a failed compile warns and the
  ``.py`` module is used instead.

See docs/BENCHMARKS.md for what compiling buys.
"""

from __future__ import annotations

import os
import sys

from setuptools import Extension, setup

COMPILED_MODULES = [
    "src/tienlen/engine/cards.py",
    "src/tienlen/engine/combos.py",
    "src/tienlen/engine/moves.py",
    "src/tienlen/engine/instant.py",
    "src/tienlen/engine/events.py",
    "src/tienlen/engine/game.py",
    "src/tienlen/engine/ending.py",
]
"""Hot and strictly typed: the move generator, the rule checks and the game state machine."""


def compiled_extensions() -> list[Extension]:
    if os.environ.get("TIENLEN_PURE", "") not in ("", "0"):
        print("tienlen: TIENLEN_PURE is set, installing the pure Python engine", file=sys.stderr)
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        print("tienlen: mypyc is not available, installing the pure Python engine", file=sys.stderr)
        return []
    extensions: list[Extension] = mypycify(
        COMPILED_MODULES, opt_level="3", group_name="tienlen_engine"
    )
    for extension in extensions:
        extension.optional = True  # no working compiler: warn and keep the .py module
    return extensions


setup(ext_modules=compiled_extensions())
