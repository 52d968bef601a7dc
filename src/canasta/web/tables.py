"""Tables with friends: who sits where, and the links that let them (docs/PROTOCOL.md, "Tables").

A table is the game before (and around) its match: the options the host chose and, per seat,
the host (seat 0), a friend, or a computer player.  Every way into a table is a capability: a
link carrying a random key of ``KEY_BYTES`` bytes (176 bits) made by the ``secrets`` module.
The server keeps only a SHA-256 hash of each key (a key this long cannot be guessed, so a slow
password hash would add nothing) and compares hashes with ``hmac.compare_digest``.  The keys:

* the host's (seat 0, and the host-only actions: start, fill the empty seats with computer
  players, hand an absent friend's seat to a computer player and give it back);
* one invite per friend's seat (whoever has it sits there, and comes back through it);
* the table's own link, from which a friend picks a free friend's seat and a name (joining
  through it makes a new key for that seat: the table link itself never becomes a seat's);
* the spectator's (the lobby, and the match with no card of any hand).

This module is plain Python (no I/O): ``TableRefusal`` says what is refused and why, and every
change returns a new ``Table``, so a refused or unstored change leaves the table as it was.
"""

from __future__ import annotations

import copy
import hashlib
import hmac
import re
import secrets
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Final

from canasta.bots import LEVELS
from canasta.errors import CanastaError
from canasta.i18n import LANGS
from canasta.variants import get_variant, variant_names
from canasta.web.names import MAX_NAME, is_printable_name, printable_name, same_name
from canasta.web.session import DEFAULT_LEVEL, DEFAULT_VARIANT, HUMAN, ConfigError, GameConfig

KEY_BYTES = 22  # 176 bits, written as 30 URL-safe characters
#: A table's turn clock, in seconds (None: off, the default): how long the match waits for an
#: absent person's turn before a computer player makes it (``lobby.Lobby._clock``).
CLOCKS = (30, 60, 120, 300)
_KEY_SHAPE = re.compile(r"[A-Za-z0-9_-]{16,64}")
HOST, FRIEND, COMPUTER = "host", "friend", "computer"
#: What a key lets its holder be: the host, the person of a seat, an invite not used yet (or
#: used by somebody else), the table's own link, a spectator.
ROLE_HOST, ROLE_SEAT, ROLE_INVITE, ROLE_TABLE, ROLE_WATCH = (
    "host", "seat", "invite", "table", "watch")


#: The HTTP status of each refusal of a table, by its code (canasta.refusals.REFUSALS).
STATUS: Final[dict[str, int]] = {
    "table.no_key": 403, "table.wrong_key": 403, "table.other_seat": 403,
    "table.watch_only": 403, "table.not_seated": 403, "table.host_only": 403,
    "table.no_table": 404, "table.game_gone": 404,
    "table.started": 409, "table.seat_taken": 409, "table.not_friend_seat": 409,
    "table.host_seated": 409, "table.present": 409, "table.nobody": 409,
    "table.seat_empty": 409, "table.not_started": 409, "table.name_taken": 409,
    "table.cannot_save": 503, "table.quick_too_many": 429,
}


class TableRefusal(CanastaError):
    """A refused table request: ``code`` (``table.*``, stable, for the client and the message
    catalogues) and its ``params``; ``status`` is the HTTP one (:data:`STATUS`, 400 when the
    code is not listed there)."""

    def __init__(self, code: str, /, **params: Any) -> None:
        super().__init__(code, **params)
        self.status = STATUS.get(code, 400)


def new_key() -> str:
    return secrets.token_urlsafe(KEY_BYTES)


def key_hash(key: str) -> str:
    return hashlib.sha256(key.encode("ascii")).hexdigest()


def well_formed_key(key: object) -> bool:
    """Whether ``key`` could be one of ours (anything else is refused before it is hashed)."""
    return isinstance(key, str) and _KEY_SHAPE.fullmatch(key) is not None


@dataclass(frozen=True)
class Pass:
    """What a key opens: ``role`` and, for the host and a seat's person or invite, the seat."""

    role: str
    seat: int | None = None


@dataclass
class Seat:
    """One seat: ``kind`` is host, friend or computer; ``level`` the computer player's (for a
    friend's seat: the level of the computer that plays it when the host lets one); ``invite``
    and ``key`` hashes (a friend's invite; the key of the person sitting there, which is the
    invite's when they came through it); ``stand_in``: a computer plays the friend's seat;
    ``lang``: the language its person last asked for; ``person``: the hash of the device key
    its person sat down with (``X-Canasta-Device``), whose statistics and games list hold this
    table's match (None: the seat's own key stands for its person, see ``person_of``)."""

    kind: str
    level: str | None = None
    name: str | None = None
    invite: str | None = None
    key: str | None = None
    stand_in: bool = False
    lang: str | None = None
    person: str | None = None

    @property
    def taken(self) -> bool:
        return self.key is not None

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "level": self.level, "name": self.name,
                "invite": self.invite, "key": self.key, "stand_in": self.stand_in,
                "lang": self.lang, "person": self.person}

    @staticmethod
    def from_json(obj: Mapping[str, Any]) -> Seat:
        lang, person = obj.get("lang"), obj.get("person")
        name = obj.get("name")  # (stored before some characters were refused: without them)
        name = (printable_name(name) or "Player") if isinstance(name, str) else None
        return Seat(str(obj["kind"]), obj.get("level"), name, obj.get("invite"),
                    obj.get("key"), bool(obj.get("stand_in")),
                    lang if lang in LANGS else None,
                    person if isinstance(person, str) else None)


@dataclass
class Table:
    """A table: ``config`` is a new game's options as ``POST /api/games`` takes them (the
    friends' seats with their stand-in levels), ``seats`` one per player, ``game`` the match's
    id once the host has started it."""

    id: str
    config: dict[str, Any]
    host: str  # the hashes of the host's, the table's and the spectator's keys
    join: str
    watch: str
    seats: list[Seat] = field(default_factory=list)
    game: str | None = None
    clock: int | None = None

    # --- opening ---------------------------------------------------------------------------
    @staticmethod
    def open(table_id: str, body: object,
             person: str | None = None) -> tuple[Table, dict[str, Any]]:
        """A new table from the start screen's choices: ``body`` is ``POST /api/games``'s but
        ``seats`` replaces ``levels``: one entry per seat 1, 2, ... ``{"level": "expert"}`` for
        a computer player or ``{"friend": true}`` (optionally with the ``level`` of the computer
        that would stand in).  Returns the table and its keys (given once, never stored):
        ``{"host", "table", "watch", "invites": {seat: key}}``; ConfigError when ``body`` is
        not acceptable.  ``person``: the hash of the host's device key, if they sent one."""
        if not isinstance(body, Mapping):
            raise ConfigError("config.table_not_object")
        if "levels" in body:
            raise ConfigError("config.table_levels")
        given = dict(body)
        seats_given = given.pop("seats", None)
        clock = given.pop("clock", None)
        if clock is not None and (not isinstance(clock, int) or isinstance(clock, bool)
                                  or clock not in CLOCKS):
            raise ConfigError("config.table_clock", counts=list(CLOCKS), value=repr(clock))
        players = given.get("players")
        if not isinstance(seats_given, list) or not all(
                isinstance(s, Mapping) for s in seats_given):
            raise ConfigError("config.table_seats")
        seats: list[Seat] = []
        for n, spec in enumerate(seats_given, 1):
            seats.append(_seat_of(n, spec))
        given["levels"] = [s.level for s in seats]
        variant = given.get("variant", DEFAULT_VARIANT)
        if variant in variant_names():
            v = get_variant(variant)
            wanted = players if isinstance(players, int) and players in v.player_counts \
                else v.default_players
            if len(seats) != wanted - 1:
                raise ConfigError("config.table_seat_count", count=wanted - 1)
        # GameConfig checks the variant, the table size, target, name, language and house
        # rules exactly as for a game of one person.
        config = GameConfig.from_json(given, 0)
        if not any(s.kind == FRIEND for s in seats):
            raise ConfigError("config.table_no_friend")
        keys: dict[str, Any] = {"host": new_key(), "table": new_key(), "watch": new_key(),
                                "invites": {}}
        host = Seat(HOST, None, config.name, None, key_hash(keys["host"]), lang=config.lang,
                    person=person)
        for n, seat in enumerate(seats, 1):
            if seat.kind == FRIEND:
                invite = new_key()
                keys["invites"][n] = invite
                seat.invite = key_hash(invite)
        stored = config.to_json()
        del stored["seed"]  # the match's seed is drawn when the host starts it
        table = Table(table_id, stored, key_hash(keys["host"]), key_hash(keys["table"]),
                      key_hash(keys["watch"]), [host, *seats], None, clock)
        return table, keys

    # --- who is asking ---------------------------------------------------------------------
    def resolve(self, key: object) -> Pass:
        """What ``key`` opens at this table; TableRefusal (403) when it opens nothing.  Every
        stored hash is compared, in constant time each, whatever matches first."""
        if not well_formed_key(key):
            raise TableRefusal("table.wrong_key")
        assert isinstance(key, str)
        h = key_hash(key)
        found: Pass | None = None
        for candidate, what in ((self.host, Pass(ROLE_HOST, HUMAN)),
                                (self.join, Pass(ROLE_TABLE)),
                                (self.watch, Pass(ROLE_WATCH))):
            if hmac.compare_digest(candidate, h) and found is None:
                found = what
        for n, seat in enumerate(self.seats):
            if n == HUMAN:
                continue
            if seat.key is not None and hmac.compare_digest(seat.key, h) and found is None:
                found = Pass(ROLE_SEAT, n)
            if seat.invite is not None and hmac.compare_digest(seat.invite, h) \
                    and found is None:
                found = Pass(ROLE_INVITE, n)
        if found is None:
            raise TableRefusal("table.wrong_key")
        return found

    @property
    def started(self) -> bool:
        return self.game is not None

    def seat_of(self, who: Pass) -> int | None:
        """The seat whose person holds ``who`` (None for the table link, an unused or taken
        invite and a spectator)."""
        return who.seat if who.role in (ROLE_HOST, ROLE_SEAT) else None

    # --- changes (each returns a new table) -----------------------------------------------
    def joined(self, who: Pass, name: object, seat: object = None,
               person: str | None = None) -> tuple[Table, str | None]:
        """The table once the holder of ``who`` sits down as ``name``: an invite sits at its
        own seat (``seat``, when given, must be it), the table link at the free friend's
        ``seat`` it names; ``person``: the hash of their device key, if they sent one (joining
        again through an invite keeps the person first seated unless it gives one).  Returns
        the table and the new key of that seat when one was made (through the table link; an
        invite stays its seat's key)."""
        if self.started:
            raise TableRefusal("table.started")
        clean = _name(name)
        if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool)):
            raise TableRefusal("table.bad_seat")
        if who.role in (ROLE_INVITE, ROLE_SEAT):
            assert who.seat is not None
            if seat is not None and seat != who.seat:
                raise TableRefusal("table.other_seat", seat=who.seat, asked=seat)
            n = who.seat
            if who.role == ROLE_INVITE and self.seats[n].taken:
                raise TableRefusal("table.seat_taken", seat=n)
            self._check_name_free(clean, n)
            out = self._copy()
            out.seats[n].name = clean
            out.seats[n].key = out.seats[n].invite
            out.seats[n].stand_in = False
            out.seats[n].person = person or out.seats[n].person
            return out, None
        if who.role == ROLE_TABLE:
            if seat is None:
                raise TableRefusal("table.choose_seat")
            if not 0 <= seat < len(self.seats):
                raise TableRefusal("table.no_such_seat", last=len(self.seats) - 1,
                                   value=str(seat))
            if self.seats[seat].kind != FRIEND:
                raise TableRefusal("table.not_friend_seat", seat=seat)
            if self.seats[seat].taken:
                raise TableRefusal("table.seat_taken", seat=seat)
            self._check_name_free(clean, seat)
            key = new_key()
            out = self._copy()
            out.seats[seat].name = clean
            out.seats[seat].key = key_hash(key)
            out.seats[seat].stand_in = False
            out.seats[seat].person = person
            return out, key
        if who.role == ROLE_HOST:
            raise TableRefusal("table.host_seated")
        raise TableRefusal("table.watch_only")

    def filled(self, who: Pass) -> Table:
        """The table with a computer player in every friend's seat nobody took (host only)."""
        self._host_only(who)
        if self.started:
            raise TableRefusal("table.started")
        out = self._copy()
        for seat in out.seats:
            if seat.kind == FRIEND and not seat.taken:
                seat.stand_in = True
        return out

    def handed(self, who: Pass, seat: object, computer: object,
               present: Iterable[int] = ()) -> Table:
        """The table with the friend's ``seat`` handed to a computer player (``computer``
        true; only when nobody of that seat is connected) or given back (false)."""
        self._host_only(who)
        if not isinstance(computer, bool):
            raise TableRefusal("table.bad_field")
        if not isinstance(seat, int) or isinstance(seat, bool) \
                or not 0 <= seat < len(self.seats):
            raise TableRefusal("table.no_such_seat", last=len(self.seats) - 1,
                               value=str(seat))
        s = self.seats[seat]
        if s.kind != FRIEND:
            raise TableRefusal("table.not_friend_seat", seat=seat)
        if computer and s.taken and seat in set(present):
            raise TableRefusal("table.present", name=s.name)
        if not computer and not s.taken:
            raise TableRefusal("table.nobody", seat=seat)
        out = self._copy()
        out.seats[seat].stand_in = computer
        return out

    def relinked(self, who: Pass) -> tuple[Table, dict[str, Any]]:
        """The table with new keys for its table link, its spectators and every friend's seat
        nobody took (host only): the old ones open nothing any more, the seated keep theirs.
        Returns the table and the new keys (``{"table", "watch", "invites"}``)."""
        self._host_only(who)
        keys: dict[str, Any] = {"table": new_key(), "watch": new_key(), "invites": {}}
        out = self._copy()
        out.join, out.watch = key_hash(keys["table"]), key_hash(keys["watch"])
        for n, seat in enumerate(out.seats):
            if seat.kind == FRIEND and not seat.taken:
                keys["invites"][n] = new_key()
                seat.invite = key_hash(keys["invites"][n])
        return out, keys

    def started_as(self, who: Pass, game_id: str) -> Table:
        """The table once the host starts its match ``game_id``: every friend's seat must be
        taken or filled (TableRefusal otherwise)."""
        self._host_only(who)
        if self.started:
            raise TableRefusal("table.started")
        self.check_ready()
        out = self._copy()
        out.game = game_id
        return out

    def with_lang(self, seat: int, lang: str) -> Table:
        """The table with ``lang`` the language of ``seat``'s person (ConfigError for a
        language the game has not)."""
        if lang not in LANGS:
            raise ConfigError("config.lang", known=", ".join(LANGS), value=repr(lang))
        out = self._copy()
        out.seats[seat].lang = lang
        return out

    def person_of(self, seat: int) -> str | None:
        """Who the person of ``seat`` is for the statistics and the games list: the hash of
        the device key they sat down with, else that of their seat's key (a person known at
        this table only); None for a seat no person took."""
        s = self.seats[seat]
        if s.kind == COMPUTER or not s.taken:
            return None
        return s.person or s.key

    def check_ready(self) -> None:
        for n, seat in enumerate(self.seats):
            if seat.kind == FRIEND and not seat.taken and not seat.stand_in:
                raise TableRefusal("table.seat_empty", seat=n)

    def game_options(self) -> dict[str, Any]:
        """The options of the table's match as ``POST /api/games`` takes them: each friend's
        seat with its stand-in's level (the match driver seats the people; see PROTOCOL.md)."""
        return {k: copy.deepcopy(v) for k, v in self.config.items()}

    def _check_name_free(self, name: str, seat: int) -> None:
        """Refuse ``name`` to ``seat`` when another person of the table has it (no two seats
        share a name; the computer players take none of the people's, canasta.web.names)."""
        for n, s in enumerate(self.seats):
            if n != seat and s.kind != COMPUTER and s.name is not None \
                    and same_name(s.name, name):
                raise TableRefusal("table.name_taken", name=name)

    @staticmethod
    def _host_only(who: Pass) -> None:
        if who.role != ROLE_HOST:
            raise TableRefusal("table.host_only")

    def _copy(self) -> Table:
        return replace(self, config=copy.deepcopy(self.config),
                       seats=[replace(s) for s in self.seats])

    # --- what a key sees -------------------------------------------------------------------
    def lobby(self, who: Pass, present: Iterable[int] = ()) -> dict[str, Any]:
        """The lobby as the holder of ``who`` sees it: the options, who sits where, who is
        connected; never a key or a hash.  The match's id only to the host (everybody plays
        it through the table's socket, PROTOCOL.md, "Tables")."""
        here = set(present)
        seats = []
        for n, s in enumerate(self.seats):
            person = s.kind == HOST or (s.kind == FRIEND and s.taken)
            seats.append({
                "seat": n, "kind": s.kind, "name": s.name,
                "level": s.level if s.kind != HOST else None,
                "taken": s.kind == HOST or s.taken,
                "present": person and n in here,
                "computer": s.kind == COMPUTER or (s.kind == FRIEND and s.stand_in)})
        c = self.config
        return {"type": "lobby", "id": self.id, "variant": c["variant"],
                "players": c["players"], "sides": get_variant(c["variant"]).n_sides(
                    c["players"]), "target": c["target"], "options": c["options"],
                "clock": self.clock,
                "lang": c["lang"], "seats": seats,
                "game": self.game if who.role == ROLE_HOST else None,
                "started": self.started,
                "you": {"role": who.role, "seat": who.seat,
                        "joined": who.role in (ROLE_HOST, ROLE_SEAT)}}

    # --- storing ---------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return {"config": self.config, "host": self.host, "join": self.join,
                "watch": self.watch, "seats": [s.to_json() for s in self.seats],
                "game": self.game, "clock": self.clock}

    @staticmethod
    def from_json(table_id: str, obj: Mapping[str, Any]) -> Table:
        """A stored table (KeyError, TypeError or ValueError when the row is damaged)."""
        seats = [Seat.from_json(s) for s in obj["seats"]]
        if not seats or seats[0].kind != HOST:
            raise ValueError("a table's seat 0 is its host's")
        game, clock = obj.get("game"), obj.get("clock")
        return Table(table_id, dict(obj["config"]), str(obj["host"]), str(obj["join"]),
                     str(obj["watch"]), seats, game if isinstance(game, str) else None,
                     clock if clock in CLOCKS else None)


def _seat_of(n: int, spec: Mapping[str, Any]) -> Seat:
    unknown = sorted(set(spec) - {"friend", "level"})
    if unknown:
        raise ConfigError("config.seat_fields", seat=n, names=", ".join(unknown))
    friend = spec.get("friend", False)
    if not isinstance(friend, bool):
        raise ConfigError("config.seat_friend", seat=n)
    level = spec.get("level", DEFAULT_LEVEL if friend else None)
    if not isinstance(level, str) or level not in LEVELS:
        raise ConfigError("config.seat_level", seat=n, known=", ".join(LEVELS))
    return Seat(FRIEND if friend else COMPUTER, level)


def _name(name: object) -> str:
    if (not isinstance(name, str) or not name.strip() or len(name) > MAX_NAME
            or not is_printable_name(name)):
        raise TableRefusal("table.bad_name", most=MAX_NAME)
    return name.strip()


__all__ = ["KEY_BYTES", "STATUS", "Pass", "Seat", "Table", "TableRefusal", "key_hash", "new_key"]
