"""What the browser test files share: screenshots of a page, axe-core's accessibility check, and
whether *Add to…* asks which meld."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from playwright.sync_api import Page

    from canasta.engine.state import HandState
    from canasta.moves import Move

SHOTS = Path(os.environ.get("CANASTA_SCREENSHOTS",
                            Path(__file__).resolve().parents[1] / "build" / "screenshots"))


def shot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def axe_check(page: Page, where: str) -> None:
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    bad = [v for v in results.response["violations"] if v.get("impact") in ("serious", "critical")]
    assert not bad, f"{where}: " + "; ".join(
        f"{v['id']} ({v['impact']}): {v['help']} at {[n['target'] for n in v['nodes'][:3]]}"
        for v in bad)


@contextmanager
def chromium(executable: str) -> Iterator[Any]:
    """Debian's Chromium driven by playwright, for a module's ``browser`` fixture (imported
    here, not at the top: a module without playwright skips before it asks for one)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=executable, args=["--no-sandbox"])
        yield b
        b.close()


def asks_which_meld(state: HandState, seat: int, move: Move) -> bool:
    """Whether *Add to…* opens its chooser for the cards of ``move`` (an addition): only when
    more than one meld of the side takes them; else it adds them at once."""
    from canasta.web.groups import add_fits, rank_key

    key = " ".join(sorted(rank_key(c) for c in move.cards_from_hand()))
    return sum(key in keys for keys in add_fits(state, seat).values()) > 1
