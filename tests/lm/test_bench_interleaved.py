"""bench/interleaved.py, how the LM benches time the engine against a peer: the conditions take
turns (A B, then B A), each keeps its fastest call and its first result, and the FLOP counters
count the first round only."""

from __future__ import annotations

import contextlib
import time

from bench.interleaved import best_of_interleaved


def test_conditions_take_turns_and_keep_their_fastest_call():
    calls, slow = [], {"a": [0.03, 0.0, 0.0], "b": [0.0, 0.03, 0.03]}

    def condition(name):
        def run():
            calls.append(name)
            time.sleep(slow[name][sum(1 for called in calls if called == name) - 1])
            return f"{name}{len(calls)}"

        return run

    entered = []

    @contextlib.contextmanager
    def counter(name):
        entered.append(name)
        yield

    counters = {"a": counter("a"), "b": counter("b")}
    results, best = best_of_interleaved({"a": condition("a"), "b": condition("b")}, 3, counters)
    assert calls == ["a", "b", "b", "a", "a", "b"]
    assert results == {"a": "a1", "b": "b2"}  # the first call's result
    assert best["a"] < 0.02 and best["b"] < 0.02  # each condition's slow call was dropped
    assert sorted(entered) == ["a", "b"]  # counters open in the first round only
