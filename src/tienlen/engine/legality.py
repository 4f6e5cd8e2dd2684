"""Why the rules refuse an action: the checks behind every :class:`~.errors.IllegalAction`.

:class:`~.game.Game` calls these before it changes anything, so a refused action leaves the game
exactly as it was; each message says what was wrong in the players' terms.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import combos as C
from . import errors as E
from .cards import FULL_DECK, card_str, mask_str

if TYPE_CHECKING:
    from .game import Game


def out_of_turn_kind(mask: int) -> bool:
    """Whether a play is 4 or more consecutive pairs (the bomb that needs no turn)."""
    code = C.classify(mask)
    return code >> 16 == C.PAIRS and (code >> 8) & 0xFF >= 4


def check_seat(game: Game, seat: int) -> None:
    if game.over:
        raise E.GameOverError("the game is over", seat)
    if not isinstance(seat, int) or not 0 <= seat < game.n:
        raise E.NotInGame(f"there is no seat {seat!r} at this table", None)
    if not game.in_game >> seat & 1:
        why = "has left" if game.left >> seat & 1 else "has already gone out"
        raise E.NotInGame(f"seat {seat} {why}", seat)


def check_play(game: Game, seat: int, mask: int) -> int:
    hand = game.hands[seat]
    if mask <= 0 or mask & ~FULL_DECK:
        raise E.NotACombination("a play needs at least one card", seat)
    if mask & ~hand:
        missing = mask_str(mask & ~hand)
        raise E.CardsNotInHand(f"seat {seat} does not hold {missing}", seat)
    code = C.classify(mask)
    if code == 0 or not game.rules.allows(code):
        raise E.NotACombination(f"{mask_str(mask)} is not a combination", seat)
    if seat != game.current:
        _check_out_of_turn(game, seat, mask, code)
        return code
    if game.last_code == 0:
        if game.required and not mask & game.required:
            card = card_str(game.required.bit_length() - 1)
            raise E.MustContainCard(f"the first play of the game must contain {card}", seat)
        return code
    if not game.rules.beats(code, game.last_code):
        raise E.DoesNotBeat(
            f"{mask_str(mask)} ({C.describe(code)}) does not beat "
            f"{mask_str(game.last_mask)} ({C.describe(game.last_code)})",
            seat,
        )
    if game.revived >> seat & 1 and not out_of_turn_kind(mask):
        raise E.AlreadyPassed(
            f"seat {seat} passed this round and may only chop with 4 consecutive pairs", seat
        )
    return code


def may_chop_out_of_turn(game: Game, seat: int) -> bool:
    return (
        game.rules.four_pairs_out_of_turn
        and game.last_code != 0
        and 0 <= seat < game.n
        and seat != game.last_seat
        and seat != game.current
        and bool(game.in_game >> seat & 1)
        and (not game.passed >> seat & 1 or game.rules.four_pairs_after_pass)
        and C.category(game.last_code) is not None
    )


def _check_out_of_turn(game: Game, seat: int, mask: int, code: int) -> None:
    if game.declined >> seat & 1 and out_of_turn_kind(mask):
        raise E.NoChopOffer(
            f"seat {seat} let the chop offer on {mask_str(game.last_mask)} go", seat
        )
    if not may_chop_out_of_turn(game, seat) or not out_of_turn_kind(mask):
        if game.passed >> seat & 1 and (
            not game.rules.four_pairs_after_pass or not out_of_turn_kind(mask)
        ):
            raise E.AlreadyPassed(f"seat {seat} passed this round", seat)
        raise E.NotYourTurn(
            f"it is seat {game.current}'s turn, not seat {seat}'s"
            + (
                " (only 4 consecutive pairs chopping a 2 or a bomb may play out of turn)"
                if game.rules.four_pairs_out_of_turn
                else ""
            ),
            seat,
        )
    if not game.rules.beats(code, game.last_code):
        raise E.DoesNotBeat(
            f"{mask_str(mask)} does not chop {mask_str(game.last_mask)}",
            seat,
        )


def check_pass(game: Game, seat: int) -> None:
    if seat != game.current:
        if game.passed >> seat & 1:
            raise E.AlreadyPassed(f"seat {seat} has already passed this round", seat)
        raise E.NotYourTurn(f"it is seat {game.current}'s turn, not seat {seat}'s", seat)
    if game.last_code == 0:
        raise E.CannotPass(f"seat {seat} leads this round and must play", seat)
