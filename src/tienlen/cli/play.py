"""``tienlen play``: a person against 1–3 bots in the terminal.

All input and output go through an injectable ``ask`` function and a rich
:class:`~rich.console.Console`, so a test can play whole games by feeding lines. End of input
(Ctrl-D) or Ctrl-C ends the session cleanly at any prompt.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape

from ..bots import DEFAULT_LEVEL, LEVELS, Table, make_bot
from ..bots.strategic import Situation, StrategicPolicy
from ..engine import combos as C
from ..engine import errors as E
from ..engine.cards import CardError, card_str, cards_of, parse_mask
from ..engine.errors import IllegalAction
from ..engine.events import (
    Chop,
    Cong,
    Event,
    GameOver,
    InstantWin,
    Left,
    Pass,
    Play,
    PlayerOut,
    RoundWon,
)
from ..engine.game import PASS, Action, Game
from ..engine.rules import INSTANT_WIN_HANDS, RuleSet, RuleSetError
from ..engine.views import SeatView, view_of
from ..money.settlement import Settlement, next_game_after, settle

HUMAN = 0
"""The person always sits at seat 0; the bots follow in play order."""
BOT_TIME_BUDGET_S = 0.3
"""The clock each bot's decision gets at the terminal table."""
MIN_HINTS_PER_PAGE = 5
HINT_PAGE_MARGIN = 10
"""Rows a page of hints leaves for the table above it and the lines below (pass, suggestion,
prompt): a 40-row terminal shows 30 hints at a time."""

Ask = Callable[[str], str]


class QuitSession(Exception):
    """The person asked to stop (q, end of input or Ctrl-C)."""


@dataclass(frozen=True)
class PlayOptions:
    preset: str = "thapthanh"
    bots: int = 3
    level: str = DEFAULT_LEVEL
    games: int | None = None
    """Stop after this many games (None: ask after each)."""
    seed: int | None = None
    bet: int = 1
    name: str = "You"

    def __post_init__(self) -> None:
        if not self.name.strip():
            raise ValueError("--name must not be empty")
        if not 1 <= self.bots <= 3:
            raise ValueError("play against 1 to 3 bots")
        if self.level not in LEVELS:
            raise ValueError(f"unknown bot level {self.level!r} (known: {', '.join(LEVELS)})")
        if self.games is not None and self.games < 1:
            raise ValueError("--games must be at least 1")
        if self.bet < 1:
            raise ValueError("--bet must be at least 1 chip")
        RuleSet.preset(self.preset)


def card_markup(card: int) -> str:
    """A card with its suit symbol, red for ♦ and ♥."""
    text = card_str(card)
    return f"[bold red]{text}[/]" if card & 3 >= 2 else f"[bold]{text}[/]"


def cards_markup(mask: int) -> str:
    return " ".join(card_markup(c) for c in cards_of(mask)) if mask else "—"


def play_markup(mask: int) -> str:
    code = C.classify(mask)
    return f"{cards_markup(mask)} ({C.describe(code)}, {C.describe_vi(code)})"


def sentence(text: str) -> str:
    """An error as the table shows it: a capital first letter and a full stop."""
    text = text.strip()
    text = text[:1].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."


def hint_order(actions: list[int]) -> list[int]:
    """Plays in a stable order for numbered hints: by kind, size, then height."""
    plays = [a for a in actions if a != PASS]
    return sorted(plays, key=lambda m: (C.classify(m) >> 16, m.bit_count(), C.classify(m), m))


class Session:
    """Several games in a row at one table; the lead passes by the rules between games."""

    def __init__(self, options: PlayOptions, ask: Ask, console: Console) -> None:
        self.options = options
        self.ask_line = ask
        self.console = console
        self.rules = RuleSet.preset(options.preset)
        self.n = options.bots + 1
        self.rng = random.Random(options.seed)
        name = options.name.strip()
        self.second_person = name.casefold() == "you"
        """Events of the person's seat read "You play", those of a named person "Alice plays"."""
        person = "You" if self.second_person else escape(name)
        self.names = [person] + [f"Bot {i} ({options.level})" for i in range(1, self.n)]
        self.totals = [0] * self.n
        self.advice = StrategicPolicy()

    # --- helpers ------------------------------------------------------------------------------
    def say(self, text: str) -> None:
        self.console.print(text, highlight=False)

    def error(self, text: str) -> None:
        """Every refusal the same way: red, one sentence, a capital first letter."""
        self.say(f"[red]{sentence(text)}[/]")

    def ask(self, prompt: str) -> str:
        try:
            line = self.ask_line(prompt)
        except (EOFError, KeyboardInterrupt):
            raise QuitSession from None
        return line.strip()

    # --- the session ----------------------------------------------------------------------------
    def run(self) -> int:
        """Play until the person stops; returns the number of games finished."""
        o = self.options
        self.say(
            f"[bold]Tiến Lên Miền Nam[/] — preset [cyan]{o.preset}[/], "
            f"{o.bots} bot(s) at level [cyan]{o.level}[/], bet {o.bet}."
        )
        self.say(
            "Type cards like [bold]3s 4s 5h[/] (or 3♠ 4♠ 5♥), [bold]p[/] to pass, "
            "[bold]h[/] for hints, a hint's number to play it, [bold]q[/] to quit."
        )
        start: dict[str, Any] = {"first_game": True}
        played = 0
        try:
            while o.games is None or played < o.games:
                game = Game.new(self.rules, self.n, rng=self.rng, **start)
                self.play_game(game, played + 1)
                played += 1
                start = next_game_after(game).kwargs()
                if o.games is None and not self.another_game():
                    break
        except (QuitSession, KeyboardInterrupt):  # Ctrl-C while a bot thinks, too
            self.say("\nBye — tạm biệt.")
        if played:
            self.say(f"Games finished: {played}. Chips: " + self.totals_text())
        return played

    def another_game(self) -> bool:
        """Ask until the answer is a yes or a no (Enter means yes)."""
        while True:
            answer = self.ask("Play another game? [Y/n] ").strip().lower()
            if answer in ("", "y", "yes", "có", "co"):
                return True
            if answer in ("n", "no", "q", "quit", "không", "khong"):
                return False
            self.say("Please answer y (yes, có) or n (no, không).")

    def totals_text(self) -> str:
        return ", ".join(f"{name} {t:+d}" for name, t in zip(self.names, self.totals, strict=True))

    def play_game(self, game: Game, number: int) -> Settlement:
        bots = [None] + [
            make_bot(self.options.level, self.rng.getrandbits(63)) for _ in range(1, self.n)
        ]
        table = Table(game, bots, time_budget_s=BOT_TIME_BUDGET_S)
        kind = "first game: the lowest card leads" if game.first_game else "the last winner leads"
        self.say(f"\n[bold]Game {number}[/] ({kind}) — {self.names[game.leader]} to lead.")
        shown = 0
        # You see what your seat may see (engine.views), as the bots and the server do; what
        # you do goes through the engine's one command path, Game.apply.
        while not game.over:
            shown = self.show_events(table.view(HUMAN), shown)
            window = game.chop_window()  # the engine's order: bots before you decline first
            if window and window[0] == HUMAN:
                self.offer_chop(game, list(table.view(HUMAN).legal))
                continue
            if table.step() is not None or game.over:
                continue
            if game.chop_window()[:1] == (HUMAN,):
                continue
            self.human_turn(game)
        self.show_events(table.view(HUMAN), shown)
        settlement = settle(game, self.options.bet)
        self.show_settlement(game, settlement)
        return settlement

    # --- the person's moves ----------------------------------------------------------------------
    def show_state(self, view: SeatView) -> None:
        others = " · ".join(
            f"{self.names[s]}: {view.cards_left[s]}" + (" (passed)" if view.passed >> s & 1 else "")
            for s in range(1, self.n)
            if view.in_game >> s & 1
        )
        self.say(f"Cards left — {others}")
        if view.table is not None:
            seat, cards, _ = view.table
            self.say(f"To beat: {play_markup(cards)} by {self.names[seat]}")
        else:
            must = ""
            if view.required:
                must = f" (must contain {card_markup(view.required.bit_length() - 1)})"
            self.say(f"You lead this round (có cái){must}.")
        self.say(f"Your hand: {cards_markup(view.hand)}")

    def human_turn(self, game: Game) -> None:
        view = view_of(game, HUMAN)
        self.show_state(view)
        next_hint = 0
        while True:
            legal = list(view.legal)
            line = self.ask("Your move: ")
            word = line.lower()
            if word in ("q", "quit", "exit"):
                raise QuitSession
            if word in ("", "s", "show"):
                self.show_state(view)
                continue
            if word in ("h", "?", "hint", "hints", "help"):
                next_hint = self.show_hints(view, next_hint)
                continue
            mask = 0
            try:
                if word in ("p", "pass", "bo", "bỏ", "bỏ lượt"):
                    game.apply(Action.pass_turn(HUMAN))
                elif word.isdigit():
                    hints = hint_order(legal)
                    index = int(word)
                    if not 1 <= index <= len(hints):
                        self.error(
                            f"No hint number {index} (there are {len(hints)}; type h to list them)"
                        )
                        continue
                    game.apply(Action.play(HUMAN, hints[index - 1]))
                else:
                    mask = parse_mask(line)
                    game.apply(Action.play(HUMAN, mask))
                return
            except CardError as exc:
                self.error(escape(str(exc)))
            except IllegalAction as exc:
                self.error(self.refusal(game, exc, mask))

    def refusal(self, game: Game, exc: IllegalAction, mask: int) -> str:
        """The engine's refusal (which names seats) said to the person: "You do not hold 6♠"."""
        view = view_of(game, HUMAN)
        if isinstance(exc, E.CardsNotInHand):
            return f"You do not hold {cards_markup(mask & ~view.hand)}"
        if isinstance(exc, E.CannotPass):
            return "You lead this round, so you must play: you cannot pass"
        if isinstance(exc, E.AlreadyPassed):
            if view.my_turn and view.passed >> HUMAN & 1:  # given the turn back to chop
                return "You passed this round: now only 4 consecutive pairs may chop"
            return "You have already passed this round"
        if isinstance(exc, E.NotYourTurn):
            text = f"It is {self.names[view.current]}'s turn"
            if self.rules.four_pairs_out_of_turn:
                text += ": only 4 consecutive pairs chopping a 2 or a bomb may play out of turn"
            return text
        # The others (not a combination, does not beat, must contain 3♠) name no seat.
        return re.sub(r"\bseat (\d+)", lambda m: self.names[int(m.group(1))], exc.message)

    def hints_per_page(self) -> int:
        return max(MIN_HINTS_PER_PAGE, self.console.size.height - HINT_PAGE_MARGIN)

    def show_hints(self, view: SeatView, start: int = 0) -> int:
        """One page of numbered hints from ``start``; returns where the next page starts."""
        legal = list(view.legal)
        hints = hint_order(legal)
        if not hints:
            self.say("You cannot beat that: pass with p.")
            return 0
        if start >= len(hints):
            start = 0
        page = hints[start : start + self.hints_per_page()]
        end = start + len(page)
        width = len(str(len(hints)))
        for i, play in enumerate(page, start + 1):
            self.say(f"  {i:>{width}}. {play_markup(play)}")
        if len(page) < len(hints):
            more = "h for the next ones" if end < len(hints) else "h to start again"
            self.say(
                f"  [dim]Hints {start + 1}–{end} of {len(hints)}: {more}; "
                "a number plays any hint.[/]"
            )
        if PASS in legal:
            self.say(f"  {'p':>{width}}. pass (bỏ lượt)")
        advice = self.advice.choose(Situation.of_view(view))
        shown = "pass" if advice == PASS else cards_markup(advice)
        self.say(f"Suggestion: {shown}")
        return end if end < len(hints) else 0

    def offer_chop(self, game: Game, chops: list[int]) -> bool:
        """Out of turn, the person may chop with 4 consecutive pairs (True) or let it go."""
        view = view_of(game, HUMAN)
        self.show_state(view)
        self.say("You may chop out of turn (chặt không cần vòng):")
        for i, play in enumerate(chops, 1):
            self.say(f"  {i}. {play_markup(play)}")
        while True:
            line = self.ask("Chop? number or cards, Enter to let it go: ")
            if not line or line.lower() in ("n", "no", "p", "pass"):
                game.apply(Action.decline(HUMAN))
                return False
            if line.lower() in ("q", "quit", "exit"):
                raise QuitSession
            cards = 0
            try:
                if line.isdigit():
                    if not 1 <= int(line) <= len(chops):
                        self.error(f"No chop number {line} (there are {len(chops)})")
                        continue
                    cards = chops[int(line) - 1]
                else:
                    cards = parse_mask(line)
                game.apply(Action.play(HUMAN, cards))
                return True
            except CardError as exc:
                self.error(escape(str(exc)))
            except IllegalAction as exc:
                self.error(self.refusal(game, exc, cards))

    # --- what happened --------------------------------------------------------------------------
    def show_events(self, view: SeatView, start: int) -> int:
        for event in view.events[start:]:
            text = self.describe(event)
            if text:
                self.say(text)
        return len(view.events)

    def describe(self, event: Event) -> str:
        name = self.names
        v = self.verb
        if isinstance(event, Play):
            how = " [magenta]out of turn[/]" if event.out_of_turn else ""
            auto = " (time-out)" if event.auto else ""
            return (
                f"{name[event.seat]} {v(event.seat, 'plays')} {play_markup(event.cards)}{how}{auto}"
            )
        if isinstance(event, Chop):
            return (
                f"[bold magenta]Chặt![/] {name[event.seat]} {v(event.seat, 'chops')} "
                f"{cards_markup(event.victim_cards)} of {name[event.victim]}"
            )
        if isinstance(event, Pass):
            return f"[dim]{name[event.seat]} {v(event.seat, 'passes')}[/]"
        if isinstance(event, RoundWon):
            if event.inherited:
                leader = name[event.leader]
                return f"[dim]Round over; {leader} {v(event.leader, 'leads')} (hưởng sái)[/]"
            return f"[dim]{name[event.seat]} {v(event.seat, 'wins')} the round[/]"
        if isinstance(event, PlayerOut):
            if event.ranks_last:
                return (
                    f"{name[event.seat]} went out on a 2 and {v(event.seat, 'ranks')} last (về bét)"
                )
            return f"[bold]{name[event.seat]} {v(event.seat, 'is')} out (place {event.place})[/]"
        if isinstance(event, Left):
            return f"{name[event.seat]} left the table"
        if isinstance(event, InstantWin):
            parts = []
            for seat, hands, cards in zip(event.seats, event.hands, event.cards, strict=True):
                what = ", ".join(
                    INSTANT_WIN_HANDS[h][0] + f" ({INSTANT_WIN_HANDS[h][1]})" for h in hands
                )
                parts.append(f"{name[seat]}: {what} — {cards_markup(cards)}")
            return "[bold green]Instant win (tới trắng)![/] " + "; ".join(parts)
        if isinstance(event, Cong):
            who = ", ".join(name[s] for s in event.seats)
            return f"[bold red]Cóng:[/] {who} never played a card"
        if isinstance(event, GameOver):
            lines = []
            if event.winner is not None:
                lines.append(f"[bold green]{name[event.winner]} {v(event.winner, 'wins')}![/]")
            for seat, cards in enumerate(event.cards_left):
                if cards:
                    lines.append(f"  {name[seat]} {v(seat, 'holds')} {cards_markup(cards)}")
            return "\n".join(lines)
        return ""  # pragma: no cover - every event type is handled above

    def verb(self, seat: int, third_person: str) -> str:
        """English agreement: "Bot 1 plays" and "Alice plays", but "You play"."""
        if seat != HUMAN or not self.second_person:
            return third_person
        return {"is": "are", "passes": "pass"}.get(third_person, third_person.removesuffix("s"))

    def show_settlement(self, game: Game, settlement: Settlement) -> None:
        self.say("[bold]Settlement[/] (tính tiền):")
        if not settlement.items:
            self.say("  nothing to pay")
        for item in settlement.items:
            self.say(
                f"  {self.names[item.payer]} → {self.names[item.payee]}: {item.amount} "
                f"— {item.reason_en} ({item.reason_vi})"
            )
        for en, vi in settlement.notes:
            self.say(f"  {en} ({vi})")
        for seat, delta in enumerate(settlement.deltas):
            self.totals[seat] += delta
        self.say(
            "This game: "
            + ", ".join(f"{n} {d:+d}" for n, d in zip(self.names, settlement.deltas, strict=True))
        )
        self.say("Total: " + self.totals_text())


def play_session(
    options: PlayOptions, ask: Ask | None = None, console: Console | None = None
) -> int:
    """Run a terminal session; returns the number of games finished."""
    console = console or Console(highlight=False)
    return Session(options, ask or console.input, console).run()


def play_cmd(
    bots: Annotated[int, typer.Option("--bots", "-b", help="Number of bots, 1 to 3.")] = 3,
    level: Annotated[
        str, typer.Option("--level", "-l", help=f"Bot level: {', '.join(LEVELS)}.")
    ] = DEFAULT_LEVEL,
    preset: Annotated[str, typer.Option("--preset", "--rules", help="Rule preset.")] = "thapthanh",
    games: Annotated[
        int | None, typer.Option("--games", "-g", help="Stop after this many games.")
    ] = None,
    seed: Annotated[int | None, typer.Option("--seed", help="Seed of the deals and bots.")] = None,
    bet: Annotated[int, typer.Option("--bet", help="Chips per unit (mức cược).")] = 1,
    name: Annotated[str, typer.Option("--name", help="Your name at the table.")] = "You",
) -> None:
    """Play against bots in the terminal."""
    try:
        options = PlayOptions(
            preset=preset, bots=bots, level=level, games=games, seed=seed, bet=bet, name=name
        )
    except (ValueError, RuleSetError) as exc:
        typer.echo(f"Error: {exc}", err=True)
        raise typer.Exit(2) from None
    play_session(options)
