"""Errors for illegal actions. Each carries a stable ``code`` for records and clients."""

from __future__ import annotations


class IllegalAction(ValueError):
    """An action the rules refuse. The game is left exactly as it was."""

    code = "illegal"

    def __init__(self, message: str, seat: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.seat = seat


class GameOverError(IllegalAction):
    code = "game_over"


class NotYourTurn(IllegalAction):
    code = "not_your_turn"


class NotInGame(IllegalAction):
    """The seat has already gone out, left, or does not exist."""

    code = "not_in_game"


class CardsNotInHand(IllegalAction):
    code = "cards_not_in_hand"


class NotACombination(IllegalAction):
    code = "not_a_combination"


class DoesNotBeat(IllegalAction):
    code = "does_not_beat"


class MustContainCard(IllegalAction):
    code = "must_contain_card"


class AlreadyPassed(IllegalAction):
    code = "already_passed"


class CannotPass(IllegalAction):
    """The leader of a round must play something."""

    code = "cannot_pass"


class BadAction(IllegalAction):
    """An action that is not a play, a pass, a time-out, a leave or a decline."""

    code = "bad_action"


class NoChopOffer(IllegalAction):
    """An out-of-turn chop or a decline from a seat that holds no chop offer now."""

    code = "no_chop_offer"
