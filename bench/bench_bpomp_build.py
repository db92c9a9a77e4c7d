"""Benchmark: build bpomp (10,000 pairs per config) from a 20,000-limerick source.

The source is recombined from the project's seed limericks (A lines of one, B lines of
another; see poetic_eval.limericks.recombination). Prints the time of each stage and config,
and compares limerick verification (poetic_eval.rhyme.word_rhymes, cached) with a peer check written
directly on the `pronouncing` package (CMUdict rhyming parts, no caching or fallbacks).
Target: the whole build under a minute on 2 cores.

    python bench/bench_bpomp_build.py [--limericks 20000] [--pairs 10000]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import pronouncing
from peak_memory import peak_memory

from poetic_eval.builders.bpomp import FEATURES, SPLIT, pair_rows
from poetic_eval.hub import ConfigData, HubDataset, write_hub_dataset
from poetic_eval.limericks import (
    CORRUPTIONS,
    SynonymFinder,
    generate_pairs,
    read_limerick_source,
    recombine_limericks,
    verify_limericks,
)
from poetic_eval.resources import seed_path
from poetic_eval.text import lines, write_poems


def pronouncing_is_limerick(text: str) -> bool:
    """Peer: AABBA with the `pronouncing` package's rhyming parts (first pronunciation)."""
    found = lines(text)
    if len(found) != 5:
        return False
    parts = []
    for line in found:
        word = "".join(ch for ch in line.split()[-1].lower() if ch.isalpha() or ch == "'")
        phones = pronouncing.phones_for_word(word)
        if not phones:
            return False
        parts.append(pronouncing.rhyming_part(phones[0]))
    a, b = parts[0], parts[2]
    return parts[1] == a and parts[4] == a and parts[3] == b and a != b


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limericks", type=int, default=20_000)
    parser.add_argument("--pairs", type=int, default=10_000)
    sizes = parser.add_mutually_exclusive_group()
    sizes.add_argument("--quick", action="store_true", help="2,000 limericks, 1,000 pairs")
    sizes.add_argument("--full", action="store_true", help="the full size (the default)")
    args = parser.parse_args()
    if args.quick:
        args.limericks, args.pairs = 2_000, 1_000

    seeds = verify_limericks(read_limerick_source(seed_path("limericks.txt")), show_progress=False)
    texts = recombine_limericks(seeds.kept, args.limericks, seed=0)
    with tempfile.TemporaryDirectory() as folder:
        source = Path(folder) / "limericks.txt"
        write_poems(texts, source)
        print(f"source: {len(texts):,} recombined limericks from {len(seeds.kept)} seeds")

        start = time.perf_counter()
        records = read_limerick_source(source)
        read_time = time.perf_counter() - start
        start = time.perf_counter()
        verification = verify_limericks(records, show_progress=False)
        verify_time = time.perf_counter() - start
        start = time.perf_counter()
        peer = [r.text for r in records if pronouncing_is_limerick(r.text)]
        peer_time = time.perf_counter() - start
        ours_kept = {record.text for record in verification.kept}
        print(
            f"read: {read_time:6.2f} s; verify: {verify_time:6.2f} s "
            f"({len(verification.kept):,} kept); "
            f"peer (pronouncing, uncached): {peer_time:6.2f} s ({len(peer):,} kept, "
            f"{sum(text in ours_kept for text in peer):,} of them kept by ours too)"
        )
        # not the same check (the peer reads only the first pronunciation and has no
        # fallback for words outside CMUdict), so its time is context, not a ratio

        start = time.perf_counter()
        finder = SynonymFinder()
        load_time = time.perf_counter() - start
        print(f"WordNet load: {load_time:6.2f} s")
        configs, total = [], read_time + verify_time + load_time
        for kind in CORRUPTIONS:
            start = time.perf_counter()
            generation = generate_pairs(
                verification.kept, kind, args.pairs, 0, finder=finder, show_progress=False
            )
            rows = pair_rows(generation)
            elapsed = time.perf_counter() - start
            total += elapsed
            configs.append(ConfigData(kind, FEATURES, {SPLIT: rows}))
            print(f"{kind:>16}: {elapsed:6.2f} s for {len(rows):,} pairs")

        start = time.perf_counter()
        dataset = HubDataset(
            "bpomp",
            "BPoMP",
            configs,
            seed=0,
            sources=[source],
            card_values={"source_kind": "a recombined source", "n_pairs": f"{args.pairs:,}"},
        )
        write_hub_dataset(dataset, Path(folder) / "bpomp", build_command="bench")
        elapsed = time.perf_counter() - start
        total += elapsed
        print(f"{'write parquet+card':>16}: {elapsed:6.2f} s")
    print(f"total: {total:6.2f} s (target: under 60 s on 2 cores); {peak_memory()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
