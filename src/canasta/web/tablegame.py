"""The match of a table with friends: several people and computer players at one match.

A ``TableSession`` is a ``GameSession`` whose people sit at any seats (the host's, the friends'),
driven by the one match driver (``canasta.table.Table``): each person's moves come from their
own socket, each has their own hint giver, undo, new cards and language; the computer players
take the other seats, and the friends' seats the host hands them.  What a seat is sent is built
from that seat's view alone; a spectator's from the public part of a view, with no card of any
hand.  Plain Python, like the session it extends.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from canasta.bots import make_player
from canasta.bots.base import Player
from canasta.bots.expert import ExpertPlayer
from canasta.errors import IllegalMove
from canasta.i18n import LANGS
from canasta.table import Table as Driver
from canasta.web.groups import add_fits
from canasta.web.names import computer_names
from canasta.web.present import legal_json
from canasta.web.present import view_json as seat_json
from canasta.web.quick import QuickLimit
from canasta.web.reasons import unavailable
from canasta.web.session import HUMAN, ConfigError, GameConfig, GameSession
from canasta.web.tables import COMPUTER, FRIEND, Table

HOST_SEAT = 0  # the host sits at seat 0 of a table (canasta.web.tables)

#: The private parts of a seat's view: a spectator's copy has them emptied.
PRIVATE = ("hand", "drew", "legal", "unavailable", "add_fits", "answer")


class TableSession(GameSession):
    """A table's match: ``seats`` the table as it was when the session was built (names, who
    is a person), ``langs`` each person's language (their errors, hints and reasons), as
    stored with their seats; ``ready`` the people who have asked for the next hand since the
    last one ended.

    What only the server knows is the lobby's to give (``canasta.web.lobby``): ``present``
    the seats whose person has the table open now (its page or its match: one presence for
    both, ``Lobby.here``), ``on_presence`` what to do when a socket of the match opens or
    closes (tell the table's page), ``on_lang`` what to do when a person changes language
    (store it with their seat), ``quick`` the count of quick messages."""

    def __init__(self, game_id: str, config: GameConfig, seats: Table, driver: Driver) -> None:
        super().__init__(game_id, config, table=driver)
        self.table_id = seats.id
        self.names = seat_names(seats)
        self.levels: list[str] = [s.level or "expert" for s in seats.seats]
        # (a friend's seat nobody took, filled with a computer player, has no person)
        self.person_seats = frozenset(n for n, s in enumerate(seats.seats)
                                      if s.kind != COMPUTER and s.taken)
        self.langs: dict[int, str] = {n: s.lang for n, s in enumerate(seats.seats)
                                      if n in self.person_seats and s.lang is not None}
        self.ready: set[int] = set()
        self.present: Callable[[], Iterable[int]] = tuple
        self.on_presence: Callable[[], None] | None = None
        self.on_lang: Callable[[int, str], None] | None = None
        self.quick: QuickLimit | None = None

    # --- building ---------------------------------------------------------------------------
    @classmethod
    def start(cls, game_id: str, config: GameConfig, seats: Table) -> TableSession:
        return cls(game_id, config, seats, Driver(
            config.rules(), config.seed, _computers(config, seats), **_options(config, seats)))

    @classmethod
    def resume(cls, game_id: str, config: GameConfig, seats: Table,
               record: Mapping[str, Any]) -> TableSession:
        """The session of a stored table game (raises what ``Table.restore`` raises)."""
        driver = Driver.restore(record, _computers(config, seats), **_options(config, seats))
        return cls(game_id, config, seats, driver)

    # --- who plays ----------------------------------------------------------------------------
    def hand_over(self, seat: int, computer: bool) -> None:
        """A person's seat to its computer player (which first watches the hand from that seat)
        or back to the person."""
        if computer:
            if not self.table.is_computer(seat):
                self.table.seat_computer(seat, _player(self.config, seat, self.levels[seat]))
        else:
            self.table.seat_person(seat)

    def lang_of(self, seat: int | None) -> str:
        return self.langs.get(seat, self.config.lang) if seat is not None else self.config.lang

    def set_lang(self, seat: int, lang: str) -> None:
        if lang not in LANGS:
            raise ConfigError("config.lang", known=", ".join(LANGS), value=lang)
        changed = self.lang_of(seat) != lang or seat not in self.langs
        self.langs[seat] = lang
        if changed and self.on_lang is not None:
            self.on_lang(seat, lang)

    # --- between two hands ----------------------------------------------------------------------
    def next_hand(self, seat: int = HUMAN) -> None:
        """``seat``'s person has closed the score sheet with "next hand": the hand is dealt
        once every person connected to the match and playing their own seat has (a person
        away, or whose seat a computer plays, holds nobody up).  Asking twice is asking once."""
        if self.state.result is None:
            raise IllegalMove("web.hand_not_over")
        if self.match.over:
            raise IllegalMove("web.match_over")
        self.ready.add(seat)
        self.deal_when_ready()

    def deal_now(self, seat: int) -> None:
        """The host (seat 0) deals the next hand without waiting for the people still reading
        the score sheet (one may have left the table open and gone)."""
        if self.state.result is None:
            raise IllegalMove("web.hand_not_over")
        if self.match.over:
            raise IllegalMove("web.match_over")
        if seat != HOST_SEAT:
            raise IllegalMove("web.host_deals")
        self.deal()

    def waiting_for(self) -> list[int]:
        """The seats whose person the next hand waits for (none while a hand is played)."""
        if self.state.result is None or self.match.over:
            return []
        here = set(self.present())
        return sorted(n for n in self.person_seats if n in here and n not in self.ready
                      and not self.table.is_computer(n))

    def deal_when_ready(self) -> bool:
        """Deal the next hand if somebody asked for it and nobody there is still reading the
        score sheet (a person who leaves may be the last one waited for): whether it did."""
        if self.state.result is None or self.match.over or not self.ready \
                or self.waiting_for():
            return False
        self.deal()
        return True

    def deal(self) -> None:
        """Deal the next hand now (a clock table's clock does, after its seconds)."""
        self.table.next_hand()
        self.ready.clear()

    def quick_said(self, seat: int) -> None:
        """Count a quick message of ``seat``, or refuse it (``table.quick_too_many``)."""
        if self.quick is not None:
            self.quick.count(self.table_id, seat)

    # --- what each seat sees --------------------------------------------------------------------
    def seat_levels(self) -> list[str | None]:
        return [self.levels[n] if self.table.is_computer(n) else None
                for n in range(len(self.names))]

    def view_json(self, seat: int = HUMAN) -> dict[str, Any]:
        view = self.view(seat)
        out = seat_json(view, names=self.names, levels=self.seat_levels(),
                        match=self.match_json(), drew=self.table.drew.get(seat, ()))
        out["unavailable"] = unavailable(self.state, seat, view.legal_moves, out["legal"],
                                         self.lang_of(seat))
        out["add_fits"] = add_fits(self.state, seat)
        return out

    def spectator_json(self) -> dict[str, Any]:
        """The table as a spectator sees it: everything public, no card of any hand (seat 0's
        view with its private parts emptied)."""
        out = self.view_json(HUMAN)
        view = self.view(HUMAN)
        # (seat 0's side and partner stay: public, and where the client lays the table out)
        out.update({"seat": None, "to_act": False,
                    "hand": [], "drew": None, "answer": None, "unavailable": {}, "add_fits": {},
                    "minimum": 0, "pile_frozen": out["pile_frozen_all"]})
        out["legal"] = {k: ([] if isinstance(v, list) else False)
                        for k, v in legal_json(view).items()}
        return out

    def people_json(self, present: Iterable[int]) -> list[dict[str, Any]]:
        """Who plays each seat and who is connected ("Ana is away")."""
        here = set(present)
        return [{"seat": n, "name": self.names[n], "person": n in self.person_seats,
                 "present": n in self.person_seats and n in here,
                 "computer": self.table.is_computer(n),
                 "ready": n in self.ready} for n in range(len(self.names))]

    def can_undo_for(self, seat: int | None) -> bool:
        return seat is not None and self.table.can_undo(seat)


def seat_names(seats: Table) -> list[str]:
    """The name of each seat: its person's, or a computer player's (never a person's of the
    table: canasta.web.names)."""
    people = [s.name for s in seats.seats if s.kind != COMPUTER and s.name is not None]
    computers = iter(computer_names(people, len(seats.seats) - len(people)))
    return [s.name if s.kind != COMPUTER and s.name is not None else next(computers)
            for s in seats.seats]


def _player(config: GameConfig, seat: int, level: str) -> Player:
    return make_player(level, seed=config.seed * 31 + seat)


def _computers(config: GameConfig, seats: Table) -> dict[int, Player]:
    """The computer players of the table's seats: the computers' seats and the friends' seats
    a computer plays (filled, or handed over)."""
    return {n: _player(config, n, s.level or "expert") for n, s in enumerate(seats.seats)
            if s.kind == COMPUTER or (s.kind == FRIEND and (s.stand_in or not s.taken))}


def _options(config: GameConfig, seats: Table) -> dict[str, Any]:
    """The driver's options of a browser game (undo, the failing computer's fallback), with a
    hint giver for every person's seat, each with that seat's eyes only."""
    options = GameSession._table_options(config)
    options["advisers"] = {n: ExpertPlayer(config.seed * 31 + 97 * n)
                           for n, s in enumerate(seats.seats) if s.kind != COMPUTER}
    return options


__all__ = ["PRIVATE", "TableSession", "seat_names"]
