"""Helpers for rules tests: hands from readable card strings, and a snapshot of a game's state.

Test modules import these directly (``from conftest import deal``); pytest puts this folder on
``sys.path`` for them.
"""

from __future__ import annotations

import importlib
import pkgutil
import random
from pathlib import Path
from types import ModuleType

import pytest

import tienlen.engine
from tienlen.engine.cards import FULL_DECK, cards_of, mask_of, parse_mask
from tienlen.engine.game import HAND_SIZE, Game


def engine_modules() -> list[ModuleType]:
    """Every module of the engine package, imported."""
    return [
        importlib.import_module(f"tienlen.engine.{info.name}")
        for info in pkgutil.iter_modules(tienlen.engine.__path__)
        if not info.name.endswith("__mypyc")
    ]


def compiled_engine_modules() -> list[ModuleType]:
    """The engine modules this process runs compiled (none under ``TIENLEN_PURE=1``)."""
    return [m for m in engine_modules() if not str(m.__file__).endswith(".py")]


def engine_kind() -> str:
    compiled = [m.__name__.rsplit(".", 1)[1] for m in compiled_engine_modules()]
    if not compiled:
        return "tienlen engine tested: pure Python"
    return "tienlen engine tested: compiled by mypyc (" + ", ".join(compiled) + ")"


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    terminalreporter.write_line(engine_kind())


def pytest_sessionstart(session: pytest.Session) -> None:
    """Refuse to test a compiled module older than its source: the edit would go untested."""
    for module in compiled_engine_modules():
        built = Path(str(module.__file__))
        source = built.with_name(module.__name__.rsplit(".", 1)[1] + ".py")
        if source.stat().st_mtime > built.stat().st_mtime:
            pytest.exit(
                f"{built.name} is older than {source}: rebuild it with `make` (pip install -e .), "
                "or test the sources with TIENLEN_PURE=1",
                returncode=4,
            )


def m(text: str) -> int:
    """The mask of cards written as text: ``m("3s 3c")``."""
    return parse_mask(text)


def deal(*given: str, players: int | None = None, undealt: str = "", seed: int = 0) -> list[int]:
    """Hands for a test: seat ``i`` holds ``given[i]``, topped up to 13 cards.

    The top-up comes from a fixed shuffle (``seed``) of the cards nobody was given and that are
    not in ``undealt``, so a test names only the cards it is about and stays reproducible.
    ``players`` defaults to the number of hands given (2–4).
    """
    n = len(given) if players is None else players
    masks = [parse_mask(text) for text in given] + [0] * (n - len(given))
    taken = parse_mask(undealt) if undealt else 0
    for mask in masks:
        if mask & taken:
            raise ValueError("a card is given twice or given and undealt")
        taken |= mask
    rest = cards_of(FULL_DECK & ~taken)
    random.Random(seed).shuffle(rest)
    for seat, mask in enumerate(masks):
        missing = HAND_SIZE - mask.bit_count()
        if missing < 0:
            raise ValueError(f"seat {seat} is given more than {HAND_SIZE} cards")
        masks[seat] = mask | mask_of(rest[:missing])
        rest = rest[missing:]
    return masks


def snapshot(game: Game) -> tuple[object, ...]:
    """Everything an illegal action must leave unchanged."""
    return (
        tuple(game.hands),
        game.current_player,
        len(game.events),
        len(game.history),
        game.passed,
        game.revived,
        game.last_seat,
        game.last_mask,
        game.in_game,
        game.required,
        game.over,
        tuple(game.legal_actions()),
    )
