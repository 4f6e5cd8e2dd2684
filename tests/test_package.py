"""A wheel and an sdist built from a checkout carry the web page (setup.py builds it), so that
``pip install <wheel>`` then ``tienlen serve`` serves the whole portal (issue 19, §4)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
NODE_MODULES = ROOT / "web" / "node_modules"


@pytest.fixture(scope="module")
def checkout(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The checkout's tracked files in a folder of their own: no page built there. The page's
    npm packages are the checkout's (linked: no download)."""
    if shutil.which("npm") is None or not NODE_MODULES.is_dir():
        reason = "npm and web/node_modules are needed to build the page (make web-check)"
        if os.environ.get("CI"):
            pytest.fail(reason)
        pytest.skip(reason)
    copy = tmp_path_factory.mktemp("checkout")
    tracked = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True
    ).stdout.split(b"\0")
    for name in filter(None, tracked):
        source = ROOT / os.fsdecode(name)
        if source.is_file():
            target = copy / os.fsdecode(name)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
    assert not (copy / "src/tienlen/server/static/index.html").exists()
    (copy / "web" / "node_modules").symlink_to(NODE_MODULES)
    return copy


def _build(checkout: Path, out: Path, what: str) -> Path:
    out.mkdir(exist_ok=True)
    code = f"from setuptools import build_meta; print(build_meta.build_{what}({str(out)!r}))"
    environment = {**os.environ, "TIENLEN_PURE": "1"}  # the engine's compile is not the point
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=checkout, env=environment, capture_output=True,
        text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    return out / done.stdout.strip().splitlines()[-1]


def test_a_wheel_and_an_sdist_built_from_a_checkout_carry_the_page(
    checkout: Path, tmp_path: Path
) -> None:
    wheel = _build(checkout, tmp_path / "wheel", "wheel")
    names = zipfile.ZipFile(wheel).namelist()
    assert "tienlen/server/static/index.html" in names
    assets = [n for n in names if n.startswith("tienlen/server/static/assets/")]
    assert any(n.endswith(".js") for n in assets) and any(n.endswith(".css") for n in assets)
    sdist = _build(checkout, tmp_path / "sdist", "sdist")
    with tarfile.open(sdist) as archive:
        members = archive.getnames()
    assert any(m.endswith("src/tienlen/server/static/index.html") for m in members)
    # A second build finds the page newer than its sources: npm is not run again.
    page = checkout / "src/tienlen/server/static/index.html"
    built_at = page.stat().st_mtime
    _build(checkout, tmp_path / "again", "wheel")
    assert page.stat().st_mtime == built_at
