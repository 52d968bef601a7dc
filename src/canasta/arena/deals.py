"""One duplicate deal of the arena: its configuration, its seatings, and its plays.

Every deal is seeded on its own (``hand_seed`` of the arena's seed and the deal's number), so a
deal plays the same wherever it runs (``executors``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from canasta.bots import make_player
from canasta.match import Match, hand_seed
from canasta.rules import Rules
from canasta.table import Table

#: A match still undecided after this many hands ends there, the side ahead winning (random
#: players may never reach a Modern American target); the research environments' cap too
#: (``envs.core.MAX_HANDS``).
MAX_HANDS = 100


@dataclass(frozen=True)
class ArenaConfig:
    variant: str
    players: int
    team: tuple[str, ...]  # side A's levels, seat by seat
    vs: tuple[str, ...]  # side B's levels, for every other seat in turn
    deals: int
    seed: int = 0
    match: bool = False  # play whole matches to the target instead of single hands
    target: int | None = None
    options: tuple[tuple[str, Any], ...] = ()  # the rule options (house rules), by name
    max_hands: int = MAX_HANDS  # a match still undecided after this many hands ends there

    def rules(self) -> Rules:
        return Rules.make(self.variant, self.players, target=self.target, **dict(self.options))


@dataclass
class PlayResult:
    """One play of a deal: side A's and side B's mean scores and what each side did."""

    a: float
    b: float
    went_out: tuple[bool, bool]
    canastas: tuple[float, float]
    hands: int
    times: tuple[list[float], list[float]] = field(default_factory=lambda: ([], []))
    capped: bool = False  # a match cut at the arena's max_hands, undecided


def seatings(rules: Rules, team: Sequence[str], vs: Sequence[str]) -> list[dict[int, str]]:
    """For each play of a deal, the level of every seat: side A sits at each side in turn."""
    n, sides = rules.players, rules.n_sides
    out = []
    for a_side in range(sides):
        levels: dict[int, str] = {}
        a_seats = [s for s in range(n) if s % sides == a_side]
        b_seats = [s for s in range(n) if s % sides != a_side]
        for i, s in enumerate(a_seats):
            levels[s] = team[i % len(team)]
        for i, s in enumerate(b_seats):
            levels[s] = vs[i % len(vs)]
        out.append(levels)
    return out


def play_deal(config: ArenaConfig, deal: int) -> list[PlayResult]:
    """Every seating of deal number ``deal`` (the same cards each time)."""
    rules = config.rules()
    seed = hand_seed(config.seed, deal + 1)
    results = []
    for play, levels in enumerate(seatings(rules, config.team, config.vs)):
        a_side = play
        # A seat's bot draws its randomness from the deal and the seat alone, so a play with
        # the same levels on both sides is the same game with the sides' names swapped.
        # The master's time caps count CPU time here: an arena (a ladder shard at nice 19 on
        # a shared machine) must not measure a weaker master because the machine is busy.
        bots = {s: make_player(lv, hand_seed(seed, s + 1), clock="cpu")
                for s, lv in levels.items()}
        match = Match(rules, seed) if config.match else Match(
            rules, deals=[Match(rules, seed).deck_for(1)])
        table = Table(rules, computers=bots, match=match)
        times: tuple[list[float], list[float]] = ([], [])
        went = [False, False]
        canastas = [0.0, 0.0]
        hands = 0
        while True:
            state = table.state
            while state.result is None:
                seat, _ = table.step_computer()
                times[0 if seat % rules.n_sides == a_side else 1].append(table.thought * 1000)
            hands += 1
            result = state.result
            if result.went_out is not None:
                went[0 if result.went_out % rules.n_sides == a_side else 1] = True
            for side in range(rules.n_sides):
                k = 0 if side == a_side else 1
                share = 1 if k == 0 else rules.n_sides - 1
                canastas[k] += state.canastas(side) / share
            if not config.match or match.over or hands >= config.max_hands:
                break
            table.next_hand()
        totals = match.scores if config.match else list(result.scores)
        a = totals[a_side]
        b = sum(t for i, t in enumerate(totals) if i != a_side) / (rules.n_sides - 1)
        results.append(PlayResult(a, b, (went[0], went[1]),
                                  (canastas[0] / hands, canastas[1] / hands), hands, times,
                                  config.match and not match.over))
    return results
