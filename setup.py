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

It also builds the web page into the package (``src/tienlen/server/static``) when a wheel or an
sdist is built from a checkout, so that ``pip install <wheel>`` then ``tienlen serve`` serves
the whole portal: with npm on the PATH and the page's sources beside the package (``web/``),
the page is built unless it is already there and newer than its sources. An sdist carries the
built page (a wheel built from it needs no npm). An editable install (``pip install -e``, as the
Makefile's) leaves the page to ``make``. Without npm the package is built without a page, with a
warning; ``TIENLEN_NO_PAGE=1`` skips the page on purpose.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_py import build_py
from setuptools.command.sdist import sdist

ROOT = Path(__file__).resolve().parent
WEB = ROOT / "web"
PAGE = ROOT / "src" / "tienlen" / "server" / "static" / "index.html"
PAGE_SOURCES = ("src", "public", "scripts", "index.html", "package.json", "package-lock.json",
                "vite.config.ts", "svelte.config.js", "tsconfig.json")  # fmt: skip
"""What the page is built from, in web/ (and the protocol's schemas, docs/schemas)."""

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


def _newest(paths: list[Path]) -> float:
    newest = 0.0
    for path in paths:
        files = path.rglob("*") if path.is_dir() else [path]
        for file in files:
            if (
                file.is_file()
                and "node_modules" not in file.parts
                and "generated" not in file.parts
            ):
                newest = max(newest, file.stat().st_mtime)
    return newest


def build_page() -> None:
    """Build the web page into the package when its sources are here and it is missing or
    older than them (see the module docstring)."""
    if (
        os.environ.get("TIENLEN_NO_PAGE", "") not in ("", "0")
        or not (WEB / "package.json").is_file()
    ):
        return
    sources = [WEB / name for name in PAGE_SOURCES] + [ROOT / "docs" / "schemas"]
    if PAGE.is_file() and PAGE.stat().st_mtime >= _newest(sources):
        return
    npm = shutil.which("npm")
    if npm is None:
        print("tienlen: npm is not on the PATH: the package is built without its web page "
              "(`tienlen serve` says so at /)", file=sys.stderr)  # fmt: skip
        return
    if not (WEB / "node_modules").exists():
        subprocess.run([npm, "ci", "--no-audit", "--no-fund"], cwd=WEB, check=True)
    subprocess.run([npm, "run", "build"], cwd=WEB, check=True)


class BuildPyWithPage(build_py):
    """``build_py`` that builds the web page first (not in an editable install)."""

    def run(self) -> None:
        if not getattr(self, "editable_mode", False):
            build_page()
        super().run()


class SdistWithPage(sdist):
    """``sdist`` that builds the web page first, so that the sdist carries it."""

    def run(self) -> None:
        build_page()
        super().run()


setup(
    ext_modules=compiled_extensions(),
    cmdclass={"build_py": BuildPyWithPage, "sdist": SdistWithPage},
)
