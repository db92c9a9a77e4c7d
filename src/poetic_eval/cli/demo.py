"""``poetic-eval demo``: the main job on embedded defaults (what ``make demo`` runs).

1. builds every dataset from the bundled seed data into ``--datasets`` (hub-ready folders);
2. writes the poetry-diversity report for the bundled generated vs human quatrains, and a
   German section beside it (rhyme distribution, lexical diversity, length of the bundled
   German quatrains, read with the German rhyme and token rules);
3. scores the default LM (SmolLM2-135M, offline) on the minimal pairs of every dataset config
   and adds the accuracy tables and a figure to the same report;
4. evaluates it on the first test items of every BLM config (zero-shot English prompt, and the
   candidates' likelihood) and adds the BLM table.
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..files import OutputLocationError, UserError
from .arguments import non_negative_int

if TYPE_CHECKING:
    from ..lm import LanguageModel

GENERATED_SAMPLE = "generated_quatrains.txt"
HUMAN_SAMPLE = "human_quatrains.txt"
#: The project's own German quatrains: JSON lines {"sample": "human" | "generated",
#: "scheme": the rhyme scheme they were written in, "text"}.
GERMAN_SAMPLE = "german_quatrains.jsonl"
# agreement configs whose differing token is the verb (the *_2 BLiMP paradigms vary the noun)
SCORES_FILE = "minimal_pair_scores.jsonl"
VERB_AGREEMENT_CONFIGS = ("simple_agrmt", "prep_anim", "obj_rel_across_anim", "subj_rel")


def add_arguments(parser: argparse.ArgumentParser, words: Sequence[str] = ()) -> None:
    """The options of ``poetic-eval demo``."""
    parser.description = __doc__
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.add_argument("--out", type=Path, default=Path("out"), help="report folder (out)")
    parser.add_argument(
        "--datasets", type=Path, default=Path("datasets"), help="where to build the datasets"
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of builds and sampling (0)")
    parser.add_argument(
        "--max-pairs",
        type=non_negative_int,
        default=100,
        help="pairs scored per dataset config (first N rows; 0 = all) (100)",
    )
    parser.add_argument(
        "--blm-items",
        type=non_negative_int,
        default=5,
        help="BLM test items evaluated per config and method (first N; 0 = none) (5)",
    )
    parser.add_argument("--model", default=None, help="LM name or path (default: SmolLM2-135M)")
    parser.add_argument(
        "--skip-scoring", action="store_true", help="build and report, but score no LM"
    )


def run(args: argparse.Namespace) -> int:
    import datasets

    from ..report import check_report_folder

    check_report_folder(args.out, "--out")  # before any work; the builds check --datasets
    check_separate_folders(args.out, args.datasets)
    datasets.disable_progress_bars()  # one bar per config and split is noise here
    started = time.perf_counter()
    build_datasets(args.datasets, args.seed)
    report = diversity_report(args.out, args.seed)
    german_section(args.out, args.seed)
    if not args.skip_scoring:
        from ..lm import load_language_model

        lm = load_language_model(args.model)  # loaded once, for the pairs and the BLM items
        score_minimal_pairs(args.datasets, args.out, args.max_pairs, lm, args.seed)
        if args.blm_items:
            blm_report(args.datasets / "blm", args.out, args.blm_items, lm)
    print(f"demo: done in {time.perf_counter() - started:.0f} s; report: {args.out / 'report.md'}")
    return 0 if report else 1


def check_separate_folders(out: Path, datasets_dir: Path) -> None:
    """Refuse a ``--datasets`` that is ``--out`` or holds it, or lies inside it, before the
    builds (25 s): the report replaces ``--out`` whole, and the builds write beside it."""
    report, built = Path(os.path.realpath(out)), Path(os.path.realpath(datasets_dir))
    if report == built or report in built.parents or built in report.parents:
        how = "the same folder" if report == built else "one inside the other"
        raise OutputLocationError(
            f"--datasets {datasets_dir} and --out {out} are {how}: the report replaces --out "
            "whole and the builds write their own folders; give two separate folders (e.g. "
            "--datasets datasets --out out)"
        )


def build_datasets(out: Path, seed: int) -> None:
    from . import main

    print(f"demo: building the datasets from the bundled seeds into {out}/")
    status = main(["build", "all", "--out", str(out), "--seed", str(seed)])
    if status:
        raise UserError(f"the dataset build failed (exit status {status}; its error is above)")


def diversity_report(out: Path, seed: int) -> dict[str, Any]:
    from ..report.diversity_report import write_report
    from ..resources import seed_poems

    print(f"demo: diversity report of {GENERATED_SAMPLE} against {HUMAN_SAMPLE}")
    return write_report(
        seed_poems(GENERATED_SAMPLE),
        seed_poems(HUMAN_SAMPLE),
        out,
        seed=seed,
        title="poetic-eval demo: bundled generated vs human quatrains",
        show_progress=True,
    )


def german_seed_quatrains() -> list[dict[str, str]]:
    """The bundled German quatrains: one record per quatrain, its sample ("human" or
    "generated"), the scheme it was written in and its text."""
    import json

    from ..resources import seed_path
    from ..text import read_text_file

    return [json.loads(line) for line in read_text_file(seed_path(GERMAN_SAMPLE)).splitlines()]


def german_section(out: Path, seed: int) -> dict[str, Any]:
    """Add the German section (rhyme, lexical, length) of the bundled German quatrains."""
    from ..report.diversity_report import add_language_section

    records = german_seed_quatrains()
    generated = [r["text"] for r in records if r["sample"] == "generated"]
    human = [r["text"] for r in records if r["sample"] == "human"]
    print(f"demo: German section: {len(generated)} generated vs {len(human)} human quatrains")
    return add_language_section(out, generated, human, language="de", seed=seed)


def score_minimal_pairs(
    datasets_dir: Path, out: Path, max_pairs: int, lm: LanguageModel, seed: int
) -> None:
    """Score every minimal-pair config of the built datasets; add a report section."""
    from poetic_eval.report.figures import accuracy_bars

    from ..lm import score_pairs
    from ..pairs import collect_pairs, load_pair_tables, pair_preference
    from ..report import add_section, attach, load_report, report_folder, write_report_files
    from ..report.sections.pairs import ACCURACY_FIGURE, pairs_section
    from .score_pairs import write_rows

    print(f"demo: scoring minimal pairs with {lm.name} (first {max_pairs or 'all'} per config)")
    rows = []
    for folder in sorted(p for p in datasets_dir.iterdir() if (p / "README.md").is_file()):
        try:
            tables = load_pair_tables(str(folder), None, None)
        except ValueError as error:  # a dataset without pairs (quatrain): nothing to score
            print(f"demo: pair scoring skips {folder.name}, which has no pairs ({error})")
            continue
        for row in collect_pairs(tables, max_pairs or None, None):
            rows.append(
                {**row, "dataset": folder.name, "category": f"{folder.name}/{row['category']}"}
            )
    started = time.perf_counter()
    good, bad = score_pairs([r["good"] for r in rows], [r["bad"] for r in rows], model=lm)
    elapsed = time.perf_counter() - started
    for row, good_score, bad_score in zip(rows, good, bad):
        row.update(good_score=float(good_score), bad_score=float(bad_score))
    summary = pair_preference(good, bad, categories=[r["category"] for r in rows], seed=seed)
    by_category = summary["by_category"]
    section = pairs_section(
        summary,
        model=f"{lm.name} ({lm.kind})",
        text=f"{len(rows)} pairs scored in {elapsed:.1f} s. Per-pair scores: {SCORES_FILE}.",
        verb_results=verb_agreement_results(datasets_dir, lm, max_pairs),
    )
    with report_folder(out, keep=True, argument="--out") as staging:  # all of it, or none
        write_rows(rows, str(staging / SCORES_FILE))
        accuracy_bars(
            {name: entry["accuracy"] for name, entry in by_category.items()},
            staging / ACCURACY_FIGURE,
            intervals={name: (e["ci_low"], e["ci_high"]) for name, e in by_category.items()},
        )
        report = attach(add_section(load_report(staging), "minimal_pairs", section), SCORES_FILE)
        write_report_files(report, staging)


def blm_report(folder: Path, out: Path, items: int, lm: LanguageModel) -> None:
    """The BLM table: the model on the first ``items`` test items of every BLM config."""
    from ..blm import evaluate_configs
    from ..report import append_section
    from ..report.sections.blm import blm_section

    if not (folder / "README.md").is_file():
        return
    print(f"demo: BLM matrices with {lm.name} (first {items} test items per config)")
    started = time.perf_counter()
    results = evaluate_configs(folder, lm, limit=items)
    elapsed = time.perf_counter() - started
    note = f"First {items} test items of each config, evaluated in {elapsed:.1f} s."
    append_section(out, "blm", blm_section(results, note=note))


def verb_agreement_results(datasets_dir: Path, lm: LanguageModel, max_pairs: int) -> list:
    """(config, TSE / EW / MW result) of the model on the agreement configs whose verb is the
    differing token; empty without a built agreement dataset."""
    from ..pairs import evaluate_verb_agreement, load_pair_tables

    folder = datasets_dir / "agreement"
    if not (folder / "README.md").is_file():
        return []
    results = []
    for name in VERB_AGREEMENT_CONFIGS:
        [(_, table)] = load_pair_tables(str(folder), [name], None)
        if max_pairs:
            table = table.select(range(min(max_pairs, len(table))))
        results.append((name, evaluate_verb_agreement(table, lm, show_progress=False)))
    return results
