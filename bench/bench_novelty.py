"""Benchmark: all-pairs single-string ROUGE-1 and ROUGE-L F1 of 2,000 poems, poetic-eval vs a
plain loop over rouge-score.

poetic-eval computes the exact mean over all 2000 x 1999 ordered pairs (sparse n-gram products,
bit-parallel LCS). A plain loop over ``rouge_score.RougeScorer.score`` on all of them would take
hours, so it is timed on a seeded random subset of the pairs and its time is EXTRAPOLATED to all
pairs (linearly: every pair costs the same work on average). On those subset pairs the two
must agree to 1e-9.

The timed code path itself (``mean_pairwise_f1`` over ``f1_matrix`` blocks) is also checked: on
the first ``--full-poems`` poems, small enough for the loop to run over ALL their ordered pairs,
its exact means (with the default block size, and with blocks of 7 rows so that several blocks
and a partial one are summed) must equal the loop's means to 1e-9.

    python bench/bench_novelty.py [--poems 2000] [--lines 14] [--loop-pairs 2000]
                                  [--full-poems 60] [--seed 0]
"""

from __future__ import annotations

import argparse
import math
import sys
import time

import numpy as np
from peak_memory import peak_memory
from rouge_score import rouge_scorer
from synthetic_poems import SyntheticPoems

from poetic_eval.analyzers.novelty import (
    DEFAULT_BLOCK_SIZE,
    mean_pairwise_f1,
    sample_ordered_pairs,
)
from poetic_eval.analyzers.rouge import RougeTexts

TYPES = ("rouge1", "rougeL")
TARGET_RATIO = 10.0


def synthetic_poems(count: int, lines: int, seed: int) -> list[str]:
    """Poems of ``lines`` lines in quatrain-sized stanzas, from the seeded line generator."""
    generator = SyntheticPoems(seed)
    poems = []
    for _ in range(count):
        verses = [generator.line() for _ in range(lines)]
        stanzas = ["\n".join(verses[i : i + 4]) for i in range(0, lines, 4)]
        poems.append("\n\n".join(stanzas))
    return poems


def single_strings(poems: list[str]) -> list[str]:
    return [" ".join(line.strip() for line in poem.split("\n") if line.strip()) for poem in poems]


def ours(strings: list[str], block_size: int = DEFAULT_BLOCK_SIZE) -> dict[str, float]:
    """The timed path: exact means over all ordered pairs, in f1_matrix blocks."""
    texts = RougeTexts(strings)
    return {
        rouge_type: mean_pairwise_f1(texts, rouge_type, block_size=block_size)
        for rouge_type in TYPES
    }


def plain_loop(strings: list[str], first: np.ndarray, second: np.ndarray) -> dict[str, list]:
    scorer = rouge_scorer.RougeScorer(list(TYPES))
    values: dict[str, list] = {rouge_type: [] for rouge_type in TYPES}
    for i, j in zip(first.tolist(), second.tolist()):
        scores = scorer.score(strings[j], strings[i])
        for rouge_type in TYPES:
            values[rouge_type].append(scores[rouge_type].fmeasure)
    return values


def check_timed_path_in_full(strings: list[str]) -> float:
    """Largest difference between :func:`ours` and the plain loop's means over ALL ordered
    pairs of ``strings``; AssertionError above 1e-9."""
    n = len(strings)
    first, second = (a.ravel() for a in np.nonzero(~np.eye(n, dtype=bool)))
    loop = plain_loop(strings, first, second)
    expected = {t: math.fsum(loop[t]) / len(loop[t]) for t in TYPES}
    worst = 0.0
    for block_size in (DEFAULT_BLOCK_SIZE, 7):
        means = ours(strings, block_size)
        worst = max(worst, *(abs(means[t] - expected[t]) for t in TYPES))
    assert worst <= 1e-9, f"the timed path and the rouge-score loop differ by {worst}"
    return worst


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--poems", type=int, default=2000)
    parser.add_argument("--lines", type=int, default=14)
    parser.add_argument(
        "--loop-pairs",
        type=int,
        default=2000,
        help="pairs the rouge-score loop is timed on (then extrapolated)",
    )
    parser.add_argument(
        "--full-poems",
        type=int,
        default=60,
        help="poems whose ordered pairs are ALL compared, timed path against the loop",
    )
    parser.add_argument("--seed", type=int, default=0)
    sizes = parser.add_mutually_exclusive_group()
    sizes.add_argument("--quick", action="store_true", help="500 poems, the loop on 500 pairs")
    sizes.add_argument("--full", action="store_true", help="the full size (the default)")
    args = parser.parse_args()
    if args.quick:
        args.poems, args.loop_pairs = 500, 500
    strings = single_strings(synthetic_poems(args.poems, args.lines, args.seed))
    pairs = args.poems * (args.poems - 1)
    tokens = sum(len(s.split()) for s in strings)
    print(
        f"{args.poems} poems of {args.lines} lines ({tokens / args.poems:.0f} tokens each), "
        f"{pairs:,} ordered pairs"
    )

    start = time.perf_counter()
    means = ours(strings)
    ours_seconds = time.perf_counter() - start
    print(
        f"poetic-eval, exact over all pairs: {ours_seconds:.2f} s  "
        + "  ".join(f"{t} {means[t]:.6f}" for t in TYPES)
    )

    first, second = sample_ordered_pairs(args.poems, args.loop_pairs, args.seed)
    start = time.perf_counter()
    reference = plain_loop(strings, first, second)
    loop_seconds = time.perf_counter() - start
    loop_all = loop_seconds / len(first) * pairs
    print(
        f"rouge-score loop: {loop_seconds:.2f} s for {len(first):,} pairs -> EXTRAPOLATED "
        f"{loop_all:,.0f} s ({loop_all / 3600:.1f} h) for all pairs"
    )

    texts = RougeTexts(strings)
    worst = max(
        float(np.max(np.abs(texts.f1_pairs(t, first, second) - np.array(reference[t]))))
        for t in TYPES
    )
    print(f"largest difference on the {len(first):,} compared pairs: {worst:.1e}")
    assert worst <= 1e-9, f"poetic-eval and rouge-score differ by {worst}"
    full = strings[: args.full_poems]
    worst_full = check_timed_path_in_full(full)
    print(
        f"timed path (f1_matrix means) against the loop over all {len(full) * (len(full) - 1):,} "
        f"ordered pairs of the first {len(full)} poems: largest difference {worst_full:.1e}"
    )
    ratio = loop_all / ours_seconds
    met = "met" if ratio >= TARGET_RATIO else "NOT met"
    print(
        f"ratio (rouge-score loop / poetic-eval, all pairs): {ratio:,.0f}x "
        f"(target >= {TARGET_RATIO:.0f}x: {met}); {peak_memory()}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
