"""House bots: the users the lobby seats as bots at its chip tables, and their stakes.

A bot at a chip table plays for real chips, so it is a user (``is_bot``) with its own ledger
account: every chip it wins or loses is a row of a game's settlement, settlement caps what it
pays at its balance like anyone's, and ``check_ledger`` proves the books with bots in them.
Bot users are reused: one seated at no table is free, and a new one ("Bot 12", a nickname
people cannot register) is made only when none is. A bot sits at one table at a time, so it is
never dealt into two games at once. Before each deal a bot holding less than the most one game
at its table can cost (``money.limits.most_a_game_costs``: the worst hand, cóng, thối and every
chop, under the table's rules and seats) is staked up to it (``ledger.stake_bot``: from the
house's fees, or from issuance when the house holds too little), so it never sits out for lack
of chips, a person is never paid short by a bot, and no chip comes from nowhere. Bots cannot
log in (no password), are never ranked, and earn no ĐKN and no games played.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from ...engine.rules import RuleSet
from ...money.limits import most_a_game_costs
from ..auth import BOT_PREFIX, nickname_key
from ..deps import Server
from ..errors import Refused
from ..store import ledger
from ..store.models import User

__all__ = ["HouseBots", "stake_for"]


def stake_for(rules: RuleSet, seats: int, bet: int) -> int:
    """What a bot holds before a deal at a table of ``seats`` seats under ``rules`` at ``bet``:
    the most one game there can cost it (fewer players cost no more), so it pays in full."""
    return most_a_game_costs(rules, seats) * bet


class HouseBots:
    """The bot users of one server: which are free, new ones, and their chips."""

    def __init__(self, server: Server, seated: Callable[[], Iterable[str]]) -> None:
        self.server = server
        self._seated = seated
        """The users seated as bots at the lobby's tables now."""
        self._known: dict[str, str] | None = None
        """Every bot user, id (as tables name users) → nickname; read once, then kept."""

    async def take(self, level: str) -> tuple[str, str]:
        """A bot user seated at no table (made when none is): its id and nickname. The caller
        seats it before it awaits anything, so two tables never take the same bot."""
        known = await self._all()
        busy = set(self._seated())
        for user, nickname in known.items():
            if user not in busy:
                return user, nickname
        for _ in range(3):  # another server task may take the same new name first
            try:
                user, nickname = await self._create()
            except IntegrityError:
                continue
            known[user] = nickname
            return user, nickname
        raise Refused("no_bots", "no bot is free just now: try again")

    async def _all(self) -> dict[str, str]:
        if self._known is None:
            async with self.server.sessions() as db:
                rows = await db.execute(
                    select(User.id, User.nickname).where(User.is_bot.is_(True)).order_by(User.id)
                )
            if self._known is None:
                self._known = {str(user_id): nickname for user_id, nickname in rows}
        return self._known

    async def _create(self) -> tuple[str, str]:
        now = self.server.clock()
        async with self.server.sessions() as db, db.begin():
            number = len(self._known or ()) + 1
            while True:  # a person may hold a "Bot 3" from before the name was reserved
                nickname = f"{BOT_PREFIX} {number}"
                key = nickname_key(nickname)
                if await db.scalar(select(User.id).where(User.nickname_key == key)) is None:
                    break
                number += 1
            user = User(
                nickname=nickname,
                nickname_key=key,
                password_hash=None,
                is_guest=True,
                is_bot=True,
                created_at=now,
            )
            db.add(user)
            await db.flush()
            await ledger.open_player_account(db, user, now, 0)
        return str(user.id), nickname

    async def balance(self, user: str, stake: int) -> int:
        """The bot's chips before a deal, staked up to ``stake`` (:func:`stake_for`) first when
        it holds less."""
        async with self.server.sessions() as db, db.begin():
            chips = await ledger.balance_of(db, int(user))
            if chips < stake:
                bot = await db.get(User, int(user))
                assert bot is not None
                chips += await ledger.stake_bot(db, bot, stake, self.server.clock())
        return chips
