"""Random legal play for every seat: speed and statistics of the engine."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field

from canasta import core
from canasta.engine.chance import play_out
from canasta.engine.deal import deal, shuffled_deck
from canasta.match import hand_seed
from canasta.rules import Rules


@dataclass
class SimulationReport:
    rules: Rules
    hands: int
    seconds: float
    moves: int
    went_out: int = 0
    concealed: int = 0
    stock_ended: int = 0
    score_sums: list[int] = field(default_factory=list)

    @property
    def hands_per_second(self) -> float:
        return self.hands / self.seconds if self.seconds else float("inf")

    @property
    def moves_per_hand(self) -> float:
        return self.moves / self.hands if self.hands else 0.0

    @property
    def mean_scores(self) -> list[float]:
        return [s / self.hands for s in self.score_sums] if self.hands else []


def simulate(rules: Rules, hands: int = 1000, seed: int = 0) -> SimulationReport:
    """Play ``hands`` independent hands (each the first hand of a match) at random."""
    if hands < 1:
        raise ValueError("simulate at least one hand")
    rng = random.Random(seed)
    report = SimulationReport(rules, hands, 0.0, 0, score_sums=[0] * rules.n_sides)
    start = time.perf_counter()
    for i in range(hands):
        state = deal(rules, shuffled_deck(rules, hand_seed(seed, i + 1)))
        # rng.choice(state.legal_moves()) at every move, in the compiled engine (chance.py)
        report.moves += play_out(state, rng)
        result = state.result
        assert result is not None
        if result.went_out is None:
            report.stock_ended += 1
        else:
            report.went_out += 1
            report.concealed += result.concealed
        for side, s in enumerate(result.scores):
            report.score_sums[side] += s
    report.seconds = time.perf_counter() - start
    return report


def format_report(r: SimulationReport) -> str:
    sides = ", ".join(f"side {i}: {m:.1f}" for i, m in enumerate(r.mean_scores))
    return "\n".join([
        f"{r.rules.variant.title}, {r.rules.players} players: {r.hands} hands of random "
        f"legal play in {r.seconds:.2f} s ({core.describe()})",
        f"hands per second: {r.hands_per_second:.1f}",
        f"moves per hand: {r.moves_per_hand:.1f}",
        f"hands ended: {r.went_out} by going out ({r.concealed} concealed), "
        f"{r.stock_ended} by the end of the stock",
        f"mean score per hand: {sides}",
    ])
