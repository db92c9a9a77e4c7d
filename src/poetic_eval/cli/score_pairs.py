"""``poetic-eval score-pairs``: score a minimal-pair dataset with an LM, print accuracy per category.

The dataset is a local hub-ready dataset folder (``datasets/<name>`` after ``make build``; one or
all of its configs), a single parquet / jsonl / json / csv file, or a plain folder of such files
(BLiMP, refining-tse: each file is a config named by its stem). Pair columns are detected:
``good``/``bad`` (BPoMP) or ``sentence_good``/``sentence_bad`` (agreement, BLiMP). The category of
a pair is its ``category`` column, else its config (or the file name), optionally
refined by a column (``--category-column case``). Per-pair scores go to ``--out`` (jsonl, csv or
parquet, by extension), written to a temporary file and renamed. Under ``torchrun`` each
process scores a contiguous shard and rank 0 writes and prints the gathered results.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from ..hub import declares_configs

PAIR_COLUMNS = (("good", "bad"), ("sentence_good", "sentence_bad"))
FILE_BUILDERS = {".parquet": "parquet", ".jsonl": "json", ".json": "json", ".csv": "csv"}


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "score-pairs",
        help="score a minimal-pair dataset with a language model and report accuracy",
        description=__doc__.split("\n\n")[1],
    )
    parser.add_argument("--dataset", required=True, help="dataset folder, or a parquet/jsonl/csv file")
    parser.add_argument("--config", action="append", help="config(s) to score (default: all with pairs)")
    parser.add_argument("--split", default=None, help="split of a dataset folder (default: its only split, or test)")
    parser.add_argument("--model", default=None, help="HF model name or local path (default: SmolLM2-135M)")
    parser.add_argument("--out", default="pair_scores.jsonl", help="per-pair scores (.jsonl, .csv, .parquet)")
    parser.add_argument("--reduction", choices=("sum", "mean"), default="sum")
    parser.add_argument("--batch-size", type=int, default=None, help="sequences per forward pass")
    parser.add_argument("--limit", type=int, default=None, help="first N pairs of each config")
    parser.add_argument("--category-column", default=None, help="refine categories by this column")
    parser.add_argument("--device", default=None, help="cpu, cuda, cuda:1 ... (default: cuda if available)")
    parser.add_argument("--dtype", choices=("float32", "bfloat16", "float16"), default="float32")
    parser.add_argument("--n-bootstrap", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-progress", action="store_true")
    parser.set_defaults(func=run)


def pair_columns(column_names: list[str]) -> tuple[str, str]:
    """The (good, bad) column names of a minimal-pair table."""
    for good, bad in PAIR_COLUMNS:
        if good in column_names and bad in column_names:
            return good, bad
    raise ValueError(
        f"no minimal-pair columns found: expected one of {PAIR_COLUMNS}, got {column_names}"
    )


def load_pair_tables(dataset: str, configs: list[str] | None, split: str | None):
    """``[(default category, datasets.Dataset)]`` for a dataset folder or a single file."""
    import datasets

    path = Path(dataset)
    if path.is_file():
        builder = FILE_BUILDERS.get("".join(path.suffixes[-1:]).lower())
        if builder is None:
            raise ValueError(f"--dataset {dataset}: expected a folder or a {sorted(FILE_BUILDERS)} file")
        table = datasets.load_dataset(builder, data_files=str(path), split="train")
        return [(path.stem, table)]
    if not path.is_dir():
        raise FileNotFoundError(f"--dataset {dataset}: no such folder or file")
    if not declares_configs(path):
        return _file_tables(path, configs)
    names = configs or datasets.get_dataset_config_names(str(path))
    tables = []
    for name in names:
        loaded = datasets.load_dataset(str(path), name)
        chosen = split or ("test" if "test" in loaded else next(iter(loaded)))
        table = loaded[chosen]
        try:
            pair_columns(table.column_names)
        except ValueError:
            if configs:  # asked for explicitly: say why it cannot be scored
                raise
            continue  # e.g. the agreement dataset's verb list
        tables.append((name, table))
    if not tables:
        raise ValueError(f"--dataset {dataset}: no config with minimal-pair columns")
    return tables


def _file_tables(folder: Path, configs: list[str] | None):
    """A plain folder of pair files (BLiMP, refining-tse, Marvin & Linzen): one table per file,
    named by its stem, files with minimal-pair columns only unless asked for by name."""
    files = sorted(f for f in folder.rglob("*") if f.is_file() and f.suffix.lower() in FILE_BUILDERS)
    if configs:
        by_name = {f.stem: f for f in files}
        missing = [name for name in configs if name not in by_name]
        if missing:
            raise ValueError(f"--config {', '.join(missing)}: no such file in {folder}; have {sorted(by_name)}")
        files = [by_name[name] for name in configs]
    tables = []
    for file in files:
        [(name, table)] = load_pair_tables(str(file), None, None)
        try:
            pair_columns(table.column_names)
        except ValueError as error:
            if configs:
                raise ValueError(f"{file}: {error}") from None
            continue
        tables.append((name, table))
    if not tables:
        raise ValueError(f"--dataset {folder}: no file with minimal-pair columns")
    return tables


def collect_pairs(tables, limit: int | None, category_column: str | None) -> list[dict]:
    rows = []
    for default_category, table in tables:
        if limit is not None:
            table = table.select(range(min(limit, len(table))))
        good_column, bad_column = pair_columns(table.column_names)
        if category_column and category_column not in table.column_names:
            raise ValueError(f"--category-column {category_column!r} is not a column of {default_category}")
        has_category = "category" in table.column_names
        for index, record in enumerate(table):
            category = str(record["category"]) if has_category else default_category
            if category_column:
                category = f"{category}/{record[category_column]}"
            rows.append(
                {
                    "config": default_category,
                    "row": index,
                    "category": category,
                    "good": record[good_column],
                    "bad": record[bad_column],
                }
            )
    return rows


def write_rows(rows: list[dict], out: str) -> None:
    """Write ``rows`` to ``out`` (format by extension) through a temporary file."""
    import datasets

    from ..text import atomic_path

    target = Path(out)
    suffix = target.suffix.lower()
    if suffix not in (".parquet", ".csv", ".jsonl", ".json"):
        raise ValueError(f"--out {out}: use a .jsonl, .csv or .parquet file name")
    table = datasets.Dataset.from_list(rows)
    with atomic_path(target) as staging:
        if suffix == ".parquet":
            table.to_parquet(str(staging))
        elif suffix == ".csv":
            table.to_csv(str(staging), index=False)
        else:
            table.to_json(str(staging), lines=True)


def run(args: argparse.Namespace) -> int:
    import torch

    from poetic_eval.lm.distributed import (
        end_process_group,
        local_device,
        process_group,
        score_pairs_sharded,
    )

    from ..lm import resolve_model
    from ..pairs import pair_preference

    rank, world_size = process_group()  # under torchrun: each process scores a shard
    rows = collect_pairs(load_pair_tables(args.dataset, args.config, args.split), args.limit, args.category_column)
    device = args.device or (local_device() if world_size > 1 else None)
    lm = resolve_model(args.model, device=device, dtype=getattr(torch, args.dtype))
    started = time.perf_counter()
    good_scores, bad_scores = score_pairs_sharded(
        [row["good"] for row in rows],
        [row["bad"] for row in rows],
        model=lm,
        reduction=args.reduction,
        batch_size=args.batch_size,
        show_progress=not args.no_progress and rank == 0,
    )
    elapsed = time.perf_counter() - started
    end_process_group()
    if rank != 0:
        return 0
    for row, good, bad in zip(rows, good_scores, bad_scores):
        row.update(good_score=float(good), bad_score=float(bad), correct=bool(good > bad))
    write_rows(rows, args.out)
    summary = pair_preference(
        good_scores, bad_scores, categories=[row["category"] for row in rows],
        n_bootstrap=args.n_bootstrap, seed=args.seed,
    )
    processes = f", {world_size} processes" if world_size > 1 else ""
    print(f"model: {lm.name} ({lm.kind}, {args.dtype}, {lm.device}{processes}); reduction: {args.reduction}")
    print(f"scored {len(rows)} pairs in {elapsed:.1f} s ({len(rows) / max(elapsed, 1e-9):.1f} pairs/s)")
    width = max(len(name) for name in [*summary["by_category"], "overall"])
    print(f"{'category':<{width}}  {'n':>6}  {'accuracy':>8}  {'95% CI':>15}  ties")
    entries = [*summary["by_category"].items(), ("overall", summary)]
    for name, entry in entries:
        interval = f"[{entry['ci_low']:.3f}, {entry['ci_high']:.3f}]"
        print(f"{name:<{width}}  {entry['n']:>6}  {entry['accuracy']:>8.3f}  {interval:>15}  {entry['ties']}")
    print(f"per-pair scores: {args.out}")
    return 0
