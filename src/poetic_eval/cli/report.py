"""``poetic-eval report``: the diversity report of generated poems against human poems."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

from ..diversity import DIMENSION_NAMES
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


def run(args: argparse.Namespace) -> int:
    from ..report import check_report_folder
    from ..report.diversity_report import write_report

    check_report_folder(args.out, "--out")
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
    return 0
