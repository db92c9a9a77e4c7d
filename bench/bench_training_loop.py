"""Benchmark: the call a training loop makes, poetic_diversity of 100 new poems against a corpus.

A synthetic reference corpus shaped like the de-duplicated English QuaTrain train split
(181,670 quatrains with ``--full``): lines of about 7 words (normal, sd 1.6), a Zipf
vocabulary of 30,000 CMU-dictionary words mixed with function words, and quatrain rhyme
schemes drawn from QuaTrain-like shares with real rhyming line ends. It is generated from the
seed, never read from shared data. 100 generated poems (a few near copies of the corpus).

Three calls, each timed for all five dimensions and per dimension, with the peak resident
memory of the process during it and the machine's load average (1 min) beside it:

1. the first call in a fresh process with empty caches (its largest part, the reference
   embeddings on a CPU, shows a progress bar);
2. a later call in the same process with the same ``PoemCorpus`` and 100 new poems;
3. the first call of a second process (started with subprocess), the disk caches warm.

The second call's result equals poetic_diversity on the same poems with a plain list and no
cache (checked for the cheap dimensions, asserted). Absolute times on a shared machine move
with its load: the load is printed beside each figure.

    python bench/bench_training_loop.py [--full] [--poems 100] [--seed 0] [--device cpu]
        [--dimensions memorization length rhyme lexical semantic] [--cache-dir DIR]

``--cache-dir`` keeps the disk caches in DIR instead of a fresh temporary folder, so a long cold
run (the full corpus's embeddings take about an hour on 2 CPU cores) can be followed by a run
on warm caches; with a warm DIR the first call is not cold, and the report says so.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

import numpy as np

QUICK_SIZE, FULL_SIZE = 2_000, 181_670  # quick: the CPU encoding stays within make bench
DIMENSIONS = ("memorization", "length", "rhyme", "lexical", "semantic")
TARGETS = {"later call": 10.0, "second process, first call": 60.0}  # seconds, all five, full
# QuaTrain-like shares of quatrain rhyme schemes (ABCD and the couplet/alternate schemes lead)
SCHEME_SHARES = {
    "ABCD": 0.30, "ABCB": 0.18, "AABB": 0.16, "ABAB": 0.14, "AABC": 0.05, "ABCC": 0.05,
    "ABBA": 0.04, "ABAC": 0.03, "AAAA": 0.02, "AABA": 0.02, "ABBC": 0.01,
}  # fmt: skip


class QuatrainShapedCorpus:
    """Seeded quatrains shaped like QuaTrain's (see the module docstring)."""

    def __init__(self, seed: int, vocabulary_size: int = 30_000) -> None:
        import pronouncing
        from synthetic_poems import FUNCTION_WORDS

        pronouncing.init_cmu()
        rng = random.Random(seed)
        words = sorted({w for w, _ in pronouncing.pronunciations if w.isalpha() and len(w) > 1})
        rng.shuffle(words)
        self.vocabulary = words[:vocabulary_size]
        self.function_words = FUNCTION_WORDS
        ranks = np.arange(1, len(self.vocabulary) + 1)
        self.weights = 1.0 / ranks
        self.weights /= self.weights.sum()
        groups: dict[str, list[str]] = {}
        for word in self.vocabulary[:8000]:  # rhymes among the more frequent words
            phones = pronouncing.phones_for_word(word)
            if phones:
                groups.setdefault(pronouncing.rhyming_part(phones[0]), []).append(word)
        self.groups = [sorted(set(g)) for g in groups.values() if len(set(g)) >= 4]
        self.seed = seed

    def quatrains(self, count: int, seed_offset: int = 0) -> list[str]:
        rng = np.random.default_rng(self.seed + seed_offset)
        py_rng = random.Random(self.seed + seed_offset)
        line_words = np.clip(np.rint(rng.normal(7.0, 1.6, size=4 * count)), 2, 14).astype(int)
        body = line_words - 1
        total = int(body.sum())
        content = rng.choice(len(self.vocabulary), size=total, p=self.weights)
        function = rng.integers(len(self.function_words), size=total)
        use_function = rng.random(total) < 0.42
        tokens = [
            self.function_words[f] if is_function else self.vocabulary[c]
            for c, f, is_function in zip(content.tolist(), function.tolist(), use_function)
        ]
        schemes, shares = list(SCHEME_SHARES), list(SCHEME_SHARES.values())
        marks = ["", "", ",", ";", ".", "!", "?"]
        poems, position = [], 0
        for index in range(count):
            ends = self._end_words(py_rng.choices(schemes, shares)[0], py_rng)
            lines = []
            for line in range(4):
                size = int(body[4 * index + line])
                words = [*tokens[position : position + size], ends[line]]
                position += size
                words[0] = words[0].capitalize()
                lines.append(" ".join(words) + py_rng.choice(marks))
            poems.append("\n".join(lines))
        return poems

    def _end_words(self, scheme: str, rng: random.Random) -> list[str]:
        letters = sorted(set(scheme))
        chosen = {}
        for letter in letters:
            if scheme.count(letter) == 1:
                chosen[letter] = [rng.choice(self.vocabulary[:8000])]
            else:
                chosen[letter] = rng.sample(rng.choice(self.groups), scheme.count(letter))
        return [chosen[letter].pop() for letter in scheme]


def generated_poems(corpus: QuatrainShapedCorpus, references: list[str], count: int, offset: int):
    """``count`` new poems, 3 % of them edited copies of a reference quatrain."""
    from synthetic_poems import SyntheticPoems

    poems = corpus.quatrains(count, seed_offset=offset)
    editor = SyntheticPoems(offset)
    for index in range(0, count, 33):
        poems[index] = editor.edited(editor.rng.choice(references), editor.rng.randint(2, 10))
    return poems


def reset_peak_memory() -> None:
    try:
        Path("/proc/self/clear_refs").write_text("5")  # resets the peak RSS (Linux)
    except OSError:
        pass


def peak_memory_mib() -> float:
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def timed_dimensions(parts: dict[str, dict]) -> None:
    """Wrap each dimension's runner so that its time, peak memory and load are recorded."""
    from poetic_eval.diversity import dimensions

    for name, dimension in list(dimensions.DIMENSIONS.items()):

        def run(*args, _run=dimension.run, _name=name):
            load = os.getloadavg()[0]
            reset_peak_memory()
            start = time.perf_counter()
            result = _run(*args)
            parts[_name] = {
                "seconds": time.perf_counter() - start,
                "peak_mib": peak_memory_mib(),
                "load": load,
            }
            return result

        dimensions.DIMENSIONS[name] = dataclasses.replace(dimension, run=run)


def one_call(references, poems, options: dict, show_progress: bool) -> dict:
    """poetic_diversity of ``poems``: scores, and time/memory/load of the call and its parts."""
    from poetic_eval.diversity import poetic_diversity

    parts: dict[str, dict] = {}
    timed_dimensions(parts)
    load = os.getloadavg()[0]
    reset_peak_memory()
    start = time.perf_counter()
    scores = poetic_diversity(poems, references, show_progress=show_progress, **options)
    whole = {"seconds": time.perf_counter() - start, "peak_mib": peak_memory_mib(), "load": load}
    ordered = {name: parts[name] for name in DIMENSIONS if name in parts}
    label = "all five" if len(ordered) == len(DIMENSIONS) else "all run"
    return {"scores": scores, "parts": {**ordered, label: whole}}


def second_process(args: argparse.Namespace) -> None:
    """The first call of a later process (run with subprocess): prints its figures as JSON."""
    from poetic_eval.text import PoemCorpus

    corpus = QuatrainShapedCorpus(args.seed)
    references = corpus.quatrains(args.size)
    start = time.perf_counter()
    reference_corpus = PoemCorpus(references)
    built = time.perf_counter() - start
    poems = generated_poems(corpus, references, args.poems, offset=3)
    result = one_call(reference_corpus, poems, call_options(args), show_progress=False)
    print(json.dumps({**result, "corpus_seconds": built}))


def call_options(args: argparse.Namespace) -> dict:
    options: dict = {"dimensions": args.dimensions}
    if args.device and "semantic" in args.dimensions:
        options["semantic_device"] = args.device
    return options


def row(label: str, figures: dict) -> str:
    return (
        f"  {label:<14}{figures['seconds']:9.2f} s {figures['peak_mib']:8.0f} MiB "
        f"load {figures['load']:5.1f}"
    )


def report(calls: dict[str, dict], full: bool) -> None:
    for title, call in calls.items():
        print(f"{title}:")
        for name in call["parts"]:
            print(row(name, call["parts"][name]))
    if not full or len(next(iter(calls.values()))["parts"]) < len(DIMENSIONS) + 1:
        print("(targets apply to --full: 181,670 references)")
        return
    for title, limit in TARGETS.items():
        seconds = calls[title]["parts"]["all five"]["seconds"]
        verdict = "met" if seconds < limit else "MISSED"
        print(f"target {title} < {limit:.0f} s: {verdict} ({seconds:.1f} s)")


def check_later_call(references: list[str], poems: list[str], scores: dict, run: list) -> None:
    """The cached call's cheap dimensions equal a plain-list call without caches."""
    from poetic_eval.diversity import poetic_diversity

    cheap = [d for d in ("length", "rhyme", "lexical") if d in run]
    if not cheap:
        return
    plain = poetic_diversity(poems, list(references), dimensions=cheap)
    for key, value in plain.items():
        assert key in scores and (value == scores[key] or math.isclose(value, scores[key])), key


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    size = parser.add_mutually_exclusive_group()
    size.add_argument("--full", action="store_true", help=f"{FULL_SIZE:,} reference quatrains")
    size.add_argument("--quick", action="store_true", help=f"{QUICK_SIZE:,} (the default)")
    parser.add_argument("--poems", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--device", default=None, help="semantic_device (default: the model's)")
    parser.add_argument(
        "--dimensions",
        nargs="+",
        choices=DIMENSIONS,
        default=list(DIMENSIONS),
        help="the dimensions to run (default all five)",
    )
    parser.add_argument(
        "--cache-dir", type=Path, default=None, help="keep the disk caches here (default: temp)"
    )
    parser.add_argument("--second-process", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--size", type=int, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    args.size = args.size or (FULL_SIZE if args.full else QUICK_SIZE)
    if args.second_process:
        second_process(args)
        return 0
    with tempfile.TemporaryDirectory(prefix="bench-training-loop-") as temporary:
        cache = args.cache_dir or Path(temporary)
        warm = cache.is_dir() and any(cache.iterdir())
        os.environ["POETIC_EVAL_CACHE"] = str(cache)  # this process and the next
        from poetic_eval.text import PoemCorpus

        start = time.perf_counter()
        corpus = QuatrainShapedCorpus(args.seed)
        references = corpus.quatrains(args.size)
        print(
            f"{args.size:,} synthetic QuaTrain-shaped reference quatrains "
            f"(made in {time.perf_counter() - start:.1f} s), {args.poems} generated poems per "
            f"call; {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}"
        )
        start = time.perf_counter()
        reference_corpus = PoemCorpus(references)
        print(f"PoemCorpus built in {time.perf_counter() - start:.2f} s (not counted below)")
        options = call_options(args)
        first = one_call(
            reference_corpus, generated_poems(corpus, references, args.poems, 1), options, True
        )
        later_poems = generated_poems(corpus, references, args.poems, 2)
        later = one_call(reference_corpus, later_poems, options, False)
        check_later_call(references, later_poems, later["scores"], args.dimensions)
        command = [sys.executable, __file__, "--second-process", "--size", str(args.size)]
        command += ["--poems", str(args.poems), "--seed", str(args.seed)]
        command += ["--device", args.device] if args.device else []
        command += ["--dimensions", *args.dimensions]
        done = subprocess.run(command, check=False, capture_output=True, text=True)
        if done.returncode != 0:
            print(done.stderr[-3000:], file=sys.stderr)
            return 1
        second = json.loads(done.stdout.strip().splitlines()[-1])
        print(f"second process: PoemCorpus built in {second['corpus_seconds']:.2f} s")
        report(
            {
                (
                    "first call (fresh process, disk caches WARM from --cache-dir)"
                    if warm
                    else "first call (fresh process, empty caches)"
                ): first,
                "later call": later,
                "second process, first call": second,
            },
            args.full,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
