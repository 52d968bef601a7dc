"""One game of the browser: its options, its table, and what the client is sent.

A ``GameSession`` is plain Python (no I/O, no asyncio): the server drives it and stores its
record.  The human plays seat 0; every other seat is a computer player.  The match itself is
driven by a ``table.Table``, as every interface's is.  What a seat is sent is always built from
that seat's view (``present.view_json``).
"""

from __future__ import annotations

import json
import logging
import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from canasta.bots import LEVELS, make_player
from canasta.bots.base import Player
from canasta.bots.basic import BasicPlayer
from canasta.bots.expert import ExpertPlayer
from canasta.cards import Card
from canasta.engine.state import HandState
from canasta.errors import CanastaError, IllegalMove
from canasta.hints import suggest
from canasta.i18n import LANGS
from canasta.match import Match
from canasta.moves import Move
from canasta.records import record_of
from canasta.rules import TARGETS, Rules, is_choice
from canasta.table import Table
from canasta.variants import get_variant, variant_names
from canasta.view import PlayerView
from canasta.web.groups import add_fits, by_rank
from canasta.web.names import MAX_NAME, computer_names, is_printable_name, printable_name
from canasta.web.present import view_json
from canasta.web.reasons import unavailable

log = logging.getLogger("canasta.web")

HUMAN = 0
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
        """The player's name, then the computer players' (never the player's own)."""
        return [self.name, *computer_names([self.name], self.players - 1)]

    def seat_levels(self) -> list[str | None]:
        return [None, *self.levels]


def _fallback(view: PlayerView) -> Move:
    """A sound move when a computer player fails: the basic player's, or the first legal."""
    try:
        return BasicPlayer(0).choose(view)
    except Exception:
        log.exception("the fallback player failed too")
        return view.legal_moves[0]


class GameSession:
    """A game in play: seat 0 is the human, the other seats computer players.

    The match is driven by a ``Table`` (its computer seats, the question to the partner, undo,
    hand and match ends, the record); the session adds what the browser needs: the game's id
    and options, the hint giver's explanations, and the views as the client reads them."""

    def __init__(self, game_id: str, config: GameConfig, table: Table | None = None) -> None:
        self.id = game_id
        self.config = config
        self.table = table if table is not None else Table(
            config.rules(), config.seed, self._computers(config), **self._table_options(config))

    @staticmethod
    def _computers(config: GameConfig) -> dict[int, Player]:
        return {seat: make_player(level, seed=config.seed * 31 + seat)
                for seat, level in enumerate(config.levels, 1)}

    @staticmethod
    def _table_options(config: GameConfig) -> dict[str, Any]:
        def fallback(seat: int, view: PlayerView, error: Exception) -> Move:
            log.error("the %s player of seat %d failed; a basic move is played instead",
                      config.levels[seat - 1], seat, exc_info=error)
            return _fallback(view)

        # The hint button's adviser, with seat 0's eyes.
        return {"advisers": {HUMAN: ExpertPlayer(config.seed * 31)}, "undo": True,
                "fallback": fallback}

    # --- building -----------------------------------------------------------------------
    @classmethod
    def playing(cls, game_id: str, config: GameConfig, match: Match) -> GameSession:
        """A session of ``config`` that plays ``match`` (hands dealt from given decks, say)."""
        return cls(game_id, config, Table(config.rules(), config.seed, cls._computers(config),
                                          match=match, **cls._table_options(config)))

    @classmethod
    def restore(cls, game_id: str, config: GameConfig, record: Mapping[str, Any]) -> GameSession:
        """The session of a stored game: the record is replayed (raises PositionError when it
        is corrupt, ConfigError when it is not a game of ``config``) and the computer players
        watch the current hand again from its deal, so they remember what they would have
        seen."""
        table = Table.restore(record, cls._computers(config), **cls._table_options(config))
        if table.rules != config.rules():
            raise ConfigError("config.record_mismatch")
        return cls(game_id, config, table=table)

    # --- what a seat sees ---------------------------------------------------------------
    @property
    def match(self) -> Match:
        return self.table.match

    @property
    def computers(self) -> dict[int, Player]:
        return self.table.computers

    @property
    def helper(self) -> ExpertPlayer:
        adviser = self.table.advisers[HUMAN]
        assert isinstance(adviser, ExpertPlayer)
        return adviser

    @property
    def drew(self) -> list[Card]:
        return self.table.drew.get(HUMAN, [])

    @property
    def state(self) -> HandState:
        return self.table.state

    def view(self, seat: int = HUMAN) -> PlayerView:
        return self.table.view(seat)

    def match_json(self) -> dict[str, Any]:
        m = self.match
        return {"scores": list(m.scores), "over": m.over, "winner": m.winner,
                "hands": len(m.results), "hand_scores": [list(r.scores) for r in m.results]}

    def view_json(self, seat: int = HUMAN) -> dict[str, Any]:
        names = self.config.seat_names()
        view = self.view(seat)
        out = view_json(view, names=names, levels=self.config.seat_levels(),
                        match=self.match_json(), drew=self.table.drew.get(seat, ()))
        out["unavailable"] = unavailable(self.state, seat, view.legal_moves, out["legal"],
                                         self.config.lang)
        out["add_fits"] = add_fits(self.state, seat)
        return out

    def computer_to_act(self) -> bool:
        return self.table.computer_to_act()

    def can_undo(self) -> bool:
        return self.table.can_undo(HUMAN)

    # --- playing ------------------------------------------------------------------------
    def play(self, seat: int, text: str) -> Move:
        """Play the human seat's move; raises CanastaError (and changes nothing) when it is
        malformed, illegal, out of turn or for a seat that is not the player's.  A meld whose
        cards are of several ranks is laid as one meld per rank (``groups.by_rank``)."""
        if not isinstance(text, str) or len(text) > 400:
            raise IllegalMove("web.move_text")
        # Cards of several ranks melded as one group: one meld per rank (web.groups).
        split = by_rank(self.state, seat, text) if seat not in self.computers else None
        return self.table.play(seat, text if split is None else split)

    def undo(self, seat: int) -> None:
        """Take back the player's last meld or addition of this turn (never a draw, a take or
        anything after the discard); raises IllegalMove when there is nothing to take back."""
        self.table.undo(seat)

    def computer_step(self) -> tuple[int, Move]:
        """Let the computer seat to act choose and play its move."""
        return self.table.step_computer()

    def next_hand(self, seat: int = HUMAN) -> None:
        """Deal the next hand (``seat``: who asks; at a table, ``TableSession`` waits for
        everybody there)."""
        self.table.next_hand()

    def hint(self, seat: int, lang: str) -> tuple[Move, str]:
        """The expert's whole move for the player now (every card it lays this turn on the
        ranks of its first step, ``hints.whole_move``), and why (in ``lang``)."""
        return suggest(self.table.advisers.get(seat), self.state, seat, lang)

    # --- storing ------------------------------------------------------------------------
    def record(self) -> dict[str, Any]:
        return record_of(self.match)


def new_seed() -> int:
    return random.SystemRandom().randrange(2**31)


__all__ = ["HUMAN", "ConfigError", "GameConfig", "GameSession", "new_seed", "targets_for"]
