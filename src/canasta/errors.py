"""The errors the engine raises: a small hierarchy under ValueError."""


class CanastaError(ValueError):
    """Base class of every error the engine raises for bad input."""


class NotationError(CanastaError):
    """Text that is not a card, a move or a position in the notation of FORMAT.md."""


class IllegalMove(CanastaError):
    """A well-formed move that the rules do not allow now; the message says why."""


class PositionError(CanastaError):
    """A position, scenario or record that is malformed or impossible."""
