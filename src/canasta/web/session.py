"""One game of the browser: a match, its computer players, the human seat, undo and hints.

A ``GameSession`` is plain Python (no I/O, no asyncio): the server drives it and stores its
record.  The human plays seat 0; every other seat is a computer player.  What a seat is sent is
always built from that seat's view (``present.view_json``).
"""

from __future__ import annotations

import json
import logging
import random
import unicodedata
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from canasta.bots import LEVELS, make_player
from canasta.bots.base import Player
from canasta.bots.basic import BasicPlayer
from canasta.bots.expert import ExpertPlayer
from canasta.cards import Card
from canasta.engine.deal import deal
from canasta.engine.state import HandState
from canasta.errors import CanastaError, IllegalMove
from canasta.i18n import LANGS
from canasta.match import Match
from canasta.moves import Move, MoveKind
from canasta.records import record_of, replay
from canasta.rules import TARGETS, Rules, is_choice
from canasta.variants import get_variant, variant_names
from canasta.view import PlayerView, view_of
from canasta.web.hints import explain
from canasta.web.present import view_json
from canasta.web.reasons import unavailable

log = logging.getLogger("canasta.web")

HUMAN = 0
MAX_NAME = 40
COMPUTER_NAMES = ("Lucía", "Mateo", "Elena", "Diego", "Sofía")  # seats 1, 2, ...
#: What a new game is when its options do not say: the variant's own table size and target
#: come from the variant registry, the computer seats play at DEFAULT_LEVEL.
DEFAULT_VARIANT = "classic"
DEFAULT_LEVEL = "expert"
_DEFAULT_PLAYERS = get_variant(DEFAULT_VARIANT).default_players


def targets_for(variant: str, players: int) -> list[int]:
    """The target scores a game may choose: the usual ones and the variant's own (Modern
    American plays to 8,500, Ponytail to 50,000 or four hands)."""
    return sorted({*TARGETS, get_variant(variant).default_target(players)})


class ConfigError(CanastaError):
    """A new game's options are not acceptable; the code (``config.*``) says which and why."""


def new_game_choices() -> dict[str, Any]:
    """What a new game may be, for the start screen (``GET /api/options``), all of it read
    from the registries: every registered variant with its table sizes, sides, targets and
    house rules per table size; the computer players' levels; the languages; the defaults."""
    variants = []
    for name in variant_names():
        v = get_variant(name)
        counts = v.player_counts
        variants.append({
            "name": name, "title": v.title, "players": list(counts),
            "default_players": v.default_players,
            "sides": {str(p): v.n_sides(p) for p in counts},
            "default_targets": {str(p): v.default_target(p) for p in counts},
            "targets": {str(p): targets_for(name, p) for p in counts},
            "options": {str(p): table_options(name, p) for p in counts}})
    default = get_variant(DEFAULT_VARIANT)
    return {"variants": variants, "levels": list(LEVELS), "targets": list(TARGETS),
            "langs": list(LANGS),
            "defaults": {"variant": DEFAULT_VARIANT, "players": default.default_players,
                         "target": default.default_target(default.default_players),
                         "level": DEFAULT_LEVEL}}


def table_options(variant: str, players: int) -> list[dict[str, Any]]:
    """The house rules a game of ``variant`` at a table of ``players`` may choose: each
    option with a choice of values (RULES.md's E-decisions), its choices and its default."""
    v = get_variant(variant)
    return [{"name": name, "choices": list(choices), "default": v.option_defaults[name]}
            for name, choices in v.offered_options(players).items()]


def _house_rules(variant: str, players: int, given: object) -> tuple[tuple[str, Any], ...]:
    """The house rules of a new game, checked against what the table offers (ConfigError)."""
    if not isinstance(given, Mapping):
        raise ConfigError("config.options_object")
    offered = {o["name"]: o for o in table_options(variant, players)}
    out = []
    for name, value in given.items():
        option = offered.get(name)
        if option is None:
            known = ", ".join(offered) or "none"
            raise ConfigError("config.no_house_rule", variant=variant, players=players,
                              name=repr(name), known=known)
        if not is_choice(value, option["choices"]):
            choices = ", ".join(json.dumps(c) for c in option["choices"])
            raise ConfigError("config.house_rule_value", name=repr(name), known=choices,
                              value=json.dumps(value))
        out.append((name, value))
    return tuple(sorted(out))


def is_printable_name(name: str) -> bool:
    """No control characters and no lone surrogates (which UTF-8 cannot carry); every letter,
    sign, emoji and space of any script is welcome."""
    return not any(unicodedata.category(ch) in ("Cc", "Cs") for ch in name)


def printable_name(name: str) -> str:
    """``name`` without the characters ``is_printable_name`` refuses."""
    return "".join(ch for ch in name if unicodedata.category(ch) not in ("Cc", "Cs")).strip()


@dataclass(frozen=True)
class GameConfig:
    """What the player chose when starting the game."""

    variant: str = DEFAULT_VARIANT
    players: int = _DEFAULT_PLAYERS
    target: int = get_variant(DEFAULT_VARIANT).default_target(_DEFAULT_PLAYERS)
    levels: tuple[str, ...] = (DEFAULT_LEVEL,) * (_DEFAULT_PLAYERS - 1)  # seats 1, 2, ...
    name: str = "Player"
    lang: str = "en"
    seed: int = 0
    options: tuple[tuple[str, Any], ...] = ()  # the house rules chosen (see table_options)

    @staticmethod
    def from_json(obj: Mapping[str, Any], seed: int) -> GameConfig:
        """Read and check a new game's options (``ConfigError`` says what is wrong)."""
        if not isinstance(obj, Mapping):
            raise ConfigError("config.not_object")
        known = {"variant", "players", "target", "levels", "name", "lang", "options"}
        unknown = sorted(set(obj) - known)
        if unknown:
            raise ConfigError("config.unknown_options", names=", ".join(unknown))
        variant = obj.get("variant", DEFAULT_VARIANT)
        if not isinstance(variant, str) or variant not in variant_names():
            raise ConfigError("config.unknown_variant", text=repr(variant),
                              known=", ".join(variant_names()))
        v = get_variant(variant)
        players = obj.get("players", v.default_players)
        if not isinstance(players, int) or isinstance(players, bool) \
                or players not in v.player_counts:
            raise ConfigError("config.players", variant=v.name, counts=tuple(v.player_counts),
                              value=repr(players))
        target = obj.get("target", v.default_target(players))
        allowed = targets_for(variant, players)
        if not isinstance(target, int) or isinstance(target, bool) or target not in allowed:
            raise ConfigError("config.target", counts=tuple(allowed), value=repr(target))
        levels = obj.get("levels", [DEFAULT_LEVEL] * (players - 1))
        if (not isinstance(levels, list) or len(levels) != players - 1
                or not all(isinstance(x, str) and x in LEVELS for x in levels)):
            raise ConfigError("config.levels", seats=players - 1, known=", ".join(LEVELS))
        name = obj.get("name", "Player")
        if (not isinstance(name, str) or not name.strip() or len(name) > MAX_NAME
                or not is_printable_name(name)):
            raise ConfigError("config.name", most=MAX_NAME)
        lang = obj.get("lang", "en")
        if lang not in LANGS:
            raise ConfigError("config.lang", known=", ".join(LANGS), value=repr(lang))
        options = _house_rules(variant, players, obj.get("options", {}))
        return GameConfig(variant, players, target, tuple(levels), name.strip(), lang, seed,
                          options)

    def rules(self) -> Rules:
        return Rules.make(self.variant, self.players, target=self.target, **dict(self.options))

    def to_json(self) -> dict[str, Any]:
        return {"variant": self.variant, "players": self.players, "target": self.target,
                "levels": list(self.levels), "name": self.name, "lang": self.lang,
                "seed": self.seed, "options": dict(self.options)}

    @staticmethod
    def stored(obj: Mapping[str, Any]) -> GameConfig:
        """A config read back from the store (checked like a new one; a name saved before
        control characters were refused loses them)."""
        seed = obj.get("seed")
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise ConfigError("config.no_seed")
        given = {k: v for k, v in obj.items() if k != "seed"}
        if isinstance(given.get("name"), str):
            given["name"] = printable_name(given["name"]) or "Player"
        return GameConfig.from_json(given, seed)

    def seat_names(self) -> list[str]:
        return [self.name, *COMPUTER_NAMES[:self.players - 1]]

    def seat_levels(self) -> list[str | None]:
        return [None, *self.levels]


def _fallback(view: PlayerView) -> Move:
    """A sound move when a computer player fails: the basic player's, or the first legal."""
    try:
        return BasicPlayer(0).choose(view)
    except Exception:
        log.exception("the fallback player failed too")
        return view.legal_moves[0]


def _observe(player: Player, view: PlayerView) -> None:
    """Let a computer player see the table without choosing (to rebuild its memory)."""
    observe = getattr(player, "observe", None)
    if callable(observe):
        observe(view)


class GameSession:
    """A game in play: seat 0 is the human, the other seats computer players."""

    def __init__(self, game_id: str, config: GameConfig, match: Match | None = None) -> None:
        self.id = game_id
        self.config = config
        self.match = match if match is not None else Match(config.rules(), config.seed)
        self.computers: dict[int, Player] = {
            seat: make_player(level, seed=config.seed * 31 + seat)
            for seat, level in enumerate(config.levels, 1)}
        self.helper = ExpertPlayer(config.seed * 31)  # the hint button's adviser, seat 0's eyes
        self._undo: list[tuple[HandState, int, list[Card]]] = []
        self.drew: list[Card] = []
        self._new_hand_players()

    # --- building -----------------------------------------------------------------------
    @classmethod
    def restore(cls, game_id: str, config: GameConfig, record: Mapping[str, Any]) -> GameSession:
        """The session of a stored game: the record is replayed (raises PositionError when it
        is corrupt, ConfigError when it is not a game of ``config``) and the computer players
        watch the current hand again from its deal, so they remember what they would have
        seen."""
        match = replay(record)
        if match.rules != config.rules():
            raise ConfigError("config.record_mismatch")
        session = cls(game_id, config, match)
        session._rewatch()
        return session

    def _new_hand_players(self) -> None:
        for seat, player in self.computers.items():
            player.new_hand(seat)
        self.helper.new_hand(HUMAN)
        self._undo.clear()
        self.drew = []

    def _rewatch(self) -> None:
        """Replay the current hand from its deal, showing each computer seat (and the hint
        adviser) its view whenever it was to act."""
        m = self.match
        state = deal(m.rules, m.deck_for(m.hand_number), scores=m.state.scores,
                     hand_number=m.hand_number)
        self._new_hand_players()
        moves = list(m.moves[-1])
        del m.moves[-1][:]  # rebuilt move by move, so that undo steps know their place
        for seat, move in moves:
            if seat in self.computers:
                _observe(self.computers[seat], view_of(state, seat))
            elif seat == HUMAN:
                self.helper.memory.update(view_of(state, seat))

            def apply(mv: Move, seat: int = seat) -> Move:
                played = state.apply(mv, seat)
                m.moves[-1].append((seat, played))
                return played

            self._play_tracked(state, move, seat, apply)
        m.state = state

    # --- what a seat sees ---------------------------------------------------------------
    @property
    def state(self) -> HandState:
        return self.match.state

    def view(self, seat: int = HUMAN) -> PlayerView:
        return view_of(self.match.state, seat)

    def match_json(self) -> dict[str, Any]:
        m = self.match
        return {"scores": list(m.scores), "over": m.over, "winner": m.winner,
                "hands": len(m.results), "hand_scores": [list(r.scores) for r in m.results]}

    def view_json(self, seat: int = HUMAN) -> dict[str, Any]:
        names = self.config.seat_names()
        view = self.view(seat)
        out = view_json(view, names=names, levels=self.config.seat_levels(),
                        match=self.match_json(), drew=self.drew if seat == HUMAN else ())
        out["unavailable"] = unavailable(self.state, seat, view.legal_moves, out["legal"],
                                         self.config.lang)
        return out

    def computer_to_act(self) -> bool:
        seat = self.state.to_move()
        return seat is not None and seat in self.computers

    def can_undo(self) -> bool:
        return bool(self._undo) and self.state.result is None and self.state.turn == HUMAN

    # --- playing ------------------------------------------------------------------------
    def play(self, seat: int, text: str) -> Move:
        """Play the human seat's move; raises CanastaError (and changes nothing) when it is
        malformed, illegal, out of turn or for a seat that is not the player's."""
        if seat != HUMAN:
            raise IllegalMove("web.computer_seat", seat=seat)
        if not isinstance(text, str) or len(text) > 400:
            raise IllegalMove("web.move_text")
        state = self.state
        move = state.parse(text)
        if state.result is None and state.turn == HUMAN:
            self.helper.memory.update(self.view(HUMAN))
        return self._play_tracked(self.match.state, move, seat,
                                  lambda m: self.match.apply(m, seat))

    def _play_tracked(self, state: HandState, move: Move, seat: int,
                      apply: Callable[[Move], Move]) -> Move:
        """Play ``move`` of ``seat`` in ``state`` (through ``apply``), keeping the undo steps
        and the cards the player just received."""
        before = (state.copy(), len(self.match.moves[-1]), list(self.drew))
        hand_before = list(state.hands[HUMAN])
        played = apply(move)
        hand = state.hands[HUMAN]
        gained = Counter(hand)
        gained.subtract(hand_before)
        new_cards = sorted(gained.elements(), key=lambda c: c.id)
        if seat != HUMAN:
            if played.kind is MoveKind.DISCARD:
                self._undo.clear()
            if new_cards:  # the partner's first canasta brought the player's ponytail
                self.drew = new_cards
            return played
        revealed = bool(new_cards)  # a draw, a take, a ponytail picked up: seen, so final
        penalized = state.penalties != before[0].penalties  # a penalty is final too
        if played.kind in (MoveKind.MELD, MoveKind.ADD) and state.result is None \
                and not revealed and not penalized:
            self._undo.append(before)
        else:
            self._undo.clear()
        if played.kind is MoveKind.DISCARD:
            self.drew = []
        elif new_cards:  # (what came since the player's last discard: a ponytail, a draw)
            self.drew = self.drew + new_cards
        return played

    def undo(self, seat: int) -> None:
        """Take back the player's last meld or addition of this turn (never a draw, a take or
        anything after the discard); raises IllegalMove when there is nothing to take back."""
        if seat != HUMAN or not self.can_undo():
            raise IllegalMove("web.nothing_to_undo")
        state, n, drew = self._undo.pop()
        self.match.state = state
        del self.match.moves[-1][n:]
        self.drew = drew

    def computer_step(self) -> tuple[int, Move]:
        """Let the computer seat to act choose and play its move."""
        seat = self.state.to_move()
        if seat is None or seat not in self.computers:
            raise IllegalMove("web.no_computer_to_act")
        view = self.view(seat)
        try:
            move = self.computers[seat].choose(view)
            self.state.check(move, seat)
        except Exception:  # a computer player's failure must not stop the game
            log.exception("the %s player of seat %d failed; a basic move is played instead",
                          self.config.levels[seat - 1], seat)
            move = _fallback(view)
        played = self._play_tracked(self.match.state, move, seat,
                                    lambda mv: self.match.apply(mv, seat))
        return seat, played

    def next_hand(self) -> None:
        if self.state.result is None:
            raise IllegalMove("web.hand_not_over")
        if self.match.over:
            raise IllegalMove("web.match_over")
        self.match.next_hand()
        self._new_hand_players()

    def hint(self, seat: int, lang: str) -> tuple[Move, str]:
        """The expert's move for the player now, and why (in ``lang``)."""
        view = self.view(seat)
        if seat != HUMAN or not view.to_act:
            raise IllegalMove("web.no_hint")
        self.helper.memory.update(view)
        move = self.helper.decide(view)
        return move, explain(view, move, lang)

    # --- storing ------------------------------------------------------------------------
    def record(self) -> dict[str, Any]:
        return record_of(self.match)


def new_seed() -> int:
    return random.SystemRandom().randrange(2**31)


__all__ = ["HUMAN", "ConfigError", "GameConfig", "GameSession", "new_seed", "targets_for"]
