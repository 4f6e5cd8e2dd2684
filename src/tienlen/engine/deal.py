"""A deal anyone can verify: the ``tienlen-deal/1`` scheme (specified in docs/FAIRNESS.md).

The server commits to a secret 32-byte seed by publishing its SHA-256, players may add client
seeds, and the deck is shuffled from an HMAC-SHA256 byte stream keyed by the server seed. Once
the server reveals its seed, anyone can recompute the hands and check the commitment, in any
language, from the specification alone. Everything here is pure except :func:`new_server_seed`,
which reads the operating system's cryptographic generator.

``random.shuffle`` stays for bots, tests and benchmarks, where nobody needs a proof.
"""

from __future__ import annotations

import hashlib
import hmac
import random
import re
import secrets
from collections.abc import Iterator, Sequence
from itertools import chain
from typing import Any, Final, NamedTuple

from .cards import TWOS_MASK, mask_of

SCHEME = "tienlen-deal/1"
"""The scheme's name, written in records and mixed into every HMAC message."""
SERVER_SEED_BYTES = 32
MAX_CLIENT_SEED_BYTES = 256
MAX_DEAL_INDEX = 2**32 - 1
HAND_SIZE = 13
DECK_SIZE = 52

_DOMAIN = SCHEME.encode("ascii") + b"\x00"
_HEX_RE = re.compile(r"(?:[0-9a-f]{2})*")
# For a draw below n from one byte: accept only bytes below the largest multiple of n that
# fits in 256, so every remainder is equally likely (no modulo bias).
_BYTE_LIMITS = [0] + [256 - 256 % n for n in range(1, 257)]
# Each step of the shuffle: position i, the draw's bound n = i + 1, and "is this byte accepted".
_STEPS = [(i, i + 1, _BYTE_LIMITS[i + 1].__gt__) for i in range(51, 0, -1)]


class DealError(ValueError):
    """A seed, a list of client seeds or a deal parameter the scheme refuses."""


class Deal(NamedTuple):
    """The hands a game is played with and which deal index produced them."""

    hands: list[int]
    deal_index: int
    """0 unless four 2s in one hand forced a redeal (``redeal_four_twos``)."""


def new_server_seed() -> bytes:
    """A fresh secret server seed: 32 bytes from the operating system's CSPRNG."""
    return secrets.token_bytes(SERVER_SEED_BYTES)


def check_server_seed(server_seed: bytes) -> None:
    if not isinstance(server_seed, bytes | bytearray):
        raise DealError(f"the server seed must be bytes, not {type(server_seed).__name__}")
    if len(server_seed) != SERVER_SEED_BYTES:
        raise DealError(
            f"the server seed must be exactly {SERVER_SEED_BYTES} bytes, not {len(server_seed)}"
        )


def check_client_seeds(client_seeds: Sequence[bytes], n_players: int | None = None) -> None:
    """Client seeds: none at all, or (when ``n_players`` is given) exactly one per seat."""
    if isinstance(client_seeds, bytes | bytearray | str):
        raise DealError("client seeds must be a list of byte strings, one per seat")
    if n_players is not None and len(client_seeds) not in (0, n_players):
        raise DealError(
            f"there must be no client seeds or one per seat ({n_players}), not {len(client_seeds)}"
        )
    if len(client_seeds) > 4:
        raise DealError(f"at most 4 client seeds (one per seat), not {len(client_seeds)}")
    for seat, seed in enumerate(client_seeds):
        if not isinstance(seed, bytes | bytearray):
            raise DealError(f"client seed {seat} must be bytes, not {type(seed).__name__}")
        if len(seed) > MAX_CLIENT_SEED_BYTES:
            raise DealError(
                f"client seed {seat} is {len(seed)} bytes; at most {MAX_CLIENT_SEED_BYTES}"
            )


def check_players(n_players: int) -> None:
    if isinstance(n_players, bool) or not isinstance(n_players, int) or not 2 <= n_players <= 4:
        raise DealError(f"Tiến Lên is dealt to 2 to 4 players, not {n_players!r}")


def check_deal_index(deal_index: int) -> None:
    if isinstance(deal_index, bool) or not isinstance(deal_index, int):
        raise DealError(f"the deal index must be a whole number, not {deal_index!r}")
    if not 0 <= deal_index <= MAX_DEAL_INDEX:
        raise DealError(f"the deal index must be 0 to {MAX_DEAL_INDEX}, not {deal_index}")


def commitment(server_seed: bytes) -> str:
    """The commitment published before the deal: SHA-256 of the server seed, lowercase hex."""
    check_server_seed(server_seed)
    return hashlib.sha256(server_seed).hexdigest()


def message_prefix(client_seeds: Sequence[bytes], deal_index: int) -> bytes:
    """Every HMAC message of one deal starts with these bytes (docs/FAIRNESS.md, "Stream").

    ``"tienlen-deal/1" 0x00``, the number of client seeds (u32 big-endian), each client seed as
    its length (u32 big-endian) then its bytes, and the deal index (u32 big-endian).
    """
    check_client_seeds(client_seeds)
    check_deal_index(deal_index)
    parts = [_DOMAIN, len(client_seeds).to_bytes(4, "big")]
    for seed in client_seeds:
        parts += [len(seed).to_bytes(4, "big"), bytes(seed)]
    parts.append(deal_index.to_bytes(4, "big"))
    return b"".join(parts)


def stream_block(
    server_seed: bytes, client_seeds: Sequence[bytes], deal_index: int, counter: int
) -> bytes:
    """Block ``counter`` (from 0) of a deal's byte stream: 32 bytes of HMAC-SHA256."""
    check_server_seed(server_seed)
    if isinstance(counter, bool) or not isinstance(counter, int) or not 0 <= counter < 2**64:
        raise DealError(f"the block counter must be 0 to 2**64 - 1, not {counter!r}")
    message = message_prefix(client_seeds, deal_index) + counter.to_bytes(8, "big")
    return hmac.digest(bytes(server_seed), message, "sha256")


def byte_stream(
    server_seed: bytes, client_seeds: Sequence[bytes] = (), deal_index: int = 0
) -> Iterator[int]:
    """The deal's bytes, one int 0–255 at a time: block 0, then block 1, and so on."""
    check_server_seed(server_seed)
    return chain.from_iterable(
        _blocks(bytes(server_seed), message_prefix(client_seeds, deal_index))
    )


def _blocks(key: bytes, prefix: bytes) -> Iterator[bytes]:
    counter = 0
    while True:
        yield hmac.digest(key, prefix + counter.to_bytes(8, "big"), "sha256")
        counter += 1


def draw_below(n: int, stream: Iterator[int]) -> int:
    """A uniform integer in ``0 .. n-1`` (1 ≤ n ≤ 256) from the next bytes of ``stream``.

    A byte ``b`` is accepted when ``b < 256 - 256 % n`` and gives ``b % n``; a larger byte is
    rejected and the next one is read. Rejection is what keeps the draw unbiased.
    """
    if not 1 <= n <= 256:
        raise DealError(f"a one-byte draw needs a bound n from 1 to 256, not {n}")
    limit = _BYTE_LIMITS[n]
    for byte in stream:
        if byte < limit:
            return byte % n
    raise DealError("the byte stream ended before a draw was accepted")


def shuffle_with(stream: Iterator[int]) -> list[int]:
    """Fisher–Yates over the deck 0..51, from the top: for i = 51 down to 1, swap i and a draw.

    ``deck[i]`` is swapped with ``deck[draw_below(i + 1)]``, so every one of the 52! orders is
    equally likely given unbiased draws.
    """
    deck = list(range(DECK_SIZE))
    try:
        for i, n, below_limit in _STEPS:
            # draw_below(n, stream), inlined: filter() skips rejected bytes without running a
            # line of Python per byte, so checking 100,000 deals takes seconds, not minutes.
            j = next(filter(below_limit, stream)) % n
            deck[i], deck[j] = deck[j], deck[i]
    except StopIteration:
        raise DealError("the byte stream ended before a draw was accepted") from None
    return deck


def shuffled_deck(
    server_seed: bytes, client_seeds: Sequence[bytes] = (), deal_index: int = 0
) -> list[int]:
    """The whole deck after the shuffle of deal ``deal_index``: position → card."""
    return shuffle_with(byte_stream(server_seed, client_seeds, deal_index))


def hands_from_deck(deck: Sequence[int], n_players: int) -> list[int]:
    """Seat ``s`` gets deck positions ``13*s`` to ``13*s + 12``; the rest stays undealt."""
    check_players(n_players)
    return [mask_of(deck[s * HAND_SIZE : (s + 1) * HAND_SIZE]) for s in range(n_players)]


def deal_hands(
    server_seed: bytes,
    client_seeds: Sequence[bytes],
    n_players: int,
    deal_index: int = 0,
) -> list[int]:
    """The hands (card masks, seat 0 first) of deal ``deal_index`` for 2–4 players."""
    check_players(n_players)
    check_server_seed(server_seed)
    check_client_seeds(client_seeds, n_players)
    return hands_from_deck(shuffled_deck(server_seed, client_seeds, deal_index), n_players)


def needs_redeal(hands: Sequence[int]) -> bool:
    """Whether a hand holds all four 2s, which ``redeal_four_twos`` deals again."""
    return any(hand & TWOS_MASK == TWOS_MASK for hand in hands)


def deal_game(
    server_seed: bytes,
    client_seeds: Sequence[bytes],
    n_players: int,
    *,
    redeal_four_twos: bool = False,
) -> Deal:
    """The deal a game is played with: deal 0, or under ``redeal_four_twos`` the first deal
    index (0, 1, 2 …) in which no hand holds all four 2s. This is what a table calls.
    """
    deal_index = 0
    while True:
        hands = deal_hands(server_seed, client_seeds, n_players, deal_index)
        if not (redeal_four_twos and needs_redeal(hands)):
            return Deal(hands, deal_index)
        deal_index += 1  # check_deal_index stops this after 2**32 deals; never reached


def seed_hex(seed: bytes) -> str:
    """A seed as records write it: lowercase hex."""
    return bytes(seed).hex()


def seed_from_hex(text: Any, what: str) -> bytes:
    """Bytes from lowercase hex (an even number of digits ``0-9a-f``); ``what`` names it."""
    if not isinstance(text, str):
        raise DealError(f"{what} must be a string of lowercase hex digits")
    if _HEX_RE.fullmatch(text) is None:
        if len(text) % 2:
            raise DealError(f"{what} has an odd number of hex digits ({len(text)})")
        bad = next(ch for ch in text if ch not in "0123456789abcdef")
        raise DealError(f"{what} must be lowercase hex digits 0-9a-f, not {bad!r}")
    return bytes.fromhex(text)


def deal_field(server_seed: bytes, client_seeds: Sequence[bytes] = ()) -> dict[str, Any]:
    """The ``deal`` object of a game record, with the server seed revealed."""
    check_server_seed(server_seed)
    check_client_seeds(client_seeds)
    return {
        "scheme": SCHEME,
        "commitment": commitment(server_seed),
        "server_seed": seed_hex(server_seed),
        "client_seeds": [seed_hex(s) for s in client_seeds],
    }


_CARD_BITS: Final = tuple(1 << card for card in range(52))
_SHUFFLE_STEPS: Final = tuple((i, i + 1, (i + 1).bit_length()) for i in range(DECK_SIZE - 1, 0, -1))
"""``random.Random.shuffle`` of the deck, step by step: swap position i with a draw below n,
drawn as ``getrandbits(k)`` until below n (what ``Random._randbelow`` does)."""


def random_deal(
    n_players: int, rng: random.Random | None = None, seed: int | None = None
) -> list[int]:
    """A quick deal with :mod:`random`, for bots' sampling, tests and benchmarks — never for
    a table, whose deal must be verifiable (:func:`deal_game`). Hands as masks, dealt in
    blocks of 13 like :func:`hands_from_deck`; ``seed`` or ``rng`` make it reproducible.
    """
    if not 2 <= n_players <= 4:
        raise ValueError(f"Tiến Lên is played by 2 to 4 players, not {n_players}")
    if rng is None:
        rng = random.Random(seed)
    # Shuffling the cards' bits deals the very hands shuffling the cards would (the same
    # permutation), and a hand is then the sum of its 13 distinct bits: no loop over cards.
    deck = list(_CARD_BITS)
    if type(rng) is random.Random:
        # rng.shuffle(deck) written out, the same draws in the same order (tests/test_deal.py
        # checks it against rng.shuffle): without a Python call per card.
        getrandbits = rng.getrandbits
        for i, n, k in _SHUFFLE_STEPS:
            j = getrandbits(k)
            while j >= n:
                j = getrandbits(k)
            deck[i], deck[j] = deck[j], deck[i]
    else:
        rng.shuffle(deck)  # a subclass may draw otherwise
    return [sum(deck[s * HAND_SIZE : (s + 1) * HAND_SIZE]) for s in range(n_players)]


def deal_for_game(
    n_players: int,
    redeal_four_twos: bool,
    *,
    seed: int | None = None,
    rng: random.Random | None = None,
    secure: bool = False,
    server_seed: bytes | None = None,
    client_seeds: Sequence[bytes] = (),
) -> tuple[list[int], dict[str, Any] | None]:
    """The hands of a new game and its ``deal`` field (None for a quick deal): what
    ``Game.new`` deals, with the same arguments. A verifiable deal (``secure`` or a
    ``server_seed``) takes no ``seed`` or ``rng``; a quick deal takes no client seeds; four 2s
    in one hand are dealt again when ``redeal_four_twos``."""
    if secure or server_seed is not None:
        if seed is not None or rng is not None:
            raise ValueError("a verifiable deal comes from seeds, not from a random generator")
        server_seed = new_server_seed() if server_seed is None else server_seed
        dealt = deal_game(server_seed, client_seeds, n_players, redeal_four_twos=redeal_four_twos)
        return dealt.hands, deal_field(server_seed, client_seeds)
    if client_seeds:
        raise ValueError("client seeds need a verifiable deal (secure or server_seed)")
    if rng is None:
        rng = random.Random(seed)
    hands = random_deal(n_players, rng)
    while redeal_four_twos and needs_redeal(hands):
        hands = random_deal(n_players, rng)
    return hands, None
