"""Conditions timed in turns, the fastest of several clean repeats kept: load from other
processes on a shared machine falls on every condition alike.

A bench that times the engine once and its peer once is at the mercy of whatever else runs on
the machine: another process's burst during one turn and not the other moves the ratio by 2-4x
(docs/benchmarks.md, the LM benches under load). Here each condition runs ``repeats`` times on
the same input, taking turns (A B C, then C B A, ...), and keeps its fastest call: the call
least disturbed, as ``timeit`` reports. Load on a shared machine only ever adds time, so the
fastest call is the best estimate of a condition's own cost; a median would keep half the
disturbance.

Where FLOP counters are given, every condition first runs once, untimed, with its counter
open, before any timed turn; its result is the one returned (each later call runs the same
work). The counters' hooks never run inside a timed
call, and the untimed call also pays each condition's first-call costs on this input (first
allocations of its shapes), so every timed turn is clean. Until 6 December 2026 the counters
were open in the first timed round, whose hooked calls were rarely the fastest: with two
repeats the second round was in effect the only timing (docs/benchmarks.md, "Turns and
counting").
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import Any

#: timed repeats per condition at make bench's size
QUICK_REPEATS = 2


def best_of_interleaved(
    conditions: dict[str, Callable[[], Any]],
    repeats: int = QUICK_REPEATS,
    counters: dict[str, Any] | None = None,
) -> tuple[dict[str, Any], dict[str, float]]:
    """Each condition's first result and fastest seconds over ``repeats`` interleaved calls.

    ``counters`` (name -> a context manager such as ``ForwardFlops``): each named condition
    runs once more, first and untimed, with its counter open, and that call's result is kept."""
    names = list(conditions)
    results: dict[str, Any] = {}
    for name in names:
        if counters and name in counters:
            with counters[name]:
                results[name] = conditions[name]()
    best = dict.fromkeys(names, math.inf)
    for round_ in range(max(1, repeats)):
        for name in names if round_ % 2 == 0 else names[::-1]:
            started = time.perf_counter()
            value = conditions[name]()
            best[name] = min(best[name], time.perf_counter() - started)
            results.setdefault(name, value)
    return results, best
