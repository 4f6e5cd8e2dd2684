"""The rules engine: pure and synchronous, no I/O. Everything else in tienlen stands on it.

Its hot modules (cards, combos, moves, instant, events, game, ending) are compiled by mypyc
when the package is installed with a C compiler (see setup.py); the compiled modules sit beside
the ``.py`` sources and behave the same. ``TIENLEN_PURE=1`` in the environment makes this package
import the ``.py`` sources even where compiled modules are installed: the test suite runs both
ways, and tests/test_compiled.py plays the same games on each and compares them.
"""

import os
import sys
from importlib.machinery import SOURCE_SUFFIXES, FileFinder, SourceFileLoader

PURE_SWITCH = "TIENLEN_PURE"
"""The environment variable that keeps the engine in pure Python (at install and at import)."""

if os.environ.get(PURE_SWITCH, "") not in ("", "0"):
    # Submodules are looked up in this package's folder through the finder cached for it: one
    # that knows only .py files makes the compiled modules beside them invisible.
    for _folder in __path__:
        sys.path_importer_cache[_folder] = FileFinder(_folder, (SourceFileLoader, SOURCE_SUFFIXES))
