"""``poetic-eval analyze``: Erato-style analysis of a poem, or of a folder of poems."""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..analyzers.novelty import LINE_BY_LINE_DIVISORS, check_all_pairs
from ..diversity import ENCODINGS
from ..errors import InvalidValueError
from .arguments import (
    OPTION_GRAMMAR,
    add_language_argument,
    add_show_progress_flag,
    choice_of,
    choices_metavar,
    parse_option,
    positive_int,
)


def add_arguments(parser: argparse.ArgumentParser, words: Sequence[str] = ()) -> None:
    """The options of ``poetic-eval analyze``."""
    parser.description = (
        "Run the poem analyzers on POEM_FILE_OR_DIR and print a table per poem "
        "(or JSON). A .txt file is one poem (blank lines between stanzas); .json/.jsonl hold "
        "several. A folder is read recursively, and the collection analyzers (inter-poem "
        "novelty, topicality, collection type/token ratio) run on all its poems. In the "
        "Erato layout, topic<k>.txt gives the topic of the poems in poems<k>/."
    )
    parser.add_argument("path", type=Path, metavar="POEM_FILE_OR_DIR")
    parser.add_argument(
        "--form", help="evaluate against a shipped form: sonnet, limerick, quatrain, haiku"
    )
    parser.add_argument("--json", action="store_true", help="print JSON instead of tables")
    parser.add_argument(
        "--analyzers", nargs="+", metavar="NAME", help="run only these analyzers (default all)"
    )
    _add_rhyme_arguments(parser)
    _add_novelty_arguments(parser)
    _add_topicality_arguments(parser)
    parser.add_argument(
        "--no-collection", action="store_true", help="skip the collection analyzers"
    )
    add_language_argument(
        parser,
        "the rules of the analyzers that read sound (rhyme, syllables, stress) and words "
        "(type/token ratios); with de and the default encoder, topicality warns",
    )
    add_show_progress_flag(parser)


def _add_rhyme_arguments(parser: argparse.ArgumentParser) -> None:
    """How the rhyme analyzers pair lines."""
    parser.add_argument(
        "--rhyme-window",
        default="5",
        metavar="N",
        help="lines at most N apart can rhyme (default 5, as the reference); 'none': any two",
    )
    parser.add_argument(
        "--rhyme-option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="an option of poetic_eval.rhyme.rhyme_scheme, e.g. near=true; repeatable. "
        + OPTION_GRAMMAR,
    )


def _add_novelty_arguments(parser: argparse.ArgumentParser) -> None:
    """Which line pairs inter-poem novelty compares, and how a pair's sum is divided."""
    parser.add_argument(
        "--include-blank-lines",
        action="store_true",
        help="keep blank lines in the novelty line pairs (the reference's way)",
    )
    parser.add_argument(
        "--sample-pairs",
        type=positive_int,
        metavar="K",
        help="inter-poem novelty on K sampled ordered pairs instead of all",
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of --sample-pairs")
    parser.add_argument(
        "--line-by-line-divisor",
        type=choice_of(LINE_BY_LINE_DIVISORS, "divisor"),
        metavar=choices_metavar(LINE_BY_LINE_DIVISORS),
        default="shorter",
        help="inter-poem novelty line by line: divide a pair's zipped-line sum by the shorter "
        "poem's line count (default: the mean of the zipped pairs) or by the first poem's "
        "(the reference code's)",
    )


def _add_topicality_arguments(parser: argparse.ArgumentParser) -> None:
    """The topics and the sentence encoder of topicality."""
    parser.add_argument(
        "--topics",
        type=Path,
        metavar="FILE",
        help="topics: a JSON list (one per poem, in listed order) or object "
        "{poem name: topic}, or a text file with one topic per line",
    )
    parser.add_argument(
        "--model", help="sentence encoder for topicality (default: the bundled all-MiniLM-L6-v2)"
    )
    parser.add_argument(
        "--encoding",
        type=choice_of(ENCODINGS, "encoding"),
        metavar=choices_metavar(ENCODINGS),
        default="poem",
        help="how topicality embeds a poem: 'poem' (default: one sentence, cut at the "
        "encoder's length), 'lines' (mean of its lines) or 'chunks' (mean of runs of lines "
        "that fit the encoder: all of a long poem is read)",
    )


def _rhyme_window(text: str) -> int | None:
    # "0" is taken as "none": the analyzers' rhyme_window itself must be >= 1
    if text.strip().lower() in ("none", "all", "0"):
        return None
    try:
        return int(text)
    except ValueError:
        raise InvalidValueError(
            f"--rhyme-window expects an integer or 'none', got {text!r}"
        ) from None


def read_topics(path: Path, names: list[str]) -> list[str]:
    """Topics from a JSON list/object or a text file (one per line), one per poem."""
    from ..text import read_text_file

    text = read_text_file(path)
    try:
        data: Any = json.loads(text)
    # not JSON: a text file, one topic per non-blank line
    except json.JSONDecodeError:
        data = [line.strip() for line in text.splitlines() if line.strip()]
    if isinstance(data, dict):
        missing = [name for name in names if name not in data]
        if missing:
            raise InvalidValueError(
                f"{path}: no topic for {len(missing)} poem(s), e.g. {missing[0]}"
            )
        # an object is keyed by the names shown for the poems (paths relative to the folder)
        data = [data[name] for name in names]
    if not isinstance(data, list) or len(data) != len(names):
        count = len(data) if isinstance(data, list) else type(data).__name__
        raise InvalidValueError(f"{path}: expected one topic per poem ({len(names)}), got {count}")
    return [str(topic) for topic in data]


def run(args: argparse.Namespace) -> int:
    # imported when the command runs, not with the CLI: other commands and --help never load
    # the analyzers, which keeps the CLI's start short
    from ..analyzers import analyze_collection, analyze_poem, judge_values, read_poem_collection
    from ..analyzers.poem import Poem
    from ..analyzers.registry import check_options
    from .analysis_tables import print_collection, print_poem

    collection = read_poem_collection(args.path)
    names = [_display_name(name, args.path) for name in collection.names]
    topics = read_topics(args.topics, names) if args.topics else collection.topics
    options: dict[str, Any] = {
        "rhyme_window": _rhyme_window(args.rhyme_window),
        "include_blank_lines": args.include_blank_lines,
        "language": args.language,
    }
    if args.rhyme_option:
        options["rhyme_options"] = dict(
            parse_option(text, "--rhyme-option") for text in args.rhyme_option
        )
    check_options(options)
    analyzers = args.analyzers
    if args.form and analyzers is not None:
        from ..analyzers.forms import form_expectations

        # a form is judged on its own analyzers, so they run even when --analyzers omits them
        # (with no --analyzers every analyzer runs already)
        analyzers = list(dict.fromkeys([*analyzers, *form_expectations(args.form)]))
    if not args.no_collection and (analyzers is None or "inter_novelty" in analyzers):
        check_all_pairs(len(collection.poems), args.sample_pairs)  # before any analysis
    records = []
    for name, text in zip(names, collection.poems):
        values = analyze_poem(Poem(text, name), analyzers, **options)
        form = judge_values(values, args.form) if args.form else None
        records.append({"name": name, "text": text, "analysis": values, "form": form})
    collection_values = None
    if not args.no_collection and len(records) >= 2:
        collection_values = analyze_collection(
            collection.poems,
            analyzers,
            **options,
            topics=topics,
            model=args.model,
            encoding=args.encoding,
            line_by_line_divisor=args.line_by_line_divisor,
            sample_pairs=args.sample_pairs,
            seed=args.seed,
            show_progress=args.show_progress,
        )
    if args.json:
        print(json.dumps(_as_json(records, collection_values), indent=2, ensure_ascii=False))
        return 0
    for record in records:
        print_poem(record)
    if collection_values is not None:
        print_collection(collection_values, len(records))
    if args.form:
        passed = sum(record["form"].passed for record in records)
        print(f"form {args.form}: {passed}/{len(records)} poems pass")
    return 0


def _display_name(name: str, root: Path) -> str:
    if root.is_dir():
        try:
            return str(Path(name).relative_to(root))
        except ValueError:
            return name
    return name


def _as_json(records: list[dict], collection_values: dict | None) -> dict[str, Any]:
    poems = []
    for record in records:
        entry: dict[str, Any] = {"name": record["name"], "analysis": record["analysis"]}
        if record["form"] is not None:
            entry["form"] = record["form"].to_json()
        poems.append(entry)
    return {"poems": poems, "collection": collection_values}
