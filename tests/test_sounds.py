"""The page's sounds are the project's own: web/scripts/make_sounds.py writes exactly the WAV
files committed in web/src/sounds, so anyone can see how each was made and make it again."""

from __future__ import annotations

import runpy
import wave
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOUNDS = ROOT / "web" / "src" / "sounds"


def test_the_committed_sounds_are_what_the_script_makes(tmp_path: Path) -> None:
    script = runpy.run_path(str(ROOT / "web" / "scripts" / "make_sounds.py"))
    written = script["write"](tmp_path)
    assert sorted(p.name for p in written) == sorted(p.name for p in SOUNDS.glob("*.wav"))
    for path in written:
        assert path.read_bytes() == (SOUNDS / path.name).read_bytes(), path.name
        with wave.open(str(path)) as sound:
            assert (sound.getnchannels(), sound.getsampwidth()) == (1, 2)
            assert 0.03 < sound.getnframes() / sound.getframerate() < 0.5
