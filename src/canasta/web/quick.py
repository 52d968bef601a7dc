"""Quick messages between the players of a table: a fixed list, no free text.

The server relays only an id; each reader's client shows it in the reader's own language (the
texts are the client's, in the catalogues ``canasta/locale/<lang>.po`` under the context
``quick.<id>``).  A fixed list keeps
a table friendly without moderation, and needs no translation between players.
"""

from __future__ import annotations

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

__all__ = ["QUICK_MESSAGES"]
