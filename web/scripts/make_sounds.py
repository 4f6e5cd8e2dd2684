"""Make the table's sounds: web/src/sounds/{deal,play,chop,turn,tick}.wav.

The project makes its own sounds, so they are ours to ship under the project's licence and
nothing is loaded from another site. Each sound is a few voices — a tone that may slide to
another pitch, or a burst of noise through a band-pass — each with a 6 ms attack and an
exponential fall, mixed to 16-bit mono PCM at 22 050 Hz. The noise comes from a fixed seed,
so running this again writes the same bytes (tests/test_sounds.py checks it).

    python web/scripts/make_sounds.py [folder]
"""

from __future__ import annotations

import math
import random
import struct
import sys
import wave
from dataclasses import dataclass
from pathlib import Path

RATE = 22_050
FOLDER = Path(__file__).resolve().parents[1] / "src" / "sounds"


@dataclass(frozen=True)
class Voice:
    at: float
    """Seconds from the sound's start."""
    length: float
    gain: float
    freq: float = 440.0
    to: float | None = None
    """The pitch the tone slides to (exponentially) by its end."""
    wave: str = "sine"
    noise: float | None = None
    """A burst of noise through a band-pass at this frequency, instead of a tone."""


SOUNDS: dict[str, list[Voice]] = {
    "deal": [Voice(i * 0.055, 0.035, 0.25, noise=3200) for i in range(6)],
    "play": [
        Voice(0, 0.06, 0.45, noise=1800),
        Voice(0, 0.09, 0.25, 190, to=120, wave="triangle"),
    ],
    "chop": [
        Voice(0, 0.08, 0.5, noise=1200),
        Voice(0, 0.35, 0.22, 520, to=110, wave="sawtooth"),
        Voice(0.08, 0.25, 0.3, 90, to=60, wave="square"),
    ],
    "turn": [Voice(0, 0.14, 0.2, 660), Voice(0.12, 0.2, 0.2, 880)],
    "tick": [Voice(0, 0.05, 0.12, 1250, wave="square")],
}


def envelope(t: float, length: float, gain: float) -> float:
    """Up from silence in 6 ms, then down by the same ratio a second to silence at ``length``."""
    attack = 0.006
    if t < attack:
        return 0.0001 * (gain / 0.0001) ** (t / attack)
    return gain * (0.0001 / gain) ** ((t - attack) / (length - attack))


def oscillator(kind: str, phase: float) -> float:
    """One cycle of ``kind`` at ``phase`` (0–1)."""
    if kind == "square":
        return 1.0 if phase < 0.5 else -1.0
    if kind == "sawtooth":
        return 2.0 * phase - 1.0
    if kind == "triangle":
        return 4.0 * abs(phase - 0.5) - 1.0
    return math.sin(2 * math.pi * phase)


def band_passed(samples: list[float], centre: float, q: float = 1.0) -> list[float]:
    """A biquad band-pass (constant 0 dB peak), as Web Audio's BiquadFilterNode makes one."""
    w = 2 * math.pi * centre / RATE
    alpha = math.sin(w) / (2 * q)
    b0, b2 = alpha, -alpha
    a0, a1, a2 = 1 + alpha, -2 * math.cos(w), 1 - alpha
    out, x1, x2, y1, y2 = [], 0.0, 0.0, 0.0, 0.0
    for x in samples:
        y = (b0 * x + b2 * x2 - a1 * y1 - a2 * y2) / a0
        out.append(y)
        x2, x1, y2, y1 = x1, x, y1, y
    return out


def voice(v: Voice, noise: random.Random) -> list[float]:
    n = round(v.length * RATE)
    if v.noise is not None:
        source = band_passed([noise.uniform(-1, 1) for _ in range(n)], v.noise)
    else:
        source, phase = [], 0.0
        for i in range(n):
            t = i / RATE
            freq = v.freq if v.to is None else v.freq * (v.to / v.freq) ** (t / v.length)
            source.append(oscillator(v.wave, phase))
            phase = (phase + freq / RATE) % 1.0
    return [s * envelope(i / RATE, v.length, v.gain) for i, s in enumerate(source)]


def render(voices: list[Voice], seed: str) -> bytes:
    noise = random.Random(seed)
    end = max(v.at + v.length for v in voices)
    mix = [0.0] * (round(end * RATE) + 1)
    for v in voices:
        start = round(v.at * RATE)
        for i, s in enumerate(voice(v, noise)):
            mix[start + i] += s
    clipped = (max(-1.0, min(1.0, s)) for s in mix)
    return b"".join(struct.pack("<h", round(s * 32_767)) for s in clipped)


def write(folder: Path) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, voices in SOUNDS.items():
        path = folder / f"{name}.wav"
        with wave.open(str(path), "wb") as out:
            out.setnchannels(1)
            out.setsampwidth(2)
            out.setframerate(RATE)
            out.writeframes(render(voices, f"tienlen/{name}"))
        written.append(path)
    return written


if __name__ == "__main__":
    for path in write(Path(sys.argv[1]) if len(sys.argv) > 1 else FOLDER):
        print(f"{path} ({path.stat().st_size:,} bytes)")
