"""``poetic-eval verb-agreement``: TSE, EW and MW of a language model on agreement pairs.

The dataset is a local dataset folder (one or all of its configs) or a parquet / jsonl / json /
csv file with ``sentence_good``, ``sentence_bad`` and ``label`` (-1 / -2 or "singular" /
"plural"), e.g. the refining-tse template files. Prints the headline figures per config and
writes every figure (each cutoff, invalid counts) to ``--out`` as JSON, through a temporary file.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence

from ..errors import InvalidValueError
from .arguments import (
    add_model_arguments,
    add_pair_dataset_arguments,
    add_show_progress_flag,
    model_loading_options,
    positive_int,
)


def add_arguments(parser: argparse.ArgumentParser, words: Sequence[str] = ()) -> None:
    """The options of ``poetic-eval verb-agreement``."""
    parser.description = __doc__.split("\n\n")[1]
    add_pair_dataset_arguments(parser)
    parser.add_argument(
        "--out", default="verb_agreement.json", help="all figures per config (JSON)"
    )
    parser.add_argument(
        "--min-zipf", type=float, default=None, help="verb-list frequency threshold"
    )
    parser.add_argument(
        "--batch-size",
        type=positive_int,
        default=None,
        help="a cap on rows per forward pass (default: the token budget decides)",
    )
    parser.add_argument(
        "--limit", type=positive_int, default=None, help="first N pairs of each config"
    )
    add_model_arguments(parser)
    add_show_progress_flag(parser)


def run(args: argparse.Namespace) -> int:
    from ..agreement import load_verb_list
    from ..files import check_output_file, write_text_atomically
    from ..lm import load_language_model
    from ..lm.distributed import end_process_group, torchrun_device
    from ..pairs import evaluate_verb_agreement, load_pair_tables

    check_output_file(args.out, "--out", suffixes=(".json",))  # before any scoring
    tables = load_pair_tables(args.dataset, args.config, args.split)
    for name, table in tables:  # every input checked before the model is loaded
        missing = {"sentence_good", "sentence_bad", "label"} - set(table.column_names)
        if missing:
            raise InvalidValueError(f"{name}: missing column(s) {sorted(missing)}")
    verbs = load_verb_list() if args.min_zipf is None else load_verb_list(min_zipf=args.min_zipf)
    rank, device = torchrun_device(args.device, args.device_map)  # each process: a shard
    lm = load_language_model(args.model, **model_loading_options(args, device))
    results = {}
    for name, table in tables:
        if args.limit is not None:
            table = table.select(range(min(args.limit, len(table))))
        results[name] = evaluate_verb_agreement(
            table,
            lm,
            verbs=verbs,
            batch_size=args.batch_size,
            show_progress=args.show_progress and rank == 0,
        )
    end_process_group()
    if rank != 0:
        return 0
    from ..text.safe_output import printable  # config names come from the data

    print(f"{'config':32} {'n':>7} {'TSE':>6} {'EW':>6} {'MW':>6}  invalid (TSE/EW)")
    for name, result in results.items():
        print(
            f"{printable(name):32} {result['n']:7d} {result['tse']:6.3f} {result['ew']:6.3f} "
            f"{result['mw']:6.3f}"
            f"  {result['tse_invalid']}/{result['ew_invalid']}"
        )
    write_text_atomically(args.out, json.dumps(results, indent=1, allow_nan=True))
    print(f"model: {lm.name}; all cutoffs in {args.out}")
    return 0
