"""The chat's profanity filter, Vietnamese and English: pure, no I/O after loading its words.

Vietnamese is written in syllables, and many swear words share their letters with everyday
words once the diacritics are gone ("lồn" / "lớn", "đĩ" / "đi", "cặc" / "các"). So the filter
matches whole syllables and whole words (never a piece of a longer word), and a word list
(``chat_words.toml``) says which entries match only with their exact marks (``marked``) and
which match with any marks or none (``bare``). A token typed with marks is compared by its
marks; one typed without is compared only with the ``bare`` entries.

Evasions undone before matching: Unicode forms (NFC, full-width letters, a few Cyrillic
look-alikes, zero-width characters), upper case, letters repeated ("lồnnn"), separators inside
a word ("đ.ị.t"), single letters spaced out ("d m"), digits and symbols for letters inside a
word ("l0n", "sh!t"), and "*" for hidden letters ("f**k"). The result says which entries
matched and gives the message with each matched word masked by ``*``.
"""

from __future__ import annotations

import functools
import re
import tomllib
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from importlib.resources import files
from itertools import product
from pathlib import Path

__all__ = ["ChatFilter", "FilterResult", "check", "default_filter", "fold", "load_filter"]

WORDS_FILE = "chat_words.toml"
_LEET = {"0": "o", "3": "e", "4": "a", "5": "s", "7": "t", "8": "b", "@": "a", "$": "s", "!": "i"}
_ONE = ("i", "l")
"""A 1 may stand for i or l: both readings are tried."""
_SYMBOLS_BETWEEN_LETTERS_ONLY = frozenset("@$!")
"""Symbols read as letters only inside a word: "dm!" is "dm" and an exclamation mark."""
_LOOKALIKES = str.maketrans("аеорсухіјкмт", "aeopcyxijkmt")
"""Cyrillic letters drawn like Latin ones."""


def fold(text: str) -> str:
    """Lower case without diacritics, đ read as d: "Đụ" → "du"."""
    decomposed = unicodedata.normalize("NFD", text.lower().replace("đ", "d"))
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def _canon(char: str) -> str:
    """One character as the filter reads it: NFKC (full-width → ASCII), look-alikes, lower."""
    compat = unicodedata.normalize("NFKC", char)
    if len(compat) != 1:
        compat = char
    lowered = compat.lower().translate(_LOOKALIKES)
    return lowered if len(lowered) == 1 else compat


def _runs(text: str) -> list[tuple[str, int]]:
    runs: list[tuple[str, int]] = []
    for char in text:
        if runs and runs[-1][0] == char:
            runs[-1] = (char, runs[-1][1] + 1)
        else:
            runs.append((char, 1))
    return runs


def _pattern(text: str, prefix: bool) -> re.Pattern[str]:
    """Each letter of ``text`` at least as often as written: "dmm" matches "dmmmm", not "dm"."""
    body = "".join(f"{re.escape(c)}{{{n},}}" for c, n in _runs(text))
    return re.compile(body + (".*" if prefix else ""))


def _spread(token: str) -> str:
    """A plain vowel repeated after its marked form takes the marks: "đụuuu" → "đụụụụ"."""
    out: list[str] = []
    for char in token:
        if out and fold(char) == fold(out[-1]) and fold(char) == char:
            out.append(out[-1])
        else:
            out.append(char)
    return "".join(out)


@dataclass(frozen=True, slots=True)
class _Form:
    """One syllable or word of an entry, as patterns on the folded and the marked token."""

    bare: re.Pattern[str]
    marked: re.Pattern[str]

    def matches(self, token: str, bare_ok: bool) -> bool:
        """With ``bare_ok`` the letters decide; without, the marks must be the entry's too."""
        if not self.bare.fullmatch(fold(token)):
            return False
        return bare_ok or bool(self.marked.fullmatch(_spread(token)))


@dataclass(frozen=True, slots=True)
class _Entry:
    text: str
    """As written in the word list: what the result reports."""
    syllables: tuple[_Form, ...]
    joined: _Form
    """The whole entry written as one word ("ditme")."""
    bare_ok: bool
    prefix: bool
    key: str
    """The folded entry with repeated letters collapsed, to find it fast."""


def _closeness(entry: str, reading: str) -> tuple[bool, bool, int]:
    """Sort key: the entry written exactly as read first, then one with the same letters,
    then the longest ("dmmmm" is "dmm" rather than "dm")."""
    joined = entry.replace(" ", "")
    return (joined != reading, fold(joined) != fold(reading), -len(joined))


_Hit = Callable[[_Entry | None, int, int], bool]


def _collapse(text: str) -> str:
    return "".join(c for c, _ in _runs(text))


def _entry(text: str, bare_ok: bool, prefix: bool = False) -> _Entry:
    text = unicodedata.normalize("NFC", text).lower()
    words = text.split()

    def form(word: str, is_prefix: bool = False) -> _Form:
        return _Form(_pattern(fold(word), is_prefix), _pattern(word, is_prefix))

    joined = "".join(words)
    syllables = tuple(form(w) for w in words)
    return _Entry(text, syllables, form(joined, prefix), bare_ok, prefix, _collapse(fold(joined)))


@dataclass(frozen=True, slots=True)
class FilterResult:
    profane: bool
    words: tuple[str, ...]
    """The word-list entries found, in order of first appearance."""
    masked: str
    """The message with every character of each matched word replaced by ``*``."""


@dataclass(frozen=True, slots=True)
class _Token:
    readings: tuple[str, ...]
    """The token as read with each choice of what a 1 stands for."""
    start: int
    end: int
    """Span in the NFC message (end exclusive)."""
    disguised: bool = False
    """Digits or symbols stood for letters ("l0n"): nobody writes an innocent word so, and
    the token matches by its letters as if it had the marks."""


def _readings(chars: list[str]) -> tuple[str, ...]:
    ones = [i for i, c in enumerate(chars) if c == "1"][:3]
    out = []
    for choice in product(_ONE, repeat=len(ones)):
        variant = list(chars)
        for index, letter in zip(ones, choice, strict=True):
            variant[index] = letter
        out.append("".join(c if c != "1" else "i" for c in variant))
    return tuple(dict.fromkeys(out))


def _chunk_tokens(chunk: list[tuple[int, str]]) -> tuple[_Token | None, list[_Token]]:
    """A whitespace-separated chunk read as one word (separators dropped, digits as letters),
    and the plain letter runs inside it."""
    runs: list[_Token] = []
    current: list[tuple[int, str]] = []
    for index, char in [*chunk, (-1, " ")]:
        if char.isalpha():
            current.append((index, char))
        elif current:
            runs.append(
                _Token(("".join(c for _, c in current),), current[0][0], current[-1][0] + 1)
            )
            current = []
    letters = [i for i, (_, c) in enumerate(chunk) if c.isalpha()]
    if not letters or any(c.isdigit() and c not in _LEET and c != "1" for _, c in chunk):
        return None, runs  # no letters, or a number ("2 đôi", "c2c" is not "cc")
    kept: list[tuple[int, str]] = []
    disguised = False
    for position, (index, char) in enumerate(chunk):
        inside = letters[0] < position < letters[-1]
        if char.isalpha() or char == "*":
            kept.append((index, char))
        elif char == "1" or (
            char in _LEET and (inside or char not in _SYMBOLS_BETWEEN_LETTERS_ONLY)
        ):
            kept.append((index, "1" if char == "1" else _LEET[char]))
            disguised = True
    while kept and kept[-1][1] == "*":
        kept.pop()
    while kept and kept[0][1] == "*":
        kept.pop(0)
    whole = _Token(_readings([c for _, c in kept]), kept[0][0], kept[-1][0] + 1, disguised)
    return whole, runs


def _chunks(text: str) -> list[list[tuple[int, str]]]:
    chunks: list[list[tuple[int, str]]] = [[]]
    for index, char in enumerate(text):
        if char.isspace():
            if chunks[-1]:
                chunks.append([])
        elif unicodedata.category(char) != "Cf":  # zero-width characters are dropped
            chunks[-1].append((index, _canon(char)))
    return [c for c in chunks if c]


class ChatFilter:
    """The filter for one word list; :meth:`check` is pure and thread-safe."""

    def __init__(self, entries: list[_Entry], innocent: frozenset[str] = frozenset()) -> None:
        self.entries = entries
        self.innocent = innocent
        """Words never flagged although an entry's pattern covers them ("shiitake")."""
        self._exact: dict[str, list[_Entry]] = {}
        for entry in entries:
            if not entry.prefix:
                self._exact.setdefault(entry.key, []).append(entry)
        self._prefixes = [e for e in entries if e.prefix]
        self._phrases = [e for e in entries if len(e.syllables) > 1]

    def _word(self, token: _Token) -> _Entry | None:
        """The entry a single token is, if any."""
        for reading in token.readings:
            if fold(reading) in self.innocent:
                continue
            if "*" in reading:
                found = self._hidden(reading)
            else:
                exact = self._exact.get(_collapse(fold(reading)), [])
                exact = sorted(exact, key=lambda e: _closeness(e.text, reading))
                found = next(
                    (
                        e
                        for e in [*exact, *self._prefixes]
                        if e.joined.matches(reading, e.bare_ok or token.disguised)
                    ),
                    None,
                )
            if found is not None:
                return found
        return None

    def _hidden(self, reading: str) -> _Entry | None:
        """A word with letters hidden by ``*`` ("f**k", "f**king"): it must keep two letters
        of its own, and only entries that match without marks are considered."""
        if sum(c.isalpha() for c in reading) < 2:
            return None

        def pattern(text: str) -> re.Pattern[str]:
            return re.compile("[a-z]+".join(re.escape(fold(p)) for p in re.split(r"\*+", text)))

        whole = pattern(reading)
        for entry in [*self._prefixes, *self.entries]:
            if not entry.bare_ok or len(entry.syllables) > 1:
                continue
            if whole.fullmatch(fold(entry.text)):
                return entry
            if entry.prefix:
                for end in range(len(reading), 1, -1):
                    if "*" in reading[:end] and pattern(reading[:end]).fullmatch(entry.text):
                        return entry
        return None

    def check(self, message: str) -> FilterResult:
        text = unicodedata.normalize("NFC", message)
        words: list[tuple[_Token | None, list[_Token]]] = [_chunk_tokens(c) for c in _chunks(text)]
        found: list[tuple[int, int, str]] = []

        def hit(entry: _Entry | None, start: int, end: int) -> bool:
            if entry is not None:
                found.append((start, end, entry.text))
            return entry is not None

        wholes = [whole for whole, _ in words]
        covered = 0
        for position, (whole, runs) in enumerate(words):
            covered = max(covered, position + self._phrase_at(wholes, position, hit))
            if position < covered:
                continue
            if whole is not None and hit(self._word(whole), whole.start, whole.end):
                continue
            for run in runs:
                hit(self._word(run), run.start, run.end)
        self._spaced_letters(wholes, hit)
        masked = list(text)
        for start, end, _ in found:
            for index in range(start, end):
                if not masked[index].isspace():
                    masked[index] = "*"
        reported = tuple(dict.fromkeys(w for _, _, w in sorted(found)))
        return FilterResult(bool(found), reported, "".join(masked))

    def _phrase_at(self, wholes: list[_Token | None], position: int, hit: _Hit) -> int:
        """How many words from ``position`` a phrase of the list covers (0: none)."""
        longest = 0
        for entry in self._phrases:
            tokens = wholes[position : position + len(entry.syllables)]
            if len(tokens) < len(entry.syllables) or any(t is None for t in tokens):
                continue
            if all(
                t is not None and form.matches(t.readings[0], entry.bare_ok or t.disguised)
                for form, t in zip(entry.syllables, tokens, strict=True)
            ):
                first, last = tokens[0], tokens[-1]
                assert first is not None and last is not None
                hit(entry, first.start, last.end)
                longest = max(longest, len(tokens))
        return longest

    def _spaced_letters(self, wholes: list[_Token | None], hit: _Hit) -> None:
        """Single letters spaced out ("d m", "v c l") read as one word."""
        run: list[_Token] = []
        for token in [*wholes, None]:
            if token is not None and len(token.readings[0]) == 1 and token.readings[0].isalpha():
                run.append(token)
                continue
            if len(run) >= 2:
                joined = _Token(("".join(t.readings[0] for t in run),), run[0].start, run[-1].end)
                hit(self._word(joined), joined.start, joined.end)
            run = []


def _strings(data: dict[str, object], section: str, key: str) -> list[str]:
    table = data.get(section)
    values = table.get(key) if isinstance(table, dict) else None
    if not isinstance(values, list) or not all(isinstance(v, str) and v.strip() for v in values):
        raise ValueError(f"{WORDS_FILE}: [{section}] {key} must be a list of non-empty strings")
    return list(values)


def parse_words(text: str) -> ChatFilter:
    data = tomllib.loads(text)
    entries = [_entry(w, bare_ok=False) for w in _strings(data, "vietnamese", "marked")]
    entries += [_entry(w, bare_ok=True) for w in _strings(data, "vietnamese", "bare")]
    entries += [_entry(w, bare_ok=True) for w in _strings(data, "vietnamese", "abbreviations")]
    entries += [_entry(w, bare_ok=True) for w in _strings(data, "english", "words")]
    entries += [_entry(w, True, prefix=True) for w in _strings(data, "english", "prefixes")]
    innocent = frozenset(fold(w) for w in _strings(data, "english", "innocent"))
    return ChatFilter(entries, innocent)


def load_filter(path: Path | None = None) -> ChatFilter:
    """The filter for the word list in ``path``, or the one shipped with the package."""
    if path is None:
        return parse_words(files(__package__).joinpath(WORDS_FILE).read_text("utf-8"))
    return parse_words(path.read_text(encoding="utf-8"))


@functools.cache
def default_filter() -> ChatFilter:
    return load_filter()


def check(message: str) -> FilterResult:
    """The shipped filter's verdict on ``message``."""
    return default_filter().check(message)
