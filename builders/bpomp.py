"""bpomp: BPoMP limerick minimal pairs (Abdibayev et al. 2021), one config per corruption.

    poetic-eval build bpomp --source limerick_dataset_oedilf_v3.json --out datasets/bpomp \\
        --seed 0 --n-pairs 10000

Reads an OEDILF JSON or plain-text limerick source (default: the project's own seed limericks),
keeps verified limericks, and writes configs ``rhyme_word_swap``, ``line_swap`` and
``synonym_replace`` (split ``test``), ``n_pairs`` pairs each when the source allows.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import datasets

from poetic_eval.checks import require_positive_int
from poetic_eval.errors import InvalidValueError
from poetic_eval.hub import ConfigData, HubDataset
from poetic_eval.limericks import (
    CORRUPTIONS,
    PairGeneration,
    SynonymFinder,
    WordNetNotFoundError,
    generate_pairs,
    read_limerick_source,
    verify_limericks,
)
from poetic_eval.resources import seed_path

from .options import BuildConfig, option

DEFAULT_PAIRS = 10_000
DEFAULT_SOURCE = "limericks.txt"
SPLIT = "test"

FEATURES = datasets.Features(
    {
        "id": datasets.Value("string"),
        "source_id": datasets.Value("string"),
        "good": datasets.Value("string"),
        "bad": datasets.Value("string"),
        "corruption": {
            "type": datasets.Value("string"),
            "lines": datasets.List(datasets.Value("int32")),
            "original_words": datasets.List(datasets.Value("string")),
            "new_words": datasets.List(datasets.Value("string")),
            "synset": datasets.Value("string"),
            "pos": datasets.Value("string"),
        },
    }
)

CONFIG_DESCRIPTIONS = {
    "rhyme_word_swap": "the final words of two rhyming lines swapped",
    "line_swap": "two rhyming lines swapped",
    "synonym_replace": "a final word replaced by a non-rhyming WordNet synonym",
}


@dataclass(frozen=True)
class Config(BuildConfig):
    """The options of the bpomp build (``source``: an OEDILF JSON or plain-text limericks)."""

    n_pairs: int = option(
        DEFAULT_PAIRS,
        help=f"pairs per config, capped by what the source allows (default {DEFAULT_PAIRS})",
        in_all=True,
    )


def build(config: Config, *, finder: SynonymFinder | None = None) -> HubDataset:
    """The bpomp dataset from ``config.source`` (default: the bundled seed limericks).

    ``synonym_replace`` needs WordNet; without it that config is left out and the report
    says how to install WordNet. ``finder`` replaces the WordNet synonym finder (tests).
    """
    n_pairs, seed, show_progress = config.n_pairs, config.seed, config.show_progress
    require_positive_int(n_pairs, "n_pairs")
    bundled = config.source is None
    source = seed_path(DEFAULT_SOURCE) if bundled else Path(config.source)
    verification = verify_limericks(read_limerick_source(source), show_progress=show_progress)
    if not verification.kept:
        raise InvalidValueError(
            f"{source}: no verified limericks (" + "; ".join(verification.summary()) + ")"
        )
    report = verification.summary()
    configs = []
    for kind in CORRUPTIONS:
        if kind == "synonym_replace" and finder is None:
            try:
                finder = SynonymFinder()
            except WordNetNotFoundError as error:
                report.append(f"synonym_replace not built: {error}")
                continue
        generation = generate_pairs(
            verification.kept, kind, n_pairs, seed, finder=finder, show_progress=show_progress
        )
        report.append(_generation_summary(generation))
        configs.append(
            ConfigData(kind, FEATURES, {SPLIT: pair_rows(generation)}, CONFIG_DESCRIPTIONS[kind])
        )
    return HubDataset(
        name="bpomp",
        pretty_name="BPoMP: limerick minimal pairs",
        configs=configs,
        seed=seed,
        sources=[source],
        license="cc-by-4.0" if bundled else "other",
        language=["en"],
        task_categories=["text-classification"],
        tags=["minimal-pairs", "poetry", "limericks", "rhyme"],
        card_values={
            "source_kind": "the project's own seed limericks" if bundled else f"`{source.name}`",
            "n_pairs": f"{n_pairs:,}",
        },
        report=report,
    )


def _generation_summary(generation: PairGeneration) -> str:
    summary = (
        f"{generation.kind}: {len(generation.pairs):,} pairs ({generation.requested:,} requested"
    )
    if generation.capped:
        summary += "; capped at one pair per source limerick"
    summary += f"); limericks without a valid corruption: {generation.without_candidate:,}"
    if generation.duplicates:
        summary += f"; duplicate pairs dropped: {generation.duplicates:,}"
    return summary


def pair_rows(generation: PairGeneration) -> list[dict]:
    """Dataset rows of a generation: ids in build order, the corruption as a struct."""
    width = max(5, len(str(len(generation.pairs))))
    return [
        {
            "id": f"{generation.kind}-{number:0{width}d}",
            "source_id": pair.limerick.source_id,
            "good": pair.limerick.text,
            "bad": pair.corruption.bad,
            "corruption": pair.corruption.as_record(),
        }
        for number, pair in enumerate(generation.pairs)
    ]
