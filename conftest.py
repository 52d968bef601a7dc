"""Doctest collection: the research interfaces need the optional ``rl`` extra; with the compiled
core, its modules come from build/compiled/ (mypyc keeps no docstrings: their doctests run in
make test's pure Python pass)."""

from __future__ import annotations

import importlib.util
import os

import canasta.core

# The compiled core's modules are found in build/compiled/, not beside the source files that
# their doctests are collected from: pytest would refuse them as a mismatch.
if canasta.core.KIND == "compiled":
    os.environ["PY_IGNORE_IMPORTMISMATCH"] = "1"

collect_ignore_glob = []
if not all(importlib.util.find_spec(m) for m in ("numpy", "pyspiel", "pettingzoo", "gymnasium")):
    collect_ignore_glob.append("src/canasta/envs/*")
