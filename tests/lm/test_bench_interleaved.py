"""bench/interleaved.py, how the LM benches time the engine against a peer: the FLOP counters
count one untimed call of each condition first, then the conditions take turns (A B, then
B A), and each keeps its fastest timed call and its first result."""

from __future__ import annotations

import contextlib
import time

from bench.interleaved import best_of_interleaved


def _conditions(delays: dict[str, list[float]], calls: list[str]):
    def condition(name):
        def run():
            calls.append(name)
            time.sleep(delays[name][sum(1 for called in calls if called == name) - 1])
            return f"{name}{len(calls)}"

        return run

    return {name: condition(name) for name in delays}


def test_conditions_take_turns_and_keep_their_fastest_call():
    calls: list[str] = []
    delays = {"a": [0.03, 0.0, 0.0], "b": [0.0, 0.03, 0.03]}
    results, best = best_of_interleaved(_conditions(delays, calls), 3)
    assert calls == ["a", "b", "b", "a", "a", "b"]
    assert results == {"a": "a1", "b": "b2"}  # the first call's result
    assert best["a"] < 0.02 and best["b"] < 0.02  # each condition's slow call was dropped


def test_counters_count_one_untimed_call_before_the_timed_turns():
    calls: list[str] = []
    # each condition's first call (the counted one) is slow, every timed call fast
    delays = {"a": [0.05, 0.0, 0.0], "b": [0.05, 0.0, 0.0]}
    open_during: list[str] = []

    @contextlib.contextmanager
    def counter(name):
        before = len(calls)
        yield
        open_during.extend(calls[before:])

    counters = {"a": counter("a"), "b": counter("b")}
    results, best = best_of_interleaved(_conditions(delays, calls), 2, counters)
    assert calls == ["a", "b", "a", "b", "b", "a"]  # counted calls first, then the turns
    assert open_during == ["a", "b"]  # each counter saw its own untimed call only
    assert results == {"a": "a1", "b": "b2"}  # the counted call's result is kept
    assert best["a"] < 0.03 and best["b"] < 0.03  # the slow counted calls were not timed
