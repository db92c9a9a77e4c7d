"""``poetic-eval report``: the diversity report of generated poems against human poems."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

from ..diversity import DIMENSION_NAMES
from ..errors import InvalidValueError
from .arguments import (
    OPTION_GRAMMAR,
    add_language_argument,
    add_show_progress_flag,
    choice_of,
    parse_option,
    positive_int,
)


def add_arguments(parser: argparse.ArgumentParser, words: Sequence[str] = ()) -> None:
    """The options of ``poetic-eval report``."""
    parser.description = (
        "Compute every diversity dimension of generated poems against a human "
        "corpus and write report.json, report.md and PNG figures into --out. Poem files: "
        "blank-line-separated text, or .jsonl/.json of strings, lists of lines or "
        "objects with a 'text' field."
    )
    parser.add_argument("--generated", required=True, type=Path, help="generated poems file")
    parser.add_argument("--human", required=True, type=Path, help="human poems file")
    parser.add_argument(
        "--out", required=True, type=Path,
        help="report folder: new, empty, or an earlier report (replaced whole, only when the "
        "new one is complete)",
    )  # fmt: skip
    parser.add_argument(
        "--dimensions", nargs="+", type=choice_of(DIMENSION_NAMES, "dimension"), metavar="DIM",
        help=f"dimensions to run (default all): {', '.join(DIMENSION_NAMES)}",
    )  # fmt: skip
    parser.add_argument(
        "--model", help="sentence-transformers name or path for the semantic dimension "
        "(default: the bundled all-MiniLM-L6-v2)",
    )  # fmt: skip
    parser.add_argument("--seed", type=int, default=0, help="seed of the human samples")
    parser.add_argument(
        "--human-samples", type=positive_int, metavar="K",
        help="average human-side statistics over K samples of the generated sample's size "
        "(the paper uses 10)",
    )  # fmt: skip
    parser.add_argument(
        "--option", action="append", default=[], metavar="NAME=VALUE",
        help="an option of one dimension, e.g. length_bins=20, length_remove_punctuation=false "
        "or 'memorization_thresholds={\"verse\": 0.95}'; repeatable. " + OPTION_GRAMMAR,
    )  # fmt: skip
    parser.add_argument("--title", default="Poetry diversity report")
    add_language_argument(
        parser,
        "the rhyme rules of the rhyme dimension and the token rules of lexical and length; "
        "with de and the default encoder, a warning names a multilingual --model",
    )
    add_show_progress_flag(parser)
    add_eval_results_arguments(parser)


def add_eval_results_arguments(parser: argparse.ArgumentParser) -> None:
    """--eval-results and what it needs: the headline scores as the Hub's eval results."""
    group = parser.add_argument_group(
        "Hub eval results (poetic_eval.report.eval_results; push with `poetic-eval publish "
        "--eval-results DIR --model-repo OWNER/MODEL`)"
    )
    group.add_argument(
        "--eval-results", type=Path, metavar="DIR",
        help="also write DIR/.eval_results/<task>.yaml, one per headline score, in the Hub's "
        "format (needs --eval-dataset)",
    )  # fmt: skip
    group.add_argument(
        "--eval-dataset", metavar="OWNER/NAME:CONFIG:SPLIT",
        help="the Hub benchmark dataset, config and split that --human is, e.g. "
        "me/quatrain:en_quatrains:train (its eval.yaml names the tasks)",
    )  # fmt: skip
    group.add_argument("--eval-source", metavar="URL", help="a link shown with the results")


def run(args: argparse.Namespace) -> int:
    from ..report import check_report_folder
    from ..report.diversity_report import write_report

    check_report_folder(args.out, "--out")
    target = eval_results_target(args)  # before any work
    options = dict(parse_option(text) for text in args.option)
    report = write_report(
        args.generated,
        args.human,
        args.out,
        dimensions=args.dimensions,
        human_samples=args.human_samples,
        seed=args.seed,
        model=args.model,
        title=args.title,
        show_progress=args.show_progress,
        language=args.language,
        **options,
    )
    print(f"wrote {args.out / 'report.md'} ({len(report['sections'])} sections)")
    if target is not None:
        from ..report.eval_results import write_eval_results

        written = write_eval_results(report, args.eval_results, target, source_url=args.eval_source)
        print(f"wrote {len(written)} eval results into {written[0].parent}")
    return 0


def eval_results_target(args: argparse.Namespace):
    """The benchmark of --eval-dataset when --eval-results is given (checked up front)."""
    from ..report.eval_results import BenchmarkTarget

    if args.eval_results is None:
        if args.eval_dataset or args.eval_source:
            raise InvalidValueError("--eval-dataset and --eval-source go with --eval-results DIR")
        return None
    if not args.eval_dataset:
        raise InvalidValueError(
            "--eval-results needs --eval-dataset OWNER/NAME:CONFIG:SPLIT: the Hub benchmark "
            "whose human corpus --human is"
        )
    from ..files import check_output_folder

    check_output_folder(args.eval_results, "--eval-results")
    return BenchmarkTarget.parse(args.eval_dataset)
