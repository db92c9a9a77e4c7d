"""``poetic-eval score-pairs``: score a minimal-pair dataset with an LM, print accuracy per category

The dataset is a local hub-ready dataset folder (``datasets/<name>`` after ``make build``; one or
all of its configs), a single parquet / jsonl / json / csv file, or a plain folder of such files
(BLiMP, refining-tse: each file is a config named by its stem). Pair columns are detected:
``good``/``bad`` (BPoMP) or ``sentence_good``/``sentence_bad`` (agreement, BLiMP). The category of
a pair is its ``category`` column, else its config (or the file name), optionally
refined by a column (``--category-column case``). Per-pair scores go to ``--out`` (jsonl, csv or
parquet, by extension), written to a temporary file and renamed once every score is known to be
finite: a run with NaN or infinite scores keeps the previous file. Under ``torchrun`` each
process scores a contiguous shard and rank 0 writes and prints the gathered results.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence

from ..errors import InvalidValueError
from ..pairs import collect_pairs, load_pair_tables
from .arguments import (
    add_model_arguments,
    add_pair_dataset_arguments,
    add_show_progress_flag,
    choice_of,
    choices_metavar,
    model_loading_options,
    positive_int,
)

#: The formats of ``--out``, by extension.
OUT_SUFFIXES = (".jsonl", ".json", ".csv", ".parquet")


def add_arguments(parser: argparse.ArgumentParser, words: Sequence[str] = ()) -> None:
    """The options of ``poetic-eval score-pairs``."""
    parser.description = __doc__.split("\n\n")[1]
    add_pair_dataset_arguments(parser)
    parser.add_argument(
        "--out", default="pair_scores.jsonl", help="per-pair scores (.jsonl, .csv, .parquet)"
    )
    reductions = ("sum", "mean")
    parser.add_argument(
        "--reduction", type=choice_of(reductions, "reduction"),
        metavar=choices_metavar(reductions), default="sum",
    )  # fmt: skip
    parser.add_argument(
        "--batch-size",
        type=positive_int,
        default=None,
        help="a cap on sequences per forward pass (default: the token budget decides)",
    )
    parser.add_argument(
        "--limit", type=positive_int, default=None, help="first N pairs of each config"
    )
    parser.add_argument("--category-column", default=None, help="refine categories by this column")
    add_model_arguments(parser)
    parser.add_argument("--n-bootstrap", type=positive_int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    add_show_progress_flag(parser)


def write_rows(rows: list[dict], out: str) -> None:
    """Write ``rows`` to ``out`` (format by extension) through a temporary file.

    A CSV file is opened by spreadsheets, which run a cell that begins with ``=``, ``+``,
    ``-`` or ``@`` as a formula: such text cells get a leading ``'`` and every text cell is
    quoted (OWASP's advice against CSV injection; :func:`~poetic_eval.text.safe_output.
    spreadsheet_cell`). JSON Lines and parquet keep the texts exactly.
    """
    import csv

    import datasets

    from ..files import atomic_path, check_output_file
    from ..text.safe_output import spreadsheet_cell

    target = check_output_file(out, "--out", suffixes=OUT_SUFFIXES)
    suffix = target.suffix.lower()
    if suffix == ".csv":
        rows = [{key: spreadsheet_cell(value) for key, value in row.items()} for row in rows]
    table = datasets.Dataset.from_list(rows)
    with atomic_path(target) as staging:
        if suffix == ".parquet":
            table.to_parquet(str(staging))
        elif suffix == ".csv":
            table.to_csv(str(staging), index=False, quoting=csv.QUOTE_NONNUMERIC)
        else:
            table.to_json(str(staging), lines=True)


def check_scores(rows: list[dict], out: str) -> None:
    """Refuse scores that are NaN or infinite (a diverged model, corrupted weights) before
    anything is written, naming the first pair (the engine's own check,
    :func:`poetic_eval.lm.input_checks.non_finite_rows`, over both scores of each pair)."""
    from ..lm.input_checks import non_finite_rows

    scores = [row["good_score"] + row["bad_score"] for row in rows]  # NaN or inf if either is
    bad = [rows[index] for index in non_finite_rows(scores)]
    if bad:
        first = bad[0]
        raise InvalidValueError(
            f"the model gave NaN or infinite scores for {len(bad)} of {len(rows)} pairs (first: "
            f"config {first['config']}, row {first['row']}: good {first['good_score']}, bad "
            f"{first['bad_score']}); its weights may be corrupted or it diverged. Nothing was "
            f"written: {out} is as it was"
        )


def run(args: argparse.Namespace) -> int:
    from poetic_eval.lm.distributed import end_process_group, process_group, torchrun_device

    from ..files import check_output_file
    from ..lm import load_language_model
    from ..pairs import pair_preference
    from ..pairs.statistics import check_bootstrap_size

    check_output_file(args.out, "--out", suffixes=OUT_SUFFIXES)  # before any scoring
    rank, world_size = process_group(args.device)  # under torchrun: each scores a shard
    rows = collect_pairs(
        load_pair_tables(args.dataset, args.config, args.split), args.limit, args.category_column
    )
    check_bootstrap_size(
        args.n_bootstrap, 1 + len({row["category"] for row in rows}), "--n-bootstrap"
    )
    _, device = torchrun_device(args.device, args.device_map)  # under torchrun: its own GPU
    lm = load_language_model(args.model, **model_loading_options(args, device))
    started = time.perf_counter()
    good_scores, bad_scores = _scores(
        rows, lm, args, show_progress=args.show_progress and rank == 0
    )
    elapsed = time.perf_counter() - started
    end_process_group()
    if rank != 0:
        return 0
    for row, good, bad in zip(rows, good_scores, bad_scores):
        row.update(good_score=float(good), bad_score=float(bad), correct=bool(good > bad))
    check_scores(rows, args.out)  # a failed run keeps the previous --out
    summary = pair_preference(
        good_scores,
        bad_scores,
        categories=[row["category"] for row in rows],
        n_bootstrap=args.n_bootstrap,
        seed=args.seed,
    )
    write_rows(rows, args.out)
    processes = f", {world_size} processes" if world_size > 1 else ""
    print(
        f"model: {lm.name} ({lm.kind}, {args.dtype}, {lm.device}{processes}); "
        f"reduction: {args.reduction}"
    )
    print(
        f"scored {len(rows)} pairs in {elapsed:.1f} s "
        f"({len(rows) / max(elapsed, 1e-9):.1f} pairs/s)"
    )
    _print_summary(summary)
    from ..text.safe_output import printable  # the path may hold any character

    print(f"per-pair scores: {printable(args.out)}")
    return 0


def _scores(rows: list[dict], lm, args: argparse.Namespace, *, show_progress: bool):
    """(good scores, bad scores) of ``rows``; under torchrun each process scores its shard and
    every process gets all the scores."""
    from poetic_eval.lm.distributed import score_pairs_sharded

    return score_pairs_sharded(
        [row["good"] for row in rows],
        [row["bad"] for row in rows],
        model=lm,
        reduction=args.reduction,
        batch_size=args.batch_size,
        show_progress=show_progress,
    )


def _print_summary(summary: dict) -> None:
    """The accuracy table: one row per category, then overall."""
    from ..text.safe_output import printable  # categories come from the data

    width = max(len(printable(name)) for name in [*summary["by_category"], "overall"])
    print(f"{'category':<{width}}  {'n':>6}  {'accuracy':>8}  {'95% CI':>15}  ties")
    entries = [*summary["by_category"].items(), ("overall", summary)]
    for name, entry in entries:
        interval = f"[{entry['ci_low']:.3f}, {entry['ci_high']:.3f}]"
        print(
            f"{printable(name):<{width}}  {entry['n']:>6}  {entry['accuracy']:>8.3f}  "
            f"{interval:>15}  {entry['ties']}"
        )
