"""canasta: an exact, seeded rules engine for Canasta, and games against the computer.

>>> from canasta import Rules, Match
>>> match = Match(Rules.make("classic", 4), seed=7)
>>> [str(m) for m in match.state.legal_moves()][:1]
['draw']
"""

# First: importing canasta.core puts the compiled engine in front, when it matches the source.
import canasta.core

# isort: split
from canasta.cards import Card, card, cards, make_deck
from canasta.engine.scoring import HandResult
from canasta.engine.state import HandState
from canasta.errors import CanastaError, IllegalMove, NotationError, PositionError
from canasta.match import Match
from canasta.moves import Move, MoveKind, parse_move
from canasta.position import position_from_json, position_to_json
from canasta.rules import Rules
from canasta.view import PlayerView, view_of

__version__ = "0.1.0"

canasta.core.register_dataclasses()

__all__ = [
    "CanastaError",
    "Card",
    "HandResult",
    "HandState",
    "IllegalMove",
    "Match",
    "Move",
    "MoveKind",
    "NotationError",
    "PlayerView",
    "PositionError",
    "Rules",
    "card",
    "cards",
    "make_deck",
    "parse_move",
    "position_from_json",
    "position_to_json",
    "view_of",
]
