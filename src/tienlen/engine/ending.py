"""How a game ends: players going out, cóng, the final ranking, and a win at the deal.

:class:`~.game.Game` is the state machine; these are the steps it takes when a player sheds
their last card, leaves, or wins at the deal (tới trắng). Each appends its events to the game's
log (PlayerOut, Cong, InstantWin, GameOver) and, at the end, sets ``over``, ``winner`` and
``ranking``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .cards import TWOS_MASK
from .events import Cong, GameOver, PlayerOut
from .instant import instant_win_at_deal

if TYPE_CHECKING:
    from .game import Game


def player_out(game: Game, seat: int, last_play: int) -> None:
    """``seat`` has laid its last card, ``last_play``: its place, cóng, and maybe the end."""
    bit = 1 << seat
    game.in_game &= ~bit
    game.passed &= ~bit
    if game.rules.two_last_ranks_last and last_play & TWOS_MASK:
        game.bottom.append(seat)
        game.log(PlayerOut(seat, game.n - len(game.bottom) + 1, ranks_last=True))
    else:
        game.top.append(seat)
        game.log(PlayerOut(seat, len(game.top)))
        if len(game.top) == 1 and game.rules.full_ranking:
            _freeze_cong(game)
    check_end(game)


def _freeze_cong(game: Game) -> None:
    """Full ranking: players who had not played when the first went out are cóng and stop."""
    cong = tuple(s for s in range(game.n) if game.in_game >> s & 1 and not game.played >> s & 1)
    if cong:
        game.cong = cong
        game.log(Cong(cong))
        # Ranked among themselves in play order from the winner, as losers are elsewhere.
        winner = game.top[0]
        n = game.n
        for s in sorted(cong, key=lambda s: (winner - s) % n):
            game.in_game &= ~(1 << s)
            game.bottom.append(s)


def check_end(game: Game) -> bool:
    """End the game if it is over (someone out, or one player left); whether it ended."""
    remaining = [s for s in range(game.n) if game.in_game >> s & 1]
    if game.top and not game.rules.full_ranking:
        _finish(game, "out", remaining)
        return True
    if len(remaining) <= 1:
        game.top.extend(remaining)
        _finish(game, "out" if game.top and not game.left else "left", [])
        return True
    return False


def _finish(game: Game, reason: str, losers_in_game: list[int]) -> None:
    game.end()
    winner = game.top[0] if game.top else None
    if winner is not None and not game.rules.full_ranking:
        cong = tuple(s for s in losers_in_game if not game.played >> s & 1)
        if cong:
            game.cong = cong
            game.log(Cong(cong))
        n = game.n
        order = {(winner + k) % n: k for k in range(n)}
        hands = game.hands
        losers_in_game.sort(key=lambda s: (hands[s].bit_count(), order[s]))
    game.winner = winner
    ranking = tuple(game.top + losers_in_game + game.bottom[::-1])
    game.ranking = ranking
    game.log(GameOver(winner, ranking, reason, tuple(game.hands)))


def instant_win_at_start(game: Game) -> None:
    """Tới trắng: when a hand wins at the deal, the game is over before the first play."""
    event = instant_win_at_deal(
        game.hands, game.rules, game.first_game, game.leader, game.barred_instant_winner
    )
    if event is None:
        return
    seats = event.seats
    game.instant_win = event
    game.log(event)
    game.top = list(seats)
    game.in_game = 0
    game.over = True
    game.winner = seats[0]
    n = game.n
    losers = [s for s in range(n) if s not in seats]
    order = {(game.leader + k) % n: k for k in range(n)}
    losers.sort(key=lambda s: order[s])
    game.ranking = tuple(game.top + losers)
    game.log(GameOver(game.winner, game.ranking, "instant_win", tuple(game.hands)))
