"""Benchmark: QuaTrain de-duplication at the English release's size, and against the spec.

1. Synthesises 2.7 million QuaTrain-like windows (every 4-line window, stride 1, of stanzas of
   4-20 lines; a fifth of the stanzas copy an earlier one, cut by up to a line at either end,
   and 3 % of the lines come from a pool of shared refrains), writes them as QuaTrain JSON
   lines, and runs the whole preparation in a fresh process: reading, the sequential pass,
   the overlap removal, split + sonnets, rows, writing the parquet dataset. Prints the time of
   each stage and the process's peak memory (target: de-duplication under 5 minutes and 8 GB
   on 2 cores).
2. On a size the direct transcription of the spec can finish (default 100,000 windows), runs
   both on the same windows, asserts the same result, and prints the ratio.

    python bench/bench_quatrain_dedup.py [--windows 2700000] [--reference-windows 100000]
                                         [--quick] [--progress]
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # builders/

from quatrain_reference import transcribed_deduplication, windows_of
from synthetic_poems import SyntheticPoems

from poetic_eval.quatrain import deduplicate, read_quatrain_source


def synthetic_stanzas(n_windows: int, seed: int = 0) -> list[list[str]]:
    """Stanzas whose 4-line windows number exactly ``n_windows`` (see the module docstring)."""
    stream = SyntheticPoems(seed).stanzas_with_copies(
        lengths=(4, 20), copy_rate=0.2, refrains=20_000, refrain_rate=0.03
    )
    stanzas: list[list[str]] = []
    windows = 0
    while windows < n_windows:
        stanza = next(stream)[: n_windows - windows + 3]
        windows += max(0, len(stanza) - 3)
        stanzas.append(stanza)
    return stanzas


def write_jsonl(stanzas: list[list[str]], path: Path) -> int:
    labels = '"language": "en", "rhyme": "ABAB", "meter": "iambus", "alliteration": 0.1}\n'
    count = 0
    with open(path, "w", encoding="utf-8") as stream:
        for stanza in stanzas:
            for start in range(len(stanza) - 3):
                stream.write('{"text": ' + json.dumps(stanza[start : start + 4]) + ", " + labels)
                count += 1
    return count


def child(source: Path, out: Path, show_progress: bool) -> None:
    """Run the whole preparation on ``source``; print the stage times as JSON."""
    from poetic_eval.builders.quatrain import NAME, language_configs
    from poetic_eval.hub import HubDataset, write_hub_dataset
    from poetic_eval.quatrain import prepare_language

    times = {}
    clock = time.perf_counter()
    corpus = read_quatrain_source(source, show_progress=show_progress)
    times["read"] = time.perf_counter() - clock

    clock = time.perf_counter()
    prepared = prepare_language(corpus, "en", seed=0, show_progress=show_progress)
    total = time.perf_counter() - clock
    times.update(prepared.deduplication.seconds)
    times["split + sonnets"] = total - sum(prepared.deduplication.seconds.values())
    kept_lines = corpus.line_ids[prepared.deduplication.kept].reshape(-1)
    assert np.unique(kept_lines).size == kept_lines.size, "a line occurs twice"

    clock = time.perf_counter()
    configs = language_configs(corpus, prepared, show_progress)
    times["rows"] = time.perf_counter() - clock
    clock = time.perf_counter()
    card_values = {
        "source_kind": "bench",
        "stage_table": "",
        "p_values": "en: 10",
        "couplets": "split",
        "sonnet_fraction": "1",
        "first_language": "en",
    }
    write_hub_dataset(
        HubDataset(NAME, "bench", configs, 0, card_values=card_values), out, build_command="bench"
    )
    times["write parquet"] = time.perf_counter() - clock
    counts = prepared.counts()
    print(
        json.dumps(
            {
                "times": times,
                "peak_rss_gb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024**2,
                "counts": {
                    key: counts[key]
                    for key in (
                        "records",
                        "after_sequential",
                        "after_overlap_removal",
                        "iterations",
                        "train",
                        "dev",
                        "sonnets_train",
                        "sonnets_dev",
                    )
                },
            }
        )
    )


def scale_run(n_windows: int, show_progress: bool) -> None:
    with tempfile.TemporaryDirectory(prefix="bench-quatrain-") as folder:
        clock = time.perf_counter()
        source = Path(folder) / "QuaTrain-synthetic.jsonl"
        written = write_jsonl(synthetic_stanzas(n_windows), source)
        print(
            f"synthesised and wrote {written:,} windows ({source.stat().st_size / 1e6:,.0f} MB) "
            f"in {time.perf_counter() - clock:.1f} s"
        )
        command = [sys.executable, __file__, "--child", str(source), str(Path(folder) / "out")]
        if show_progress:
            command.append("--progress")
        output = subprocess.run(command, check=True, text=True, stdout=subprocess.PIPE).stdout
        result = json.loads(output.strip().splitlines()[-1])
    times = result["times"]
    print(f"\nstages, {written:,} windows (fresh process):")
    for stage, seconds in times.items():
        print(f"  {stage:<18} {seconds:8.2f} s")
    dedup = times["sequential pass"] + times["overlap removal"]
    print(f"  {'de-duplication':<18} {dedup:8.2f} s   (sequential pass + overlap removal)")
    print(f"  {'total':<18} {sum(times.values()):8.1f} s   (read to written dataset)")
    print(f"  peak memory (max RSS): {result['peak_rss_gb']:.2f} GB")
    print("  counts: " + ", ".join(f"{k} {v:,}" for k, v in result["counts"].items()))
    whole = times["read"] + dedup
    met = whole < 300 and result["peak_rss_gb"] < 8
    print(
        f"target: reading + de-duplication < 300 s and < 8 GB: {whole:.1f} s, "
        f"{result['peak_rss_gb']:.2f} GB -> {'met' if met else 'NOT met'}"
    )


def reference_run(n_windows: int) -> None:
    windows = windows_of(synthetic_stanzas(n_windows, seed=1))
    with tempfile.TemporaryDirectory(prefix="bench-quatrain-") as folder:
        source = Path(folder) / "reference.jsonl"
        write_jsonl(windows, source)  # a 4-line "stanza" gives one window: itself
        corpus = read_quatrain_source(source)
    clock = time.perf_counter()
    ours = deduplicate(corpus, "en", p=10).kept.tolist()
    ours_seconds = time.perf_counter() - clock
    clock = time.perf_counter()
    reference = transcribed_deduplication(windows, 10)[1]
    reference_seconds = time.perf_counter() - clock
    assert ours == reference, "the de-duplication differs from the transcription"
    print(
        f"\nagainst the direct transcription, {len(windows):,} windows "
        f"({len(reference):,} quatrains kept, same result):"
    )
    print(f"  poetic-eval   {ours_seconds:8.3f} s")
    print(f"  transcription {reference_seconds:8.3f} s")
    print(f"  ratio         {reference_seconds / ours_seconds:8.0f}x faster")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--windows", type=int, default=2_700_000)
    parser.add_argument("--reference-windows", type=int, default=100_000)
    sizes = parser.add_mutually_exclusive_group()
    sizes.add_argument("--quick", action="store_true", help="100,000 and 10,000 windows")
    sizes.add_argument("--full", action="store_true", help="the full size (the default)")
    parser.add_argument("--progress", action="store_true", help="show the stages' progress bars")
    parser.add_argument("--child", nargs=2, metavar=("SOURCE", "OUT"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(Path(args.child[0]), Path(args.child[1]), args.progress)
        return
    if args.quick:
        args.windows, args.reference_windows = 100_000, 10_000
    scale_run(args.windows, args.progress)
    reference_run(args.reference_windows)


if __name__ == "__main__":
    main()
