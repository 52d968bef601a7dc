"""Where the arena's deals are played: in this process, on all cores, or on a Ray cluster.

Every deal is seeded on its own, so the executors give identical results for the same seeds.
"""

from __future__ import annotations

import importlib
import os
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from canasta.arena.deals import ArenaConfig, PlayResult, play_deal
from canasta.errors import CanastaError

EXECUTORS = ("process", "serial", "ray")


def _chunk(config: ArenaConfig, deals: range) -> list[list[PlayResult]]:
    return [play_deal(config, d) for d in deals]


def _chunks(n: int, parts: int) -> list[range]:
    size = max(1, -(-n // parts))
    return [range(i, min(n, i + size)) for i in range(0, n, size)]


def run_deals(config: ArenaConfig, executor: str = "process",
              workers: int | None = None) -> list[list[PlayResult]]:
    if executor not in EXECUTORS:
        raise CanastaError(f"unknown executor '{executor}' (known: {', '.join(EXECUTORS)})")
    n = config.deals
    if executor == "serial" or n <= 1:
        return _chunk(config, range(n))
    if executor == "ray":
        return _run_ray(config, workers)
    workers = workers or os.cpu_count() or 1
    if workers <= 1:
        return _chunk(config, range(n))
    parts = _chunks(n, workers * 4)
    with ProcessPoolExecutor(max_workers=workers) as pool:
        results = pool.map(_chunk, [config] * len(parts), parts)
        return [r for chunk in results for r in chunk]


def _run_ray(config: ArenaConfig, workers: int | None) -> list[list[PlayResult]]:
    try:
        ray: Any = importlib.import_module("ray")
    except ImportError:
        raise CanastaError("the Ray executor needs Ray: pip install 'canasta[cluster]'") from None
    started = False
    if not ray.is_initialized():
        ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False)
        started = True
    try:
        remote: Any = ray.remote(_chunk)
        parts = _chunks(config.deals, max(1, int(ray.available_resources().get("CPU", 1))) * 4)
        futures = [remote.remote(config, part) for part in parts]
        return [r for chunk in ray.get(futures) for r in chunk]
    finally:
        if started:
            ray.shutdown()
