"""Benchmark: exact memorization (Indel prefilter + difflib) against a naive difflib scan.

Default: 1000 generated vs 181,670 synthetic training quatrains (the paper's English train size),
at the quatrain, couplet and verse levels (target < 30 s each on 2 cores). The naive scan
would take hours at that size, so its cost per pair is measured on a subsample in the same run,
and both methods are also run on that subsample (they must agree: asserted, the shares and every
memorized unit's best match). ``--text dictionary``: lines of 5-7 random CMU-dictionary words,
where character bounds pass the most candidates. ``--quick``: a small run.

    python bench/bench_memorization.py [--quick] [--seed 0] [--text synthetic|dictionary]
"""

from __future__ import annotations

import argparse
import difflib
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))


from synthetic_poems import SyntheticPoems

from poetic_eval.diversity import DEFAULT_THRESHOLDS, memorization, poem_units


def naive_scan(predictions, references, level):
    """The reference definition: each generated unit against every training unit, in order,
    keeping the first best ratio. Returns (share, best ratio of each memorized unit, pairs)."""
    training = [u for poem in references for u in poem_units(poem, level)]
    generated = [u for poem in predictions for u in poem_units(poem, level)]
    threshold = DEFAULT_THRESHOLDS[level]
    best_ratios, compared = [], 0
    for unit in generated:
        matcher = difflib.SequenceMatcher(None, autojunk=True)
        matcher.set_seq2(unit)
        best = 0.0
        for other in training:
            compared += 1
            matcher.set_seq1(other)
            best = max(best, matcher.ratio())
        if best >= threshold:
            best_ratios.append(best)
    return len(best_ratios) / len(generated), best_ratios, compared


def dictionary_quatrains(rng: random.Random, count: int) -> list[str]:
    """Quatrains whose lines are 5-7 random words of the CMU pronouncing dictionary."""
    import pronouncing

    pronouncing.init_cmu()
    words = sorted(word for word in pronouncing.lookup if word.isalpha())
    return [
        "\n".join(" ".join(rng.choices(words, k=rng.randint(5, 7))) for _ in range(4))
        for _ in range(count)
    ]


class Clock:
    """Wall and CPU (all threads of this process) seconds of a block."""

    def __enter__(self):
        self.wall, self.cpu = time.perf_counter(), time.process_time()
        return self

    def __exit__(self, *exc):
        self.wall = time.perf_counter() - self.wall
        self.cpu = time.process_time() - self.cpu


def unit_count(poems, level):
    return sum(len(poem_units(poem, level)) for poem in poems)


def run_level(level, generated, training, subsample):
    sub_generated, sub_training = subsample
    with Clock() as naive_clock:
        naive, best_ratios, compared = naive_scan(sub_generated, sub_training, level)
    with Clock() as sub_clock:
        ours = memorization(sub_generated, sub_training, levels=(level,), return_matches=True)
    assert ours[f"memorization_{level}"] == naive, (level, ours, naive)
    assert [m["ratio"] for m in ours["matches"][level]] == best_ratios, level
    per_pair = naive_clock.cpu / compared
    print(
        f"[{level}, subsample {len(sub_generated)} x {len(sub_training):,} poems] naive difflib "
        f"{naive_clock.wall:.2f} s ({per_pair * 1e6:.0f} us CPU per pair), poetic-eval "
        f"{sub_clock.wall:.2f} s, speed-up {naive_clock.wall / sub_clock.wall:.0f}x; "
        f"both memorization_{level} = {naive:.4f}"
    )
    with Clock() as clock:
        result = memorization(generated, training, levels=(level,))
    pairs = unit_count(generated, level) * unit_count(training, level)
    naive_estimate = per_pair * pairs
    print(
        f"[{level}, full {len(generated)} x {len(training):,} poems, {pairs:,} unit pairs] "
        f"poetic-eval {clock.wall:.1f} s wall, {clock.cpu:.1f} s CPU; "
        f"memorization_{level} = {result[f'memorization_{level}']:.4f}; naive difflib estimated "
        f"{naive_estimate / 3600:.1f} h CPU -> speed-up {naive_estimate / clock.wall:,.0f}x wall, "
        f"{naive_estimate / clock.cpu:,.0f}x CPU"
    )
    return clock


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sizes = parser.add_mutually_exclusive_group()
    sizes.add_argument("--quick", action="store_true", help="200 vs 20,000 quatrains")
    sizes.add_argument("--full", action="store_true", help="the full size (the default)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--levels",
        nargs="+",
        default=["quatrain", "couplet", "verse"],
        choices=["quatrain", "couplet", "verse"],
    )
    parser.add_argument("--text", choices=["synthetic", "dictionary"], default="synthetic")
    args = parser.parse_args()
    n_generated, n_training = (200, 20_000) if args.quick else (1000, 181_670)
    generator = SyntheticPoems(args.seed)
    if args.text == "dictionary":
        training = dictionary_quatrains(generator.rng, n_training)
        generated = dictionary_quatrains(generator.rng, n_generated)
        for index in range(0, n_generated, 20):  # 5 % edited copies
            generated[index] = generator.edited(generator.rng.choice(training), 6)
    else:
        training = generator.quatrains(n_training)
        generated = generator.generated_sample(training, n_generated)
    print(
        f"{n_generated} generated vs {n_training:,} training quatrains ({args.text} text); "
        f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} "
        "(wall times grow with the load; CPU time does not)"
    )
    targets = {"quatrain": 30, "couplet": 30, "verse": 30}
    # The subsample is rich in near-copies, so that the agreement check is not vacuous.
    sub_training = training[:300]
    sub_generated = SyntheticPoems(args.seed + 1).generated_sample(
        sub_training, 16, copy_rates=(0.25, 0.25, 0.25)
    )
    for level in args.levels:
        clock = run_level(level, generated, training, (sub_generated, sub_training))
        if not args.quick:
            verdict = "OK" if clock.wall < targets[level] else "SLOWER than"
            print(f"    {verdict} the {targets[level]} s target for {level} level at full size")
    return 0


if __name__ == "__main__":
    sys.exit(main())
