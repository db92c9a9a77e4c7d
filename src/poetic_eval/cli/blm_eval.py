"""``poetic-eval blm-eval``: evaluate a causal LM on Blackbird Language Matrices (BLM-It).

Reads a built BLM dataset folder (``datasets/blm``: one result per config, or the configs named
with ``--config``) or a file in the original BLM-It release's format (a JSON list of records,
``Context``/``Answer_set`` with or without their number/letter prefixes). ``--method prompt``: the
letter A-H with the highest log-probability after a zero- or one-shot prompt in English or
Italian; ``--method candidates``: the answer sentence with the highest log-probability after the
context sentences. Prints accuracy, macro-F1 over the letters, n and which labels (the rule each
wrong answer breaks) the model chose; ``--json`` prints them with one prediction per item.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from typing import Any

from ..errors import InvalidValueError
from .arguments import (
    add_model_arguments,
    add_show_progress_flag,
    choice_of,
    choices_metavar,
    model_loading_options,
    positive_int,
)

BY_CONFIG_OMITS = ("predictions",)


def add_arguments(parser: argparse.ArgumentParser, words: Sequence[str] = ()) -> None:
    """The options of ``poetic-eval blm-eval``."""
    parser.description = __doc__.split("\n\n")[1]
    parser.add_argument(
        "--items", required=True, help="BLM dataset folder (parquet + card) or release JSON file"
    )
    parser.add_argument(
        "--config", action="append", help="config(s) of a dataset folder (default: all)"
    )
    parser.add_argument("--split", default="test", help="split of a dataset folder (test)")
    methods, languages, reductions = ("prompt", "candidates"), ("en", "it"), ("sum", "mean")
    parser.add_argument(
        "--method", type=choice_of(methods, "method"), metavar=choices_metavar(methods),
        default="prompt",
    )  # fmt: skip
    parser.add_argument(
        "--shots",
        type=int,
        choices=(0, 1),
        default=0,
        help="prompt method: 1 shows a solved example (first train item; a file's first record)",
    )
    parser.add_argument(
        "--language", type=choice_of(languages, "language"), metavar=choices_metavar(languages),
        default="en", help="prompt language",
    )  # fmt: skip
    parser.add_argument(
        "--reduction",
        type=choice_of(reductions, "reduction"),
        metavar=choices_metavar(reductions),
        default="sum",
        help="candidates method: sum of the candidate's token log-probs, or their mean",
    )
    add_model_arguments(parser)
    parser.add_argument(
        "--limit", type=positive_int, default=None, help="first N items of each config"
    )
    parser.add_argument(
        "--batch-size",
        type=positive_int,
        default=None,
        help="a cap on packed prefix trees per forward pass (default: the token budget decides)",
    )
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    add_show_progress_flag(parser)


def combined(results: list[dict[str, Any]]) -> dict[str, Any]:
    """One result as is; several: the pooled scores, per-config results and all predictions."""
    from ..blm import blm_results

    if len(results) == 1:
        return results[0]
    predictions = [
        {"config": result["config"], **prediction}
        for result in results
        for prediction in result["predictions"]
    ]
    inventory = {label for result in results for label in result["by_label"]}
    pooled = blm_results(
        [p["predicted"] for p in predictions],
        [p["correct"] for p in predictions],
        [p["label"] for p in predictions],
        label_inventory=sorted(inventory),
    )
    settings = {
        k: v
        for k, v in results[0].items()
        if k in ("method", "model", "shots", "language", "reduction")
    }
    by_config = {
        result["config"]: {k: v for k, v in result.items() if k not in BY_CONFIG_OMITS}
        for result in results
    }
    return {**settings, **pooled, "by_config": by_config, "predictions": predictions}


def print_table(results: list[dict[str, Any]]) -> None:
    from ..report.sections.blm import method_name
    from ..text.safe_output import printable  # config names and labels come from the data

    first = results[0]
    print(f"model: {first['model']}; method: {method_name(first)}")
    width = max(len(printable(name)) for name in [*(r["config"] for r in results), "config"])
    print(f"{'config':<{width}}  {'n':>6}  {'accuracy':>8}  {'macro-F1':>8}  ties")
    for result in results:
        print(
            f"{printable(result['config']):<{width}}  {result['n']:>6}  "
            f"{result['accuracy']:>8.3f}  {result['macro_f1']:>8.3f}  {result['ties']}"
        )
    print("chosen answers by label (count, share):")
    for result in results:
        shares = ", ".join(
            f"{printable(label)} {entry['count']} ({entry['share']:.2f})"
            for label, entry in result["by_label"].items()
        )
        print(f"  {printable(result['config'])}: {shares}")


def run(args: argparse.Namespace) -> int:
    from ..blm import evaluate_sets
    from ..blm.item_sources import load_evaluation_sets
    from ..lm import load_language_model
    from ..lm.distributed import end_process_group, torchrun_device

    if args.method == "candidates" and args.shots:
        raise InvalidValueError(
            "--shots 1 applies to --method prompt; candidates are read after the context"
        )
    if args.method == "prompt" and args.reduction != "sum":
        raise InvalidValueError(
            "--reduction applies to --method candidates; the prompt method scores letters"
        )
    sets = load_evaluation_sets(
        args.items, args.config, split=args.split, one_shot=args.shots == 1, limit=args.limit
    )
    rank, device = torchrun_device(args.device, args.device_map)  # each process: a shard
    lm = load_language_model(args.model, **model_loading_options(args, device))
    settings = {"method": args.method, "language": args.language, "reduction": args.reduction}
    results = evaluate_sets(
        sets,
        lm,
        settings=[settings],
        batch_size=args.batch_size,
        show_progress=args.show_progress and rank == 0,
    )
    end_process_group()
    if rank != 0:
        return 0
    if args.json:
        print(json.dumps(combined(results), ensure_ascii=False, indent=2))
    else:
        print_table(results)
    return 0
