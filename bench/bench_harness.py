"""Benchmark: lm-evaluation-harness on our task configs vs poetic-eval's own scoring, same model.

bpomp is built from the seed limericks (``poetic-eval build bpomp --seed 0``) into a temporary
folder, its harness tasks are written by ``write_harness_tasks``, and both sides score every
config with the default model (SmolLM2-135M-Instruct, its float32 conversion in the project's
cache folder, on the CPU):
- the harness: ``lm_eval.simple_evaluate(model="hf", model_args=harness_model_args())`` (the
  model loaded from the cache folder, as ``lm_eval --model hf`` does), batch size 16;
- poetic-eval: ``load_language_model``, then ONE ``score_pairs`` call over the pairs of all
  configs (as ``poetic-eval score-pairs`` does), then ``pair_preference`` per config.
Each side's time includes loading the model and the dataset. Printed: the accuracy of each
config on both sides (they must be equal) and both times with their ratio.

Usage: python bench/bench_harness.py [--quick] [--limit N] [--threads N] [--batch-size 16]

``--quick`` (what ``make bench`` runs) scores the first 20 pairs of each config on both sides
(the harness's ``limit``); the default scores every pair.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("HF_DATASETS_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

import datasets
import torch
from peak_memory import peak_memory

from poetic_eval.integrations import harness_model_args, write_harness_tasks
from poetic_eval.lm import load_language_model, score_pairs
from poetic_eval.pairs import pair_preference

REPO_ROOT = Path(__file__).resolve().parent.parent


def build_bpomp(out: Path) -> Path:
    subprocess.run(
        [
            sys.executable,
            "-m",
            "poetic_eval.cli",
            "build",
            "bpomp",
            "--out",
            str(out / "bpomp"),
            "--seed",
            "0",
            "--no-progress",
        ],
        cwd=REPO_ROOT,
        check=True,
        capture_output=True,
        text=True,
    )
    return out / "bpomp"


def run_harness(
    tasks_dir: Path, batch_size: int, limit: int | None
) -> tuple[dict[str, float], float]:
    import lm_eval
    from lm_eval.tasks import TaskManager

    model_args = harness_model_args()  # converts the default model once, if it is not yet
    started = time.perf_counter()
    manager = TaskManager(include_path=str(tasks_dir), include_defaults=False)
    results = lm_eval.simple_evaluate(
        model="hf",
        model_args=model_args,
        tasks=["poetic_eval_bpomp"],
        task_manager=manager,
        device="cpu",
        batch_size=batch_size,
        bootstrap_iters=0,
        log_samples=False,
        limit=limit,
    )
    elapsed = time.perf_counter() - started
    accuracy = {
        task.removeprefix("poetic_eval_bpomp_"): values["acc,none"]
        for task, values in results["results"].items()
        if task.startswith("poetic_eval_bpomp_")
    }
    return accuracy, elapsed


def run_ours(folder: Path, configs: list[str], limit: int | None) -> tuple[dict[str, float], float]:
    """All configs' pairs in one ``score_pairs`` call, as ``poetic-eval score-pairs`` does (a
    limerick that is the good side of several configs is then scored once, as the harness
    scores a repeated request once)."""
    started = time.perf_counter()
    lm = load_language_model(device="cpu")
    tables = {c: datasets.load_dataset(str(folder), c, split="test") for c in configs}
    if limit is not None:  # the harness's limit: the first rows of each task
        tables = {c: t.select(range(min(limit, len(t)))) for c, t in tables.items()}
    good = [text for table in tables.values() for text in table["good"]]
    bad = [text for table in tables.values() for text in table["bad"]]
    good_scores, bad_scores = score_pairs(good, bad, lm, show_progress=False)
    accuracy, start = {}, 0
    for config, table in tables.items():
        end = start + len(table)
        accuracy[config] = pair_preference(good_scores[start:end], bad_scores[start:end])[
            "accuracy"
        ]
        start = end
    return accuracy, time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--threads", type=int, default=None, help="torch threads (default: torch's)"
    )
    parser.add_argument("--batch-size", type=int, default=16, help="harness batch size")
    sizes = parser.add_mutually_exclusive_group()
    sizes.add_argument("--quick", action="store_true", help="the first 20 pairs per config")
    sizes.add_argument("--full", action="store_true", help="the full size (the default)")
    parser.add_argument("--limit", type=int, default=None, help="pairs per config (default: all)")
    args = parser.parse_args()
    if args.quick and args.limit is None:
        args.limit = 20
    if args.threads:
        torch.set_num_threads(args.threads)
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        folder = build_bpomp(root / "datasets")
        written = write_harness_tasks(root / "datasets", root / "tasks")
        configs = [task.removeprefix("poetic_eval_bpomp_") for task in written["poetic_eval_bpomp"]]
        pairs = sum(
            min(len(datasets.load_dataset(str(folder), c, split="test")), args.limit or 10**9)
            for c in configs
        )
        print(
            f"bpomp seed build: {pairs} pairs in {len(configs)} configs ({', '.join(configs)}); "
            f"default model, float32, CPU, {torch.get_num_threads()} threads"
        )
        harness, harness_time = run_harness(root / "tasks", args.batch_size, args.limit)
        ours, ours_time = run_ours(folder, configs, args.limit)
    print(f"{'config':<18} {'harness acc':>11} {'ours':>8}  equal")
    for config in configs:
        same = "yes" if harness[config] == ours[config] else "NO"
        print(f"{config:<18} {harness[config]:>11.4f} {ours[config]:>8.4f}  {same}")
    print(
        f"time: harness {harness_time:.1f} s, poetic-eval {ours_time:.1f} s "
        f"(harness / poetic-eval = {harness_time / ours_time:.2f}x)"
    )
    print(peak_memory())
    if harness != ours:
        sys.exit("the harness's accuracy differs from pair_preference(score_pairs)")


if __name__ == "__main__":
    main()
