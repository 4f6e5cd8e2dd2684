"""JSON for everything that leaves the engine: events, views, commands, records and snapshots.

One module writes and reads the wire format, so the server, the records and the browser client
agree. Type names are stable words chosen here (``round_won``, never a class name); cards are
ASCII (``10h Qs``); each document says its format (``tienlen-record/1``) or carries
:data:`SCHEMA_VERSION`. The JSON Schema of each type is generated from :mod:`.wire` into
``docs/schemas/`` (``python -m tienlen.engine.wire docs/schemas``; a test keeps them current).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from .actions import ACTION_KINDS, PASS, Action
from .cards import CardError, mask_ascii, mask_str, parse_mask
from .combos import KIND_KEYS, category, describe, kind_of, length_of
from .errors import BadAction
from .events import (
    Chop,
    Cong,
    Event,
    GameOver,
    InstantWin,
    Left,
    Pass,
    Play,
    Played,
    PlayerOut,
    RoundWon,
)
from .game import Game
from .views import SeatView, SpectatorView

if TYPE_CHECKING:  # the wire's types (pydantic's, for the schemas) are not needed to run
    from . import wire

SCHEMA_VERSION: Final = 1
"""The version of the wire format as a whole; bumped on any change a reader must know about."""
RECORD_FORMAT = "tienlen-record/1"
SNAPSHOT_FORMAT = "tienlen-snapshot/1"

EVENT_TYPES: dict[type, str] = {
    Play: "play",
    Chop: "chop",
    Pass: "pass",
    RoundWon: "round_won",
    PlayerOut: "player_out",
    Left: "left",
    InstantWin: "instant_win",
    Cong: "cong",
    GameOver: "game_over",
}
"""The stable ``type`` of each event on the wire."""


# --- events ------------------------------------------------------------------------------------
def combination_fields(code: int) -> wire.ComboFields:
    """A play's combination as the wire says it: ``combination``, the engine's English name
    (``straight of 5``), and typed, ``kind`` (:data:`~.combos.KIND_KEYS`) and ``length`` (the
    cards; for consecutive pairs, the pairs)."""
    return {
        "combination": describe(code),
        "kind": KIND_KEYS[kind_of(code)],  # type: ignore[typeddict-item]  # KIND_KEYS's words
        "length": length_of(code),
    }


def _played(played: Played) -> wire.Played:
    seat, mask, code = played
    return {"seat": seat, "cards": mask_ascii(mask), **combination_fields(code)}


def event_to_dict(event: Event) -> wire.Event:
    """An event as JSON. ``Pass.could_beat`` is written only when known (never in a view)."""
    seq, action = event.seq, event.action
    if isinstance(event, Play):
        return {
            "type": "play",
            "seq": seq,
            "action": action,
            "seat": event.seat,
            "cards": mask_ascii(event.cards),
            **combination_fields(event.code),
            "beaten": None if event.beaten is None else _played(event.beaten),
            "out_of_turn": event.out_of_turn,
            "auto": event.auto,
        }
    if isinstance(event, Chop):
        return {
            "type": "chop",
            "seq": seq,
            "action": action,
            "seat": event.seat,
            "victim": event.victim,
            "cards": mask_ascii(event.cards),
            "victim_cards": mask_ascii(event.victim_cards),
            "chain": [
                {"seat": s, "cards": mask_ascii(m), "category": category(c)}
                for s, m, c in event.chain
            ],
        }
    if isinstance(event, Pass):
        passed: wire.PassEvent = {
            "type": "pass",
            "seq": seq,
            "action": action,
            "seat": event.seat,
            "auto": event.auto,
        }
        if event.could_beat is not None:
            passed["could_beat"] = event.could_beat
        return passed
    if isinstance(event, RoundWon):
        return {
            "type": "round_won",
            "seq": seq,
            "action": action,
            "seat": event.seat,
            "leader": event.leader,
            "inherited": event.inherited,
        }
    if isinstance(event, PlayerOut):
        return {
            "type": "player_out",
            "seq": seq,
            "action": action,
            "seat": event.seat,
            "place": event.place,
            "ranks_last": event.ranks_last,
        }
    if isinstance(event, Left):
        return {"type": "left", "seq": seq, "action": action, "seat": event.seat}
    if isinstance(event, InstantWin):
        return {
            "type": "instant_win",
            "seq": seq,
            "action": action,
            "seats": list(event.seats),
            "hands": [list(names) for names in event.hands],
            "shared": event.shared,
            "cards": [mask_ascii(m) for m in event.cards],
        }
    if isinstance(event, Cong):
        return {"type": "cong", "seq": seq, "action": action, "seats": list(event.seats)}
    return {
        "type": "game_over",
        "seq": seq,
        "action": action,
        "winner": event.winner,
        "ranking": list(event.ranking),
        "reason": event.reason,  # type: ignore[typeddict-item]  # GameOver's three reasons
        "cards_left": [mask_ascii(m) for m in event.cards_left],
    }


# --- commands ----------------------------------------------------------------------------------
def action_to_dict(action: Action) -> wire.Action:
    """A command as a record stores it: ``{"seat": 0, "play": "3s 4s 5s"}`` or
    ``{"seat": 1, "pass": true}`` (likewise ``timeout``, ``leave``, ``decline``)."""
    if action.kind == "play":
        return {"seat": action.seat, "play": mask_ascii(action.cards)}
    return {"seat": action.seat, action.kind: True}  # type: ignore[return-value]


def action_from_dict(data: Any) -> Action:
    """Read a command; raises :class:`~tienlen.engine.errors.BadAction` (or ``CardError``)
    saying what is wrong."""
    if not isinstance(data, dict):
        raise BadAction("an action is a JSON object")
    seat = data.get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool):
        raise BadAction("an action needs an integer seat")
    kinds = [k for k in ACTION_KINDS if k in data]
    if len(kinds) != 1:
        raise BadAction(
            "an action has exactly one of " + ", ".join(ACTION_KINDS), seat if seat >= 0 else None
        )
    kind = kinds[0]
    if kind == "play":
        cards = data["play"]
        if not isinstance(cards, (str, list)) or not all(isinstance(c, str) for c in cards):
            raise BadAction("play must be a string of cards or a list of card names", seat)
        return Action(seat, "play", parse_mask(cards))
    if data[kind] is not True:
        raise BadAction(f"{kind} must be true", seat)
    return Action(seat, kind)


def apply_action_dict(game: Game, data: Any) -> list[Event]:
    """Read one command and apply it: the path every JSON command takes into a game."""
    try:
        action = action_from_dict(data)
    except CardError as exc:
        raise BadAction(str(exc)) from None
    return game.apply(action)


# --- views -------------------------------------------------------------------------------------
def table_to_dict(view: SeatView | SpectatorView) -> wire.TableState:
    """The part of a view without its log that every seat and spectator shares: the same for
    all views of one game at one moment (:func:`seat_delta` adds a seat's own part)."""
    return {
        "schema": SCHEMA_VERSION,
        "seq": view.seq,
        "ruleset": view.rules.to_spec(),  # type: ignore[typeddict-item]  # a name or a spec
        "players": view.n_players,
        "current": view.current,
        "over": view.over,
        "cards_left": list(view.cards_left),
        "in_game": [bool(view.in_game >> s & 1) for s in range(view.n_players)],
        "passed": [bool(view.passed >> s & 1) for s in range(view.n_players)],
        "to_beat": None if view.table is None else _played(view.table),
        "round": [_played(p) for p in view.round_plays],
        "played": [mask_ascii(m) for m in view.played_by],
        "first_game": view.first_game,
        "leader": view.leader,
        "deal": view.deal,  # type: ignore[typeddict-item]  # the deal's public JSON
    }


def _log(view: SeatView | SpectatorView) -> wire.Log:
    return {
        "actions": [action_to_dict(a) for a in view.actions],
        "events": [event_to_dict(e) for e in view.events],
    }


def seat_part(view: SeatView) -> wire.SeatState:
    """What only this seat is told: its hand and what it may do."""
    return {
        "seat": view.seat,
        "hand": mask_ascii(view.hand),
        "my_turn": view.my_turn,
        "can_pass": view.can_pass and view.my_turn,
        "chop_offer": view.chop_offer,
        "legal": [mask_ascii(m) for m in view.legal if m != PASS],
        "required": mask_ascii(view.required) if view.required else None,
    }


def seat_view_to_dict(view: SeatView) -> wire.SeatView:
    """What one seat is sent: the table, its own hand and its legal actions, and the events and
    actions so far (which a live update sends as they come: :func:`seat_delta`)."""
    return {**table_to_dict(view), **_log(view), **seat_part(view)}


def seat_delta(view: SeatView, table: wire.TableState) -> wire.SeatTable:
    """The seat's view without its log, from ``table``: :func:`table_to_dict` of any view of
    the same game at the same moment (a server writes it once for all its seats)."""
    return {**table, **seat_part(view)}


def spectator_view_to_dict(view: SpectatorView) -> wire.SpectatorView:
    """What a spectator is sent: the table and the events and actions so far."""
    return {**table_to_dict(view), **_log(view)}


def summary_of(game: Game) -> dict[str, Any]:
    """The outcome in plain data (what ``tienlen replay`` prints before scoring)."""
    return {
        "winner": game.winner,
        "ranking": list(game.ranking),
        "instant_win": game.instant_win.hands[0][0] if game.instant_win else None,
        "instant_winners": list(game.instant_win.seats) if game.instant_win else [],
        "cong": list(game.cong),
        "chops": [event_to_dict(e) for e in game.events if isinstance(e, Chop)],
        "cards_left": [mask_str(h) for h in game.hands],
        "over": game.over,
    }


# --- records and snapshots ---------------------------------------------------------------------
def snapshot_of(game: Game) -> dict[str, Any]:
    """The game as ``tienlen-snapshot/1``: the deal, the lead rules and every command so far."""
    out: dict[str, Any] = {
        "format": SNAPSHOT_FORMAT,
        "ruleset": game.rules.to_spec(),
        "hands": [mask_ascii(h) for h in game.initial_hands],
        "first_game": game.first_game,
        "leader": None if game.first_game else game.leader,
        "barred_instant_winner": game.barred_instant_winner,
        "actions": [action_to_dict(a) for a in game.history],
        "seq": len(game.events),
    }
    if game.deal is not None:
        out["deal"] = dict(game.deal)
    return out


def restore_snapshot(data: Any) -> Game:
    """Rebuild the game of a snapshot by replaying it; checks it arrives where it was."""
    from .record import RecordError, parse_record, replay

    if not isinstance(data, dict) or data.get("format") != SNAPSHOT_FORMAT:
        raise RecordError(f'a snapshot is a JSON object with "format": "{SNAPSHOT_FORMAT}"')
    record = parse_record({k: v for k, v in data.items() if k not in ("format", "seq")})
    try:
        game = replay(record)
    except ValueError as exc:
        raise RecordError(f"snapshot does not replay: {exc}") from None
    seq = data.get("seq")
    if not isinstance(seq, int) or isinstance(seq, bool):
        raise RecordError("a snapshot needs seq, the number of events so far")
    if seq != len(game.events):
        raise RecordError(
            f"snapshot says {data['seq']} events, its actions give {len(game.events)}"
        )
    if isinstance(data.get("deal"), dict):
        game.deal = dict(data["deal"])
    return game


__all__ = [
    "EVENT_TYPES",
    "RECORD_FORMAT",
    "SCHEMA_VERSION",
    "SNAPSHOT_FORMAT",
    "action_from_dict",
    "action_to_dict",
    "apply_action_dict",
    "combination_fields",
    "event_to_dict",
    "restore_snapshot",
    "seat_view_to_dict",
    "snapshot_of",
    "spectator_view_to_dict",
    "summary_of",
]
