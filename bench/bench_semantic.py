"""Benchmark semantic_max_sim against sentence-transformers on the same input.

1. Across max-similarity of 1,000 generated vs a large corpus of unit vectors (384-d, as
   all-MiniLM-L6-v2): our blocked numpy product (poetic_eval.diversity.semantic
   .nearest_neighbours) vs sentence_transformers.util.semantic_search(top_k=1), same
   embeddings; the results must agree.
2. Encoding the human corpus with all-MiniLM-L6-v2: first call (encodes and caches) vs a
   later call (reads the disk cache), through poetic_eval.diversity.semantic.max_similarity.

Run from the repository root: python bench/bench_semantic.py [--corpus 200000] [--poems 1000]
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
import tracemalloc

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

import numpy as np
import torch
from sentence_transformers import util
from synthetic_poems import SyntheticPoems

from poetic_eval.diversity import load_sentence_encoder, max_similarity, nearest_neighbours


def unit_vectors(rng: np.random.Generator, rows: int, dim: int = 384) -> np.ndarray:
    vectors = rng.standard_normal((rows, dim), dtype=np.float32)
    return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)


def synthetic_poems(count: int, seed: int) -> list[str]:
    return SyntheticPoems(seed).quatrains(count)


def timed(function, repeat: int = 3):
    """(best wall seconds over ``repeat`` runs, last result)."""
    best, result = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        result = function()
        best = min(best, time.perf_counter() - start)
    return best, result


def bench_nearest_neighbours(poems: int, corpus: int) -> None:
    rng = np.random.default_rng(0)
    queries, references = unit_vectors(rng, poems), unit_vectors(rng, corpus)
    ours_seconds, (ours_values, ours_index) = timed(lambda: nearest_neighbours(queries, references))
    query_tensor, corpus_tensor = torch.from_numpy(queries), torch.from_numpy(references)
    theirs_seconds, hits = timed(lambda: util.semantic_search(query_tensor, corpus_tensor, top_k=1))
    theirs_values = np.array([hit[0]["score"] for hit in hits], dtype=np.float32)
    theirs_index = np.array([hit[0]["corpus_id"] for hit in hits])
    assert np.allclose(ours_values, theirs_values, atol=1e-5), "max similarities differ"
    agreement = float(np.mean(ours_index == theirs_index))
    tracemalloc.start()
    nearest_neighbours(queries, references)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    print(f"across max-sim, {poems:,} x {corpus:,} x 384 (best of 3)")
    print(f"  poetic_eval nearest_neighbours (blocked numpy): {ours_seconds:7.2f} s")
    print(f"  sentence_transformers semantic_search top_k=1:  {theirs_seconds:7.2f} s")
    print(f"  ratio semantic_search / ours: {theirs_seconds / ours_seconds:.2f}x")
    print(f"  same maxima (atol 1e-5); same argmax for {agreement:.2%} of queries")
    print(f"  peak numpy memory of ours beyond the inputs: {peak / 2**20:.0f} MiB "
          f"(inputs: {(queries.nbytes + references.nbytes) / 2**20:.0f} MiB)")  # fmt: skip


def bench_cache(poems: int, references: int) -> None:
    encoder = load_sentence_encoder(device="cpu")
    generated, human = synthetic_poems(poems, 1), synthetic_poems(references, 2)
    with tempfile.TemporaryDirectory() as cache_dir:
        options = {"model": encoder, "cache_dir": cache_dir, "reference_within": False}
        start = time.perf_counter()
        first = max_similarity(generated, human, **options)
        cold = time.perf_counter() - start
        start = time.perf_counter()
        second = max_similarity(generated, human, **options)
        warm = time.perf_counter() - start
    assert first == second
    print(f"max_similarity with all-MiniLM-L6-v2 on CPU, {poems} generated vs {references} human")
    print(f"  first call (encodes and caches the human corpus): {cold:7.2f} s")
    print(f"  second call (human embeddings from the cache):    {warm:7.2f} s")
    print(f"  ratio without cache / with cache: {cold / warm:.2f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=int, default=200_000, help="synthetic corpus rows")
    parser.add_argument("--poems", type=int, default=1000, help="generated poems")
    parser.add_argument("--encode-poems", type=int, default=100)
    parser.add_argument("--encode-references", type=int, default=1000)
    sizes = parser.add_mutually_exclusive_group()
    sizes.add_argument("--quick", action="store_true", help="a 20,000-row corpus, 300 encoded")
    sizes.add_argument("--full", action="store_true", help="the full size (the default)")
    args = parser.parse_args()
    if args.quick:
        args.corpus, args.encode_references = 20_000, 300
    print(f"torch threads: {torch.get_num_threads()}")
    bench_nearest_neighbours(args.poems, args.corpus)
    bench_cache(args.encode_poems, args.encode_references)


if __name__ == "__main__":
    main()
