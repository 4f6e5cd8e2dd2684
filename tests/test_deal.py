"""The verifiable deal (engine/deal.py, engine/verify.py, ``tienlen verify``) and docs/FAIRNESS.md.

The known-answer vectors are read from the page itself, so the code and the specification
cannot drift apart; a second, deliberately plain implementation written from the page checks
the code on random seeds; tampering with any part of a record is caught and named; and a
chi-square test over 100,000 deals finds no position bias while the same statistic flags the
two classic shuffle mistakes.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import random
import re
import statistics
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner, Result

from tienlen.cli.app import app, replay_summary
from tienlen.engine import deal as D
from tienlen.engine.cards import FULL_DECK, mask_ascii, parse_mask
from tienlen.engine.game import Game
from tienlen.engine.record import RecordError, record_of
from tienlen.engine.rules import RuleSet
from tienlen.engine.verify import verify_record

DOC = Path(__file__).resolve().parents[1] / "docs" / "FAIRNESS.md"
DOC_TEXT = DOC.read_text(encoding="utf-8")


def doc_vectors() -> list[dict[str, Any]]:
    blocks = re.findall(r"<!-- vector -->\s*```json\n(.*?)\n```", DOC_TEXT, re.DOTALL)
    return [json.loads(block) for block in blocks]


def doc_block(label: str, kind: str = "json") -> str:
    match = re.search(rf"<!-- example: {label} -->\s*```{kind}\n(.*?)\n```", DOC_TEXT, re.DOTALL)
    assert match, f"no '{label}' example in docs/FAIRNESS.md"
    return match.group(1)


VECTORS = doc_vectors()


def unhex(values: list[str]) -> list[bytes]:
    return [bytes.fromhex(v) for v in values]


# --- known-answer vectors (docs/FAIRNESS.md) -------------------------------------------------


def test_the_page_holds_the_three_vectors() -> None:
    assert len(VECTORS) == 3
    assert [v["players"] for v in VECTORS] == [4, 2, 4]
    assert [v["deal_index"] for v in VECTORS] == [0, 0, 1], "the last one shows a redeal"


@pytest.mark.parametrize("vector", VECTORS, ids=["four_clients", "two_players", "redeal"])
def test_known_answer_vector(vector: dict[str, Any]) -> None:
    seed = bytes.fromhex(vector["server_seed"])
    clients = unhex(vector["client_seeds"])
    n = vector["players"]
    assert D.commitment(seed) == vector["commitment"]
    assert [d["deal_index"] for d in vector["deals"]] == list(range(vector["deal_index"] + 1))
    for entry in vector["deals"]:
        k = entry["deal_index"]
        assert (D.message_prefix(clients, k) + bytes(8)).hex() == entry["message_0"]
        blocks = [D.stream_block(seed, clients, k, i).hex() for i in (0, 1)]
        assert blocks == entry["blocks"]
        stream = D.byte_stream(seed, clients, k)
        assert bytes(next(stream) for _ in range(64)).hex() == "".join(entry["blocks"])
        assert D.shuffled_deck(seed, clients, k) == entry["deck"]
        assert [mask_ascii(h) for h in D.deal_hands(seed, clients, n, k)] == entry["hands"]
    dealt = D.deal_game(seed, clients, n, redeal_four_twos=vector["redeal_four_twos"])
    assert dealt.deal_index == vector["deal_index"]
    assert [mask_ascii(h) for h in dealt.hands] == vector["hands"]


def test_the_redeal_vector_needs_the_rule() -> None:
    vector = VECTORS[2]
    seed = bytes.fromhex(vector["server_seed"])
    assert D.needs_redeal(D.deal_hands(seed, [], 4, 0))
    assert D.deal_game(seed, [], 4).deal_index == 0, "without the rule deal 0 stands"


# --- an independent implementation, written from the page ----------------------------------


def reference_deck(server_seed: bytes, client_seeds: list[bytes], k: int) -> list[int]:
    """docs/FAIRNESS.md, read literally: HMAC per block, a byte list, draws with rejection."""
    message = b"tienlen-deal/1\x00" + len(client_seeds).to_bytes(4, "big")
    for seed in client_seeds:
        message += len(seed).to_bytes(4, "big") + seed
    message += k.to_bytes(4, "big")
    stream: list[int] = []
    for i in range(8):
        block = message + i.to_bytes(8, "big")
        stream += list(hmac.new(server_seed, block, hashlib.sha256).digest())
    position = 0

    def draw(n: int) -> int:
        nonlocal position
        while True:
            b = stream[position]
            position += 1
            if b < 256 - 256 % n:
                return b % n

    deck = list(range(52))
    for i in range(51, 0, -1):
        j = draw(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


seeds = st.binary(min_size=32, max_size=32)
client_lists = st.lists(st.binary(max_size=40), min_size=4, max_size=4) | st.just([])


@settings(max_examples=60, deadline=None)
@given(server_seed=seeds, client_seeds=client_lists, k=st.integers(0, 2**32 - 1))
def test_the_code_matches_a_plain_reading_of_the_page(
    server_seed: bytes, client_seeds: list[bytes], k: int
) -> None:
    assert D.shuffled_deck(server_seed, client_seeds, k) == reference_deck(
        server_seed, client_seeds, k
    )


@settings(max_examples=60, deadline=None)
@given(server_seed=seeds, n=st.integers(2, 4), data=st.data())
def test_every_deal_is_thirteen_cards_a_seat_and_no_card_twice(
    server_seed: bytes, n: int, data: st.DataObject
) -> None:
    clients = data.draw(st.lists(st.binary(max_size=8), min_size=n, max_size=n) | st.just([]))
    hands = D.deal_hands(server_seed, clients, n)
    assert len(hands) == n and all(h.bit_count() == 13 for h in hands)
    union = 0
    for hand in hands:
        assert union & hand == 0
        union |= hand
    assert union & ~FULL_DECK == 0 and union.bit_count() == 13 * n
    deck = D.shuffled_deck(server_seed, clients)
    assert sorted(deck) == list(range(52))
    assert hands == D.deal_hands(server_seed, clients, n), "the same seeds deal the same"


def test_every_input_changes_the_deal() -> None:
    seed = bytes(range(32))
    base = D.shuffled_deck(seed, [b"a", b"b"])
    assert D.shuffled_deck(bytes(31) + b"\x01", [b"a", b"b"]) != base
    assert D.shuffled_deck(seed, [b"a", b"c"]) != base
    assert D.shuffled_deck(seed, [b"b", b"a"]) != base, "seat order matters"
    assert D.shuffled_deck(seed, [b"ab", b""]) != base, "lengths are part of the message"
    assert D.shuffled_deck(seed, []) != D.shuffled_deck(seed, [b"", b""])
    assert D.shuffled_deck(seed, [b"a", b"b"], 1) != base
    # Fewer players take a prefix of the same deck: the shuffle does not depend on them.
    four = D.deal_hands(seed, [], 4)
    assert D.deal_hands(seed, [], 2) == four[:2] and D.deal_hands(seed, [], 3) == four[:3]


def test_new_server_seeds_are_fresh_32_bytes() -> None:
    first, second = D.new_server_seed(), D.new_server_seed()
    assert len(first) == len(second) == 32 and first != second


# --- rejection sampling -----------------------------------------------------------------------


@pytest.mark.parametrize("n", range(1, 257))
def test_a_draw_accepts_exactly_the_bytes_below_the_limit(n: int) -> None:
    limit = 256 - 256 % n
    assert limit % n == 0 and 256 - n < limit <= 256
    assert D.draw_below(n, iter([limit - 1])) == n - 1
    assert D.draw_below(n, iter([0])) == 0
    if limit < 256:
        # Every byte from the limit up is thrown away; the next acceptable byte decides.
        assert D.draw_below(n, iter([*range(limit, 256), 5 % limit])) == (5 % limit) % n
        with pytest.raises(D.DealError, match="stream ended"):
            D.draw_below(n, iter(range(limit, 256)))
    # Each result comes from exactly limit / n accepted bytes: no modulo bias.
    counts = Counter(D.draw_below(n, iter([b])) for b in range(limit))
    assert set(counts.values()) == {limit // n} and len(counts) == n


def test_draw_for_52_rejects_208_to_255() -> None:
    assert D.draw_below(52, iter([207])) == 51
    assert D.draw_below(52, iter([208, 255, 52])) == 0
    with pytest.raises(D.DealError, match="not 0"):
        D.draw_below(0, iter([0]))
    with pytest.raises(D.DealError, match="not 257"):
        D.draw_below(257, iter([0]))


def test_the_shuffle_reads_one_accepted_byte_per_position_from_the_top() -> None:
    # All zeros: deck[i] swaps with deck[0] for i = 51 … 1, which rotates the deck by one.
    rotated = [*range(1, 52), 0]
    assert D.shuffle_with(iter([0] * 51)) == rotated
    # The same with a rejected byte (the limit itself) before each draw that has one.
    crafted: list[int] = []
    for n in range(52, 1, -1):
        limit = 256 - 256 % n
        crafted += [limit, 0] if limit < 256 else [0]
    assert D.shuffle_with(iter(crafted)) == rotated
    # Largest accepted byte: j = i every time, so nothing moves.
    top = [256 - 256 % n - 1 for n in range(52, 1, -1)]
    assert D.shuffle_with(iter(top)) == list(range(52))
    with pytest.raises(D.DealError, match="stream ended"):
        D.shuffle_with(iter([0] * 50))


# --- bad inputs -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: D.commitment(bytes(31)), "exactly 32 bytes, not 31"),
        (lambda: D.commitment("00" * 32), "must be bytes, not str"),
        (lambda: D.deal_hands(bytes(32), [], 5), "2 to 4 players, not 5"),
        (lambda: D.deal_hands(bytes(32), [b"x"], 2), "no client seeds or one per seat (2), not 1"),
        (lambda: D.deal_hands(bytes(32), b"ab", 2), "a list of byte strings"),
        (lambda: D.deal_hands(bytes(32), ["ab", "cd"], 2), "client seed 0 must be bytes"),
        (lambda: D.deal_hands(bytes(32), [b"", bytes(257)], 2), "client seed 1 is 257 bytes"),
        (lambda: D.shuffled_deck(bytes(32), [b""] * 5), "at most 4 client seeds"),
        (lambda: D.deal_hands(bytes(32), [], 4, -1), "deal index must be 0 to"),
        (lambda: D.deal_hands(bytes(32), [], 4, 2**32), "deal index must be 0 to"),
        (lambda: D.deal_hands(bytes(32), [], 4, True), "deal index must be a whole number"),
        (lambda: D.stream_block(bytes(32), [], 0, 2**64), "block counter must be 0 to 2**64 - 1"),
        (lambda: D.seed_from_hex("ABCD", "server_seed"), "lowercase hex digits 0-9a-f, not 'A'"),
        (lambda: D.seed_from_hex("abc", "server_seed"), "odd number of hex digits (3)"),
        (lambda: D.seed_from_hex(12, "commitment"), "commitment must be a string"),
    ],
)
def test_bad_inputs_are_refused_with_a_precise_message(
    call: Callable[[], object], message: str
) -> None:
    with pytest.raises(D.DealError) as info:
        call()
    assert isinstance(info.value, ValueError)
    assert message in str(info.value)


# --- verifying records ----------------------------------------------------------------------


def doc_record() -> dict[str, Any]:
    record: dict[str, Any] = json.loads(doc_block("record"))
    return record


def codes(data: dict[str, Any]) -> list[str]:
    return [m.code for m in verify_record(data).mismatches]


def test_the_documented_record_verifies_and_replays() -> None:
    record = doc_record()
    assert record["deal"]["server_seed"] == VECTORS[0]["server_seed"]
    assert record["hands"] == VECTORS[0]["hands"]
    result = verify_record(record)
    assert result.ok and result.deal_index == 0 and result.redealt == []
    assert replay_summary(record)["over"] is False, "the example is a valid record"


def test_a_record_written_by_the_engine_verifies() -> None:
    """What a table will do: deal from seeds, play, write the record with its deal field."""
    rules = RuleSet.preset("bigfun", redeal_four_twos=True)
    server_seed, clients = bytes.fromhex(VECTORS[2]["server_seed"]), []
    dealt = D.deal_game(server_seed, clients, 4, redeal_four_twos=rules.redeal_four_twos)
    game = Game(rules, dealt.hands)
    game.deal = D.deal_field(server_seed, clients)
    game.apply_action(game.legal_actions()[-1])
    data = record_of(game).to_dict()
    assert data["deal"]["commitment"] == VECTORS[2]["commitment"]
    result = verify_record(data)
    assert result.ok and result.deal_index == 1
    assert result.redealt == ["deal 0: seat 2 held all four 2s"]
    # The same record under a rule set without redeals expects deal 0 and says so, seat by seat.
    data["ruleset"] = "bigfun"
    assert codes(data) == ["hand_mismatch"] * 4


def test_a_card_swapped_between_seats_is_named() -> None:
    record = doc_record()
    hands = [parse_mask(h) for h in record["hands"]]
    three_c, four_c = parse_mask("3c"), parse_mask("4c")
    record["hands"][0] = mask_ascii(hands[0] ^ four_c | three_c)
    record["hands"][1] = mask_ascii(hands[1] ^ three_c | four_c)
    result = verify_record(record)
    assert [(m.code, m.seat, m.missing, m.extra) for m in result.mismatches] == [
        ("hand_mismatch", 0, four_c, three_c),
        ("hand_mismatch", 1, three_c, four_c),
    ]
    assert result.mismatches[0].to_dict() == {
        "code": "hand_mismatch",
        "message": "seat 0: the seeds deal 4c that the record's hand lacks; "
        "the record's hand has 3c that the seeds do not deal it",
        "seat": 0,
        "missing": "4c",
        "extra": "3c",
    }


def test_a_missing_card_or_an_extra_card_is_named() -> None:
    record = doc_record()
    record["hands"][2] = record["hands"][2].replace(" 2c", "")
    record["hands"][3] += " 2c"
    result = verify_record(record)
    assert [m.message for m in result.mismatches] == [
        "seat 2: the seeds deal 2c that the record's hand lacks",
        "seat 3: the record's hand has 2c that the seeds do not deal it",
    ]


def test_a_changed_server_seed_is_caught_even_with_a_matching_commitment() -> None:
    record = doc_record()
    record["deal"]["server_seed"] = "01" + record["deal"]["server_seed"][2:]
    assert codes(record) == ["commitment_mismatch"] + ["hand_mismatch"] * 4
    forged = bytes.fromhex(record["deal"]["server_seed"])
    record["deal"]["commitment"] = D.commitment(forged)
    assert codes(record) == ["hand_mismatch"] * 4


def test_a_changed_client_seed_is_caught() -> None:
    record = doc_record()
    record["deal"]["client_seeds"][2] = "00"
    assert codes(record) == ["hand_mismatch"] * 4
    del record["deal"]["client_seeds"]
    assert codes(record) == ["hand_mismatch"] * 4


def test_a_changed_commitment_is_caught_and_both_hashes_shown() -> None:
    record = doc_record()
    record["deal"]["commitment"] = record["deal"]["commitment"][:-1] + "e"
    (mismatch,) = verify_record(record).mismatches
    assert mismatch.code == "commitment_mismatch"
    assert mismatch.message == (
        f"SHA-256 of server_seed is {VECTORS[0]['commitment']}, "
        f"not the commitment {record['deal']['commitment']}"
    )


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (lambda r: r.pop("deal"), [("no_deal", "the record has no deal field")]),
        (lambda r: r.update(deal="x"), [("bad_deal", "deal must be an object")]),
        (
            lambda r: r["deal"].update(scheme="tienlen-deal/2"),
            [("unknown_scheme", "names the scheme 'tienlen-deal/2'")],
        ),
        (lambda r: r["deal"].pop("scheme"), [("unknown_scheme", "the deal has no scheme")]),
        (
            lambda r: r["deal"].pop("server_seed"),
            [("missing_server_seed", "revealed only after the game")],
        ),
        (
            lambda r: r["deal"].update(server_seed="00" * 31),
            [("bad_server_seed", "32 bytes (64 hex digits), not 31")],
        ),
        (
            lambda r: r["deal"].update(server_seed=r["deal"]["server_seed"].upper()),
            [("bad_server_seed", "lowercase hex digits 0-9a-f, not 'A'")],
        ),
        (lambda r: r["deal"].pop("commitment"), [("missing_commitment", "no commitment")]),
        (
            lambda r: r["deal"].update(commitment="ab"),
            [("bad_commitment", "64 hex digits")],
        ),
        (
            lambda r: r["deal"].update(client_seeds=["00"]),
            [("bad_client_seeds", "no client seeds or one per seat (4), not 1")],
        ),
        (
            lambda r: r["deal"].update(client_seeds="00"),
            [("bad_client_seeds", "client_seeds must be a list")],
        ),
        (
            lambda r: r["deal"]["client_seeds"].__setitem__(1, "0g"),
            [("bad_client_seeds", "client_seeds[1] must be lowercase hex")],
        ),
        (
            lambda r: r["deal"].update(commitment="00" * 32, server_seed=None, client_seeds=5),
            [
                ("bad_server_seed", "server_seed must be a string"),
                ("bad_client_seeds", "client_seeds must be a list"),
            ],
        ),
    ],
)
def test_every_problem_with_the_deal_field_is_listed(
    change: Callable[[dict[str, Any]], object], expected: list[tuple[str, str]]
) -> None:
    record = doc_record()
    change(record)
    result = verify_record(record)
    assert not result.ok
    assert [m.code for m in result.mismatches] == [code for code, _ in expected]
    for mismatch, (_, message) in zip(result.mismatches, expected, strict=True):
        assert message in mismatch.message


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([], "a game record is a JSON object"),
        ({"deal": {}}, "hands must be a list of 2 to 4 hands"),
        ({"hands": ["3s", "4x"]}, "hands[1]: not a card: '4x'"),
        ({"hands": ["3s", 4]}, "hands[1] must be a string or a list of card names"),
        ({"hands": ["3s", "4s"], "ruleset": "tlmn"}, "ruleset: unknown rule preset 'tlmn'"),
    ],
)
def test_a_record_that_cannot_be_read_is_an_error(data: Any, message: str) -> None:
    with pytest.raises(RecordError) as info:
        verify_record(data)
    assert message in str(info.value)


# --- tienlen verify ---------------------------------------------------------------------------


def verify_cli(*args: str, stdin: str | None = None) -> Result:
    return CliRunner().invoke(app, ["verify", *args], input=stdin)


def test_cli_prints_the_documented_confirmation(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(doc_block("record"), encoding="utf-8")
    result = verify_cli(str(path))
    assert result.exit_code == 0, result.output
    assert result.stdout.strip() == doc_block("ok", "text")


def test_cli_lists_the_documented_mismatches() -> None:
    record = doc_record()
    record["hands"][0] = record["hands"][0].replace("4c", "3c")
    record["hands"][1] = record["hands"][1].replace("3c", "4c")
    record["deal"]["commitment"] = record["deal"]["commitment"][:-1] + "e"
    result = verify_cli("-", stdin=json.dumps(record))
    assert result.exit_code == 1
    assert result.stdout.strip() == doc_block("mismatch", "text")
    assert result.stderr == ""


def test_cli_json_output() -> None:
    result = verify_cli("--json", "-", stdin=json.dumps(doc_record()))
    assert result.exit_code == 0
    out = json.loads(result.stdout)
    assert out["ok"] is True and out["line"] is None and out["mismatches"] == []
    assert out["hands"] == VECTORS[0]["hands"] and out["commitment"] == VECTORS[0]["commitment"]


def test_cli_says_when_the_game_was_redealt() -> None:
    vector = VECTORS[2]
    record = {
        "ruleset": {"preset": "bigfun", "overrides": {"redeal_four_twos": True}},
        "hands": vector["hands"],
        "deal": D.deal_field(bytes.fromhex(vector["server_seed"])),
    }
    result = verify_cli("-", stdin=json.dumps(record))
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("OK: the hands are deal 1 of the revealed seeds, ")
    assert result.stdout.rstrip().endswith("(redealt: deal 0: seat 2 held all four 2s)")


def test_cli_json_lists_a_mismatch_without_a_seat() -> None:
    record = doc_record()
    del record["deal"]["server_seed"]
    result = verify_cli("--json", "-", stdin=json.dumps(record))
    assert result.exit_code == 1
    out = json.loads(result.stdout)
    assert out["ok"] is False and out["hands"] is None and out["deal_index"] is None
    assert out["mismatches"] == [
        {
            "code": "missing_server_seed",
            "message": "the deal has no server_seed (it is revealed only after the game)",
        }
    ]


def test_cli_reads_json_lines_and_exits_with_the_worst_outcome() -> None:
    good = json.dumps(doc_record())
    tampered = doc_record()
    tampered["deal"]["client_seeds"][0] = "01"
    lines = [good, "", json.dumps(tampered)]
    result = verify_cli("-", stdin="\n".join(lines) + "\n")
    assert result.exit_code == 1
    out = result.stdout.splitlines()
    assert len(out) == 5 and out[0].startswith("line 1: OK: ")
    for seat, line in enumerate(out[1:]):
        assert line.startswith(f"line 3: Mismatch: seat {seat}: the seeds deal ")
    result = verify_cli("--json", "-", stdin="\n".join([*lines, '{"hands": 1}', "{"]))
    assert result.exit_code == 2
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert [(row["line"], row.get("ok"), row.get("error", {}).get("code")) for row in rows] == [
        (1, True, None),
        (3, False, None),
        (4, None, "bad_record"),
        (5, None, "bad_json"),
    ]


@pytest.mark.parametrize(
    ("stdin", "message"),
    [
        ("not json", "Error: not JSON"),
        ("[" * 100_000, "Error: not JSON this engine reads: nested too deep"),
        ("", "Error: not JSON"),
        ("[1, 2]", "Error: a game record is a JSON object"),
        ('{"hands": ["3s", "3s 3s"]}', "Error: hands[1]: card 3♠ is written twice"),
    ],
)
def test_cli_exits_2_on_an_unreadable_record(stdin: str, message: str) -> None:
    result = verify_cli("-", stdin=stdin)
    assert result.exit_code == 2
    assert result.stdout == "" and result.stderr.startswith(message)
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_cli_json_errors_write_cards_in_ascii() -> None:
    result = verify_cli("--json", "-", stdin='{"hands": ["3s", "3s 3s"]}')
    assert result.exit_code == 2
    error = json.loads(result.stdout)["error"]
    assert error == {"code": "bad_record", "message": "hands[1]: card 3s is written twice"}


def test_cli_reads_a_jsonl_file_by_lines_and_refuses_text_that_only_looks_like_lines(
    tmp_path: Path,
) -> None:
    path = tmp_path / "one.jsonl"
    path.write_text(json.dumps(doc_record()) + "\n", encoding="utf-8")
    result = verify_cli(str(path))
    assert result.exit_code == 0 and result.stdout.startswith("line 1: OK: ")
    # Several values whose first line is not JSON on its own: one bad record, not lines.
    pretty = json.dumps(doc_record(), indent=2)
    result = verify_cli("-", stdin=pretty + "\n" + pretty)
    assert result.exit_code == 2 and result.stderr.startswith("Error: not JSON: Extra data")


def test_cli_exits_2_on_a_missing_file_or_bad_bytes(tmp_path: Path) -> None:
    result = verify_cli(str(tmp_path / "nowhere.json"))
    assert result.exit_code == 2 and result.stderr.startswith("Error: ")
    path = tmp_path / "latin1.json"
    path.write_bytes(b'{"hands": ["\xe9"]}')
    result = verify_cli("--json", str(path))
    assert result.exit_code == 2
    error = json.loads(result.stdout)["error"]
    assert error["code"] == "io_error" and error["message"].startswith("not UTF-8 text")


def test_every_mismatch_code_is_documented() -> None:
    source = (Path(D.__file__).parent / "verify.py").read_text(encoding="utf-8")
    found = set(re.findall(r'Mismatch\(\s*"([a-z_]+)"', source))
    assert len(found) >= 10
    for code in found:
        assert f"`{code}`" in DOC_TEXT, f"docs/FAIRNESS.md does not explain {code}"


# --- no position bias: chi-square over 100,000 deals -----------------------------------------

POSITIONS = 52


def chi_square_critical(df: int, p: float = 1e-6) -> float:
    """Upper ``p`` quantile of chi-square with ``df`` degrees of freedom (Wilson–Hilferty)."""
    z = statistics.NormalDist().inv_cdf(1 - p)
    a = 2 / (9 * df)
    return df * (1 - a + z * a**0.5) ** 3


def position_statistic(decks: bytes, deals: int) -> float:
    """Pearson's statistic of the card × position table, scaled by 51/52.

    Each deal is a permutation, so every row and column of the table sums to ``deals``; for a
    uniform shuffle the covariance of the table is that of 51/52 × chi-square with 51² degrees
    of freedom, and the scaled statistic follows chi-square(2601).
    """
    expected = deals / POSITIONS
    total = 0.0
    for position in range(POSITIONS):
        counts = Counter(decks[position::POSITIONS])
        total += sum((counts.get(card, 0) - expected) ** 2 for card in range(52)) / expected
    return total * 51 / 52


def seat_statistic(decks: bytes, deals: int) -> float:
    """The same for the card × seat table of four players (chi-square(51 × 3))."""
    expected = deals * 13 / 52
    total = 0.0
    for seat in range(4):
        counts: Counter[int] = Counter()
        for position in range(13 * seat, 13 * seat + 13):
            counts.update(decks[position::POSITIONS])
        total += sum((counts.get(card, 0) - expected) ** 2 for card in range(52)) / expected
    return total * 51 / 52


def decks_of(shuffle: Callable[[Iterator[int]], list[int]], deals: int) -> bytes:
    """``deals`` shuffles, server seed ``SHA-256(u64(t))`` for deal ``t``, as FAIRNESS.md says."""
    out = bytearray()
    for t in range(deals):
        seed = hashlib.sha256(t.to_bytes(8, "big")).digest()
        out += bytes(shuffle(D.byte_stream(seed)))
    return bytes(out)


@pytest.fixture(scope="module")
def hundred_thousand_decks() -> bytes:
    return decks_of(D.shuffle_with, 100_000)


def test_no_card_favours_a_position(hundred_thousand_decks: bytes) -> None:
    statistic = position_statistic(hundred_thousand_decks, 100_000)
    assert statistic < chi_square_critical(51 * 51)  # about 2958; the mean is 2601
    assert statistic > 2601 - 6 * (2 * 2601) ** 0.5, "too uniform to be random"
    assert f"The code scores {statistic:,.0f};" in DOC_TEXT


def test_no_card_favours_a_seat(hundred_thousand_decks: bytes) -> None:
    statistic = seat_statistic(hundred_thousand_decks, 100_000)
    assert statistic < chi_square_critical(51 * 3)
    assert f"card × seat scores {statistic:,.0f} against 153" in DOC_TEXT


def modulo_shuffle(stream: Iterator[int]) -> list[int]:
    """Fisher–Yates with ``byte % n`` and no rejection: biased towards small draws."""
    deck = list(range(52))
    for i in range(51, 0, -1):
        j = next(stream) % (i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def naive_shuffle(stream: Iterator[int]) -> list[int]:
    """Swap each position with any of the 52 (52^52 paths onto 52! orders): biased."""
    deck = list(range(52))
    for i in range(52):
        j = next(byte for byte in stream if byte < 208) % 52  # an unbiased draw below 52
        deck[i], deck[j] = deck[j], deck[i]
    return deck


@pytest.mark.parametrize(("shuffle", "deals"), [(modulo_shuffle, 20_000), (naive_shuffle, 10_000)])
def test_the_statistic_flags_a_biased_shuffle(
    shuffle: Callable[[Iterator[int]], list[int]], deals: int
) -> None:
    statistic = position_statistic(decks_of(shuffle, deals), deals)
    assert statistic > chi_square_critical(51 * 51)


def test_the_page_states_the_thresholds() -> None:
    assert f"quantile (about {chi_square_critical(51 * 51):,.0f})" in DOC_TEXT
    assert f"quantile about {chi_square_critical(51 * 3):,.0f})" in DOC_TEXT


# --- the quick deal (random_deal), for bots, tests and benchmarks ---------------------------
def test_the_quick_deal_draws_what_random_shuffle_draws() -> None:
    """random_deal writes ``random.Random.shuffle`` out: the same hands from the same seed, and
    the generator left in the same state (seeded games go on drawing from it)."""
    for seed in range(300):
        dealt, reference = random.Random(seed), random.Random(seed)
        hands = D.random_deal(2 + seed % 3, dealt)
        deck = list(range(52))
        reference.shuffle(deck)
        assert hands == [D.mask_of(deck[13 * s : 13 * s + 13]) for s in range(2 + seed % 3)]
        assert dealt.getstate() == reference.getstate()


def test_the_quick_deal_leaves_other_generators_to_shuffle_their_way() -> None:
    class Drawn(random.Random):
        def random(self) -> float:  # no getrandbits: Random draws below n from random()
            return super().random()

    hands = D.random_deal(4, Drawn(5))
    deck = list(range(52))
    Drawn(5).shuffle(deck)
    assert hands == [D.mask_of(deck[13 * s : 13 * s + 13]) for s in range(4)]
    assert hands != D.random_deal(4, random.Random(5))


def test_a_new_game_refuses_mixed_up_deal_arguments() -> None:
    rules = RuleSet.preset("thapthanh")
    with pytest.raises(ValueError, match=r"^a verifiable deal comes from seeds, not from a random"):
        Game.new(rules, 4, server_seed=bytes(32), seed=1)
    with pytest.raises(ValueError, match=r"^a verifiable deal comes from seeds, not from a random"):
        Game.new(rules, 4, secure=True, rng=random.Random(1))
    with pytest.raises(ValueError, match=r"^client seeds need a verifiable deal \(secure or"):
        Game.new(rules, 4, seed=1, client_seeds=[b"x"] * 4)
    quick = Game.new(rules, 4, seed=1)
    assert quick.deal is None and list(quick.initial_hands) == D.random_deal(4, seed=1)
    dealt = Game.new(rules, 4, server_seed=bytes(32), client_seeds=[b"a", b"b", b"c", b"d"])
    assert dealt.deal == D.deal_field(bytes(32), [b"a", b"b", b"c", b"d"])
    assert list(dealt.initial_hands) == D.deal_hands(bytes(32), [b"a", b"b", b"c", b"d"], 4)
