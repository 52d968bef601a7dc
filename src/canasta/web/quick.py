"""Quick messages between the players of a table: a fixed list, no free text.

The server relays only an id; each reader's client shows it in the reader's own language (the
texts are the client's, in the catalogues ``canasta/locale/<lang>.po`` under the context
``quick.<id>``).  A fixed list keeps
a table friendly without moderation, and needs no translation between players.

A person may send at most ``QUICK_MOST`` of them in any ``QUICK_WINDOW`` seconds, over the
table's socket and the match's together (``QuickLimit``): a fixed list cannot offend, but forty
"Hurry up, please" a minute can.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable

from canasta.web.tables import TableRefusal

QUICK_MESSAGES = (
    "hello",
    "good_luck",
    "well_played",
    "nice_canasta",
    "hurry_up",
    "sorry",
    "thanks",
    "one_moment",
    "good_game",
    "bye",
)
QUICK_MOST = 6  # quick messages a person may send ...
QUICK_WINDOW = 60.0  # ... in any this many seconds


class QuickLimit:
    """How many quick messages each seat of each table sent lately; ``clock`` gives seconds
    (``time.monotonic``; the tests move it by hand)."""

    def __init__(self, most: int = QUICK_MOST, window: float = QUICK_WINDOW,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.most = most
        self.window = window
        self.clock = clock
        self._sent: dict[tuple[str, int], deque[float]] = {}

    def count(self, table_id: str, seat: int) -> None:
        """Count one quick message of ``seat`` at the table ``table_id``, or refuse it
        (``table.quick_too_many``, and nothing is counted) when the seat has sent ``most`` in
        the last ``window`` seconds."""
        now = self.clock()
        sent = self._sent.setdefault((table_id, seat), deque())
        while sent and sent[0] <= now - self.window:
            sent.popleft()
        if len(sent) >= self.most:
            raise TableRefusal("table.quick_too_many", most=self.most,
                               seconds=round(self.window))
        sent.append(now)
        if len(self._sent) > 4096:  # (forget the seats quiet for a whole window)
            for k in [k for k, v in self._sent.items() if not v or v[-1] <= now - self.window]:
                del self._sent[k]


__all__ = ["QUICK_MESSAGES", "QUICK_MOST", "QUICK_WINDOW", "QuickLimit"]
