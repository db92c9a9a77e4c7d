"""Conditions timed in turns, the fastest of several repeats kept: load from other processes
on a shared machine falls on every condition alike.

A bench that times the engine once and its peer once is at the mercy of whatever else runs on
the machine: another process's burst during one turn and not the other moves the ratio by 2-4x
(docs/benchmarks.md, the LM benches under load). Here each condition runs ``repeats`` times on
the same input, taking turns (A B C, then C B A, ...), and keeps its fastest call: the call
least disturbed, as ``timeit`` reports. The first call's result is returned (each later one
runs the same work), and the FLOP counters, where given, are open in the first round only.
Their hooks slow that round, so its calls are rarely the fastest: with two repeats the
second round is in effect the only timing (docs/benchmarks.md, the run of 6 December
21:30).
"""

from __future__ import annotations

import contextlib
import math
import time
from collections.abc import Callable
from typing import Any

#: repeats per condition at make bench's size
QUICK_REPEATS = 2


def best_of_interleaved(
    conditions: dict[str, Callable[[], Any]],
    repeats: int = QUICK_REPEATS,
    counters: dict[str, Any] | None = None,
) -> tuple[dict[str, Any], dict[str, float]]:
    """Each condition's first result and fastest seconds over ``repeats`` interleaved calls;
    ``counters`` (name -> a context manager such as ``ForwardFlops``) count the first call."""
    names = list(conditions)
    results: dict[str, Any] = {}
    best = dict.fromkeys(names, math.inf)
    for round_ in range(max(1, repeats)):
        for name in names if round_ % 2 == 0 else names[::-1]:
            counting = counters.get(name) if counters and round_ == 0 else None
            with counting or contextlib.nullcontext():
                started = time.perf_counter()
                value = conditions[name]()
                seconds = time.perf_counter() - started
            results.setdefault(name, value)
            best[name] = min(best[name], seconds)
    return results, best
