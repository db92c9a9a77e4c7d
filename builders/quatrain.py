"""quatrain: QuaTrain de-duplicated as in Chen et al. (2024), 9:1 split, with pseudo-sonnets.

    python -m builders quatrain --source QuaTrain-en.json --out datasets/quatrain --seed 0 \\
        [--language en] [--p 10] [--sonnet-couplets split] [--sonnet-fraction 1.0]

Reads QuaTrain JSON lines, a JSON list of QuaTrain records, or a plain-text corpus of stanzas
(:mod:`poetic_eval.quatrain.sources`; default: the project's own sample), de-duplicates each
language (:mod:`poetic_eval.quatrain.pipeline`) and writes, per language ``xx``, the configs
``xx_quatrains`` and ``xx_sonnets`` with splits ``train`` and ``validation`` (the paper's dev).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from poetic_eval.checks import require_fraction, require_positive_int
from poetic_eval.hub import ConfigData, HubDataset
from poetic_eval.quatrain import (
    COUPLET_RULES,
    PAPER_P,
    prepare_language,
    quatrain_features,
    quatrain_rows,
    read_quatrain_source,
    sonnet_features,
    sonnet_rows,
)
from poetic_eval.quatrain.corpus import QuatrainCorpus
from poetic_eval.quatrain.pipeline import PreparedLanguage
from poetic_eval.quatrain.rows import stage_counts_table
from poetic_eval.resources import seed_path

NAME = "quatrain"
DESCRIPTION = "QuaTrain de-duplicated (sequential pass, overlap removal), 9:1 split, pseudo-sonnets"
DEFAULT_SOURCE = "quatrain_sample.jsonl"
#: internal split name -> published split name
SPLITS = {"train": "train", "dev": "validation"}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--language",
        default=None,
        help="language to build, e.g. en or de (default: every language of the source; "
        "a plain-text source is taken to be in this language, default en)",
    )
    parser.add_argument(
        "--p",
        type=int,
        default=None,
        help="overlap removal deletes ceil(D/p) quatrains per round (default: the paper's, "
        + ", ".join(f"{code} {p}" for code, p in PAPER_P.items())
        + ", otherwise 10)",
    )
    parser.add_argument(
        "--sonnet-couplets",
        choices=COUPLET_RULES,
        default="split",
        help="which couplet closes a pseudo-sonnet: 'split' (default; both couplets of a "
        "quatrain close two sonnets, floor(2n/7) sonnets, as in the paper), 'first' (lines "
        "1-2) or 'last' (lines 3-4) of a quatrain used once (floor(n/4) sonnets)",
    )
    parser.add_argument(
        "--sonnet-fraction",
        type=float,
        default=1.0,
        help="draw this share of the most sonnets the rule allows, in (0, 1] (default 1)",
    )


def from_arguments(args: argparse.Namespace) -> HubDataset:
    return build_quatrain(
        args.source,
        seed=args.seed,
        language=args.language,
        p=args.p,
        couplets=args.sonnet_couplets,
        sonnet_fraction=args.sonnet_fraction,
        progress=args.progress,
    )


def build_quatrain(
    source: str | Path | None = None,
    *,
    seed: int = 0,
    language: str | None = None,
    p: int | None = None,
    couplets: str = "split",
    sonnet_fraction: float = 1.0,
    progress: bool = True,
) -> HubDataset:
    """The quatrain dataset from ``source`` (default: the bundled QuaTrain-format sample).

    Every check (records, language, sizes) runs before anything is written.
    """
    if p is not None:
        require_positive_int(p, "p")
    require_fraction(sonnet_fraction, "sonnet_fraction")
    bundled = source is None
    source = seed_path(DEFAULT_SOURCE) if bundled else Path(source)
    corpus = read_quatrain_source(source, text_language=language or "en", progress=progress)
    languages = [language] if language else list(corpus.language_names)
    prepared = [
        prepare_language(
            corpus,
            code,
            seed=seed,
            p=p,
            couplets=couplets,
            sonnet_fraction=sonnet_fraction,
            progress=progress,
        )
        for code in languages
    ]
    configs = [config for item in prepared for config in language_configs(corpus, item, progress)]
    return HubDataset(
        name=NAME,
        pretty_name="QuaTrain, de-duplicated, with pseudo-sonnets",
        configs=configs,
        seed=seed,
        sources=[source],
        license="cc-by-4.0" if bundled else "other",
        language=languages,
        task_categories=["text-generation"],
        tags=["poetry", "quatrains", "sonnets", "rhyme", "deduplication"],
        card_values=_card_values(corpus, prepared, bundled),
        report=[_summary(item) for item in prepared],
    )


def language_configs(
    corpus: QuatrainCorpus, item: PreparedLanguage, progress: bool = False
) -> list[ConfigData]:
    """The ``<language>_quatrains`` and ``<language>_sonnets`` configs of one language."""
    code = item.language
    quatrains = {
        published: quatrain_rows(corpus, item, split, progress=progress)
        for split, published in SPLITS.items()
    }
    sonnets = {
        published: sonnet_rows(quatrains[published], item.sonnets[split], code, published)
        for split, published in SPLITS.items()
    }
    return [
        ConfigData(
            f"{code}_quatrains",
            quatrain_features(corpus),
            quatrains,
            f"de-duplicated {code} quatrains (no line occurs twice)",
        ),
        ConfigData(
            f"{code}_sonnets",
            sonnet_features(corpus),
            sonnets,
            f"{code} pseudo-sonnets: 3 quatrains + 1 couplet from 4 quatrains of the split",
        ),
    ]


def _summary(item: PreparedLanguage) -> str:
    c = item.counts()
    return (
        f"{item.language}: {c['records']:,} records -> {c['after_sequential']:,} after the "
        f"sequential pass ({c['runs']:,} runs) -> {c['after_overlap_removal']:,} after overlap "
        f"removal (p={item.deduplication.p}, {c['iterations']:,} rounds); train {c['train']:,}, "
        f"validation {c['dev']:,}; sonnets {c['sonnets_train']:,} / {c['sonnets_dev']:,}"
    )


def _card_values(
    corpus: QuatrainCorpus, prepared: list[PreparedLanguage], bundled: bool
) -> dict[str, str]:
    if bundled:
        source_kind = "the project's own QuaTrain-format sample (original stanzas)"
    elif corpus.kind == "text":
        source_kind = f"the plain-text stanzas of `{corpus.path.name}`"
    else:
        source_kind = f"`{corpus.path.name}` (QuaTrain records)"
    first = prepared[0]
    return {
        "source_kind": source_kind,
        "stage_table": stage_counts_table(prepared, len(corpus)),
        "p_values": ", ".join(f"{item.language}: {item.deduplication.p}" for item in prepared),
        "couplets": first.couplets,
        "sonnet_fraction": f"{first.sonnet_fraction:g}",
        "first_language": first.language,
    }
