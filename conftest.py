"""Doctest collection: the research interfaces need the optional ``rl`` extra."""

from __future__ import annotations

import importlib.util

collect_ignore_glob = []
if not all(importlib.util.find_spec(m) for m in ("numpy", "pyspiel", "pettingzoo", "gymnasium")):
    collect_ignore_glob.append("src/canasta/envs/*")
