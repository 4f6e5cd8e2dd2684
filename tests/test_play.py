"""tienlen play: whole games fed from a script, errors, end of input, the lead between games."""

from __future__ import annotations

import io
import itertools
import re
from collections.abc import Callable, Iterator

import pytest
from conftest import deal, m
from rich.console import Console
from typer.testing import CliRunner

from tienlen.cli import app
from tienlen.cli.play import (
    PlayOptions,
    QuitSession,
    Session,
    card_markup,
    hint_order,
    play_session,
)
from tienlen.engine.errors import AlreadyPassed, NotYourTurn
from tienlen.engine.events import PlayerOut
from tienlen.engine.game import Game
from tienlen.engine.rules import RuleSet

runner = CliRunner()


def console(height: int = 25) -> tuple[Console, io.StringIO]:
    out = io.StringIO()
    return Console(file=out, width=120, height=height, color_system=None, highlight=False), out


def scripted(moves: Iterator[str], another: Iterator[str] | None = None) -> Callable[[str], str]:
    """Answers turn prompts from ``moves`` and "another game?" from ``another``."""

    def ask(prompt: str) -> str:
        if "another game" in prompt:
            if another is None:
                return "n"
            return next(another)
        return next(moves)

    return ask


def cycle(*words: str) -> Iterator[str]:
    while True:
        yield from words


def test_a_whole_game_played_from_input() -> None:
    con, out = console()
    options = PlayOptions(level="greedy", seed=4)
    # "1" plays the first hint when anything can be played; otherwise "p" passes.
    finished = play_session(options, scripted(cycle("1", "p")), con)
    text = out.getvalue()
    assert finished == 1
    assert "Game 1" in text and "Settlement" in text
    assert re.search(r"(You win|Bot \d \(greedy\) wins)!", text)
    assert "Total: You " in text and "Games finished: 1" in text
    assert "You play" in text


def test_several_games_follow_the_lead_rules() -> None:
    con, out = console()
    options = PlayOptions(level="random", bots=2, games=3, seed=8)
    assert play_session(options, scripted(cycle("1", "p")), con) == 3
    text = out.getvalue()
    assert text.count("Settlement") == 3
    starts = re.findall(r"Game (\d) \((first game|the last winner leads)", text)
    assert [s[0] for s in starts] == ["1", "2", "3"]
    assert starts[0][1] == "first game"
    # Each later game is led by the previous winner unless that game was an instant win.
    winners = re.findall(r"\n(You|Bot \d \(random\)) wins?!", text)
    leads = re.findall(r"— (You|Bot \d \(random\)) to lead", text)
    for game in (1, 2):
        if starts[game][1] == "the last winner leads":
            assert leads[game] == winners[game - 1]


def test_another_game_takes_only_yes_or_no() -> None:
    """A stray answer (say "p", typed out of habit) is asked again, not taken as a yes."""
    con, out = console()
    options = PlayOptions(level="greedy", bots=1, seed=4)
    finished = play_session(options, scripted(cycle("1", "p"), iter(["p", "", "maybe", "n"])), con)
    text = out.getvalue()
    assert finished == 2  # "p" asked again, Enter meant yes, "maybe" asked again, "n" stopped
    assert text.count("Please answer y (yes, có) or n (no, không).") == 2


def test_illegal_input_gets_a_clear_error_and_changes_nothing() -> None:
    rules = RuleSet.preset("thapthanh")
    game = Game(rules, deal("3s 4s 5d 9h", "6s", "7s", "8s"), first_game=False, leader=0)
    con, out = console()
    session = Session(PlayOptions(level="greedy"), scripted(iter([])), con)
    answers = iter(["zz", "3s 3s", "6s", "3s 5d", "p", "99", "h", "", "3s 4s 5d"])
    session.ask_line = lambda prompt: next(answers)
    session.human_turn(game)
    text = out.getvalue()
    assert "Not a card: 'zz'" in text
    assert "Card 3♠ is written twice." in text
    assert "You do not hold 6♠." in text  # said to the person, not about "seat 0"
    assert "3♠ 5♦ is not a combination." in text
    assert "You lead this round, so you must play: you cannot pass." in text
    assert "No hint number 99 (there are " in text
    assert "Suggestion:" in text and " 1. " in text
    assert "seat" not in text
    assert game.history[-1].cards == m("3s 4s 5d")
    assert len(game.history) == 1


def test_every_refusal_is_one_capitalised_sentence() -> None:
    rules = RuleSet.preset("thapthanh")
    game = Game(rules, deal("3s 4s 5d 9h", "6s", "7s", "8s"), first_game=False, leader=0)
    game.play(m("3s"), 0)
    game.play(m("6s"), 1)
    con, out = console()
    session = Session(PlayOptions(level="greedy"), scripted(iter([])), con)
    answers = iter(["zz", "4s", "4s 5d", "99", "6s", "h", "q"])
    replies: list[str] = []

    def ask(prompt: str) -> str:
        replies.append(out.getvalue())
        return next(answers)

    session.ask_line = ask
    game.pass_turn(2)
    game.pass_turn(3)
    with pytest.raises(QuitSession):
        session.human_turn(game)
    said = [after[len(before) :].strip() for before, after in itertools.pairwise(replies)]
    assert "p. pass (bỏ lượt)" in said.pop()  # the hints, when passing is allowed
    assert said[1:] == [
        "4♠ (single) does not beat 6♠ (single).",
        "4♠ 5♦ is not a combination.",
        "No hint number 99 (there are 7; type h to list them).",
        "You do not hold 6♠.",
    ]
    assert said[0].startswith("Not a card: 'zz' (write a rank") and said[0].endswith(".")


def test_refusals_out_of_turn_are_said_to_the_person() -> None:
    rules = RuleSet.preset("langvuichoi")
    game = Game(rules, deal("5s 5c 6s 6c 7s 7c 8s 8c 3h", "2h 3s", "4s", "9s", seed=2), leader=1)
    game = Game(rules, list(game.hands), first_game=False, leader=1)
    con, _ = console()
    session = Session(PlayOptions(preset="langvuichoi", level="greedy"), scripted(iter([])), con)
    assert session.refusal(game, NotYourTurn("it is seat 1's turn, not seat 0's"), 0) == (
        "It is Bot 1 (greedy)'s turn: only 4 consecutive pairs chopping a 2 or a bomb may "
        "play out of turn"
    )
    assert "You have already passed" in session.refusal(game, AlreadyPassed("seat 0 passed"), 0)


def test_end_of_input_and_ctrl_c_end_the_session_cleanly() -> None:
    def eof(prompt: str) -> str:
        raise EOFError

    def interrupt(prompt: str) -> str:
        raise KeyboardInterrupt

    for ask in (eof, interrupt):
        con, out = console()
        assert play_session(PlayOptions(level="greedy", seed=1), ask, con) == 0
        assert "Bye" in out.getvalue()
    con, out = console()
    assert play_session(PlayOptions(level="greedy", seed=1), scripted(iter(["q"])), con) == 0


def test_the_person_may_chop_out_of_turn() -> None:
    rules = RuleSet.preset("langvuichoi")
    hands = deal("5s 5c 6s 6c 7s 7c 8s 8c 3h", "2h 3s", "4s", "9s", seed=2)
    game = Game(rules, hands, first_game=False, leader=1)
    con, out = console()
    session = Session(PlayOptions(preset="langvuichoi", level="greedy"), scripted(iter([])), con)
    answers = iter(["7", "1"])
    session.ask_line = lambda prompt: next(answers)
    game.play(m("2h"), 1)
    assert session.offer_chop(game, game.legal_actions(0))
    text = out.getvalue()
    assert "You may chop out of turn" in text and "No chop number 7 (there are 1)." in text
    assert game.last_seat == 0 and game.last_mask == m("5s 5c 6s 6c 7s 7c 8s 8c")


def test_chop_number_zero_is_no_chop() -> None:
    """ "0" once picked the last chop on the list (index -1)."""
    rules = RuleSet.preset("langvuichoi")
    hands = deal("5s 5c 6s 6c 7s 7c 8s 8c 3h", "2h 3s", "4s", "9s", seed=2)
    game = Game(rules, hands, first_game=False, leader=1)
    con, out = console()
    session = Session(PlayOptions(preset="langvuichoi", level="greedy"), scripted(iter([])), con)
    answers = iter(["0", ""])
    session.ask_line = lambda prompt: next(answers)
    game.play(m("2h"), 1)
    assert not session.offer_chop(game, game.legal_actions(0))
    assert "No chop number 0" in out.getvalue() and game.last_seat == 1


def test_hand_display_and_hint_order() -> None:
    assert card_markup(m("2h").bit_length() - 1) == "[bold red]2♥[/]"
    assert card_markup(0) == "[bold]3♠[/]"
    hints = hint_order([0, m("4s 4c"), m("3s"), m("5s")])
    assert hints == [m("3s"), m("5s"), m("4s 4c")]


def test_options_are_checked() -> None:
    with pytest.raises(ValueError, match="1 to 3 bots"):
        PlayOptions(bots=4)
    with pytest.raises(ValueError, match="unknown bot level"):
        PlayOptions(level="genius")
    with pytest.raises(ValueError, match="at least 1"):
        PlayOptions(games=0)
    for empty in ("", "   "):
        with pytest.raises(ValueError, match="--name must not be empty"):
            PlayOptions(name=empty)


def test_a_named_person_reads_in_the_third_person() -> None:
    con, out = console()
    options = PlayOptions(level="greedy", seed=4, name="Alice")
    assert play_session(options, scripted(cycle("1", "p")), con) == 1
    text = out.getvalue()
    assert "Alice plays " in text and "Alice passes" in text
    assert not re.search(r"Alice (play|pass|are|hold|win) ", text)
    assert "Total: Alice " in text
    session = Session(PlayOptions(level="greedy", name="Alice"), scripted(iter([])), con)
    assert session.describe(PlayerOut(0, 1)) == "[bold]Alice is out (place 1)[/]"
    you = Session(PlayOptions(level="greedy", name="you"), scripted(iter([])), con)
    assert you.describe(PlayerOut(0, 1)) == "[bold]You are out (place 1)[/]"


def test_names_and_input_are_not_read_as_markup() -> None:
    """A name or a line with [brackets] is shown as typed (it once raised MarkupError)."""
    con, out = console()
    options = PlayOptions(level="greedy", seed=29, name="[red]Al[/]")
    assert play_session(options, scripted(iter(["[/]", "[bold]", "q"])), con) == 0
    text = out.getvalue()
    assert "— [red]Al[/] to lead" in text
    assert "Not a card: '[/]'" in text and "Not a card: '[bold]'" in text


def test_play_command() -> None:
    moves = "\n".join(["1", "p"] * 200)
    result = runner.invoke(
        app,
        ["play", "--level", "greedy", "--games", "1", "--seed", "2", "--bots", "1"],
        input=moves,
    )
    assert result.exit_code == 0, result.output
    assert "Settlement" in result.output
    result = runner.invoke(app, ["play", "--bots", "9"])
    assert result.exit_code == 2 and "Error: play against 1 to 3 bots" in result.output
    result = runner.invoke(app, ["play", "--name", ""])
    assert result.exit_code == 2 and "Error: --name must not be empty" in result.output
    result = runner.invoke(app, ["play", "--level", "greedy"], input="")
    assert result.exit_code == 0 and "Bye" in result.output


def test_every_event_is_described() -> None:
    from tienlen.engine.events import (
        Chop,
        Cong,
        GameOver,
        InstantWin,
        Left,
        Pass,
        Play,
        PlayerOut,
        RoundWon,
    )

    con, _ = console()
    session = Session(PlayOptions(level="greedy", bots=2), scripted(iter([])), con)
    two = m("2h")
    bomb = m("5s 5c 6s 6c 7s 7c")
    lines = {
        "play": session.describe(Play(1, two, 0x1010133, None)),
        "out of turn": session.describe(Play(0, bomb, 0x60307, None, out_of_turn=True)),
        "chop": session.describe(Chop(0, 1, bomb, two, ((1, two, 0),))),
        "pass": session.describe(Pass(0, False)),
        "round": session.describe(RoundWon(1, 1, False)),
        "inherited": session.describe(RoundWon(1, 2, True)),
        "out": session.describe(PlayerOut(0, 1)),
        "last": session.describe(PlayerOut(1, 3, ranks_last=True)),
        "left": session.describe(Left(2)),
        "instant": session.describe(InstantWin((1,), (("six_pairs",),), False, (m("3s 3c"),))),
        "cong": session.describe(Cong((0, 2))),
        "over": session.describe(GameOver(1, (1, 0, 2), "out", (m("3s"), 0, m("4s")))),
    }
    assert "Bot 1 (greedy) plays" in lines["play"] and "You play" in lines["out of turn"]
    assert "out of turn" in lines["out of turn"]
    assert "Chặt!" in lines["chop"] and "You chop" in lines["chop"]
    assert lines["pass"] == "[dim]You pass[/]"
    assert "wins the round" in lines["round"] and "hưởng sái" in lines["inherited"]
    assert "You are out (place 1)" in lines["out"] and "về bét" in lines["last"]
    assert "left the table" in lines["left"]
    assert "tới trắng" in lines["instant"] and "6 đôi" in lines["instant"]
    assert "Cóng" in lines["cong"] and "You, Bot 2" in lines["cong"]
    assert "Bot 1 (greedy) wins!" in lines["over"] and "You hold" in lines["over"]


def test_out_of_turn_chop_input_errors() -> None:
    rules = RuleSet.preset("langvuichoi")
    hands = deal("5s 5c 6s 6c 7s 7c 8s 8c 3h", "2h 3s", "4s", "9s", seed=2)
    game = Game(rules, hands, first_game=False, leader=1)
    game.play(m("2h"), 1)
    con, out = console()
    session = Session(PlayOptions(preset="langvuichoi", level="greedy"), scripted(iter([])), con)
    answers = iter(["zz", "3h", ""])
    session.ask_line = lambda prompt: next(answers)
    assert not session.offer_chop(game, game.legal_actions(0))
    text = out.getvalue()
    assert "Not a card: 'zz'" in text
    assert "It is Bot 2 (greedy)'s turn: only 4 consecutive pairs chopping a 2 or a bomb" in text
    assert game.last_seat == 1


def test_ctrl_c_while_a_bot_thinks_ends_cleanly(monkeypatch: pytest.MonkeyPatch) -> None:
    from tienlen.bots import Table

    def interrupted(self: Table) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(Table, "step", interrupted)
    con, out = console()
    assert play_session(PlayOptions(level="greedy", seed=3), scripted(cycle("p")), con) == 0
    assert "Bye" in out.getvalue()


def test_hints_come_a_page_at_a_time_that_fits_the_terminal() -> None:
    """42 plays to lead with: a 40-row terminal shows 30, then h shows the other 12."""
    con, out = console(height=40)
    session = Session(PlayOptions(level="greedy", seed=29), scripted(iter([])), con)
    game = Game.new(session.rules, 4, rng=session.rng, first_game=True)
    assert game.current == 0 and len(hint_order(game.legal_actions(0))) == 42
    answers = iter(["h", "h", "h", "40"])
    printed: list[str] = []

    def ask(prompt: str) -> str:
        printed.append(out.getvalue())
        return next(answers)

    session.ask_line = ask
    session.human_turn(game)
    pages = out.getvalue().split("Suggestion:")
    first = [line for line in pages[0].splitlines() if re.match(r" +\d+\. ", line)]
    second = [line for line in pages[1].splitlines() if re.match(r" +\d+\. ", line)]
    third = [line for line in pages[2].splitlines() if re.match(r" +\d+\. ", line)]
    assert [int(line.split(".")[0]) for line in first] == list(range(1, 31))
    assert [int(line.split(".")[0]) for line in second] == list(range(31, 43))
    assert first == third  # after the last page, h starts again
    assert "Hints 1–30 of 42: h for the next ones" in pages[0]
    assert "Hints 31–42 of 42: h to start again" in pages[1]
    # One page, below the table (3 rows) and the line typed, above the next prompt, fits.
    table = printed[0].count("\n")
    assert table == 3
    for before, after in itertools.pairwise(printed):
        assert table + 1 + after[len(before) :].count("\n") + 1 <= 40
    # A hint number off the page still plays it.
    assert (
        len(game.history) == 1
        and game.history[0].cards
        == hint_order(
            Game(session.rules, list(game.initial_hands), first_game=True).legal_actions(0)
        )[39]
    )


def test_a_short_terminal_still_shows_a_few_hints() -> None:
    con, _ = console(height=8)
    session = Session(PlayOptions(level="greedy"), scripted(iter([])), con)
    assert session.hints_per_page() == 5
