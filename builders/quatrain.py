"""quatrain: QuaTrain de-duplicated as in Chen et al. (2024), 9:1 split, with pseudo-sonnets.

    poetic-eval build quatrain --source QuaTrain-en.json --out datasets/quatrain --seed 0 \\
        [--language en] [--p 10] [--sonnet-couplets split] [--sonnet-fraction 1.0]

Reads QuaTrain JSON lines, a JSON list of QuaTrain records, or a plain-text corpus of stanzas
(:mod:`poetic_eval.quatrain.sources`; default: the project's own sample), de-duplicates each
language (:mod:`poetic_eval.quatrain.pipeline`) and writes, per language ``xx``, the configs
``xx_quatrains`` and ``xx_sonnets`` with splits ``train`` and ``validation`` (the paper's dev).
"""

from __future__ import annotations

from dataclasses import dataclass
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

from .options import BuildConfig, option

NAME = "quatrain"
DEFAULT_SOURCE = "quatrain_sample.jsonl"
#: internal split name -> published split name
SPLITS = {"train": "train", "dev": "validation"}


@dataclass(frozen=True)
class Config(BuildConfig):
    """The options of the quatrain build (``source``: QuaTrain records or plain-text stanzas)."""

    language: str | None = option(
        None,
        help="language to build, e.g. en or de (default: every language of the source; "
        "a plain-text source is taken to be in this language, default en)",
    )
    p: int | None = option(
        None,
        help="overlap removal deletes ceil(D/p) quatrains per round (default: the paper's, "
        + ", ".join(f"{code} {p}" for code, p in PAPER_P.items())
        + ", otherwise 10)",
    )
    sonnet_couplets: str = option(
        "split",
        choices=COUPLET_RULES,
        help="which couplet closes a pseudo-sonnet: 'split' (default; both couplets of a "
        "quatrain close two sonnets, floor(2n/7) sonnets, as in the paper), 'first' (lines "
        "1-2) or 'last' (lines 3-4) of a quatrain used once (floor(n/4) sonnets)",
    )
    sonnet_fraction: float = option(
        1.0, help="draw this share of the most sonnets the rule allows, in (0, 1] (default 1)"
    )


def build(config: Config) -> HubDataset:
    """The quatrain dataset from ``config.source`` (default: the bundled QuaTrain-format sample).

    Every check (records, language, sizes) runs before anything is written.
    """
    language, show_progress = config.language, config.show_progress
    if config.p is not None:
        require_positive_int(config.p, "p")
    require_fraction(config.sonnet_fraction, "sonnet_fraction")
    bundled = config.source is None
    source = seed_path(DEFAULT_SOURCE) if bundled else Path(config.source)
    corpus = read_quatrain_source(
        source, text_language=language or "en", show_progress=show_progress
    )
    languages = [language] if language else list(corpus.language_names)
    prepared = [
        prepare_language(
            corpus,
            code,
            seed=config.seed,
            p=config.p,
            couplets=config.sonnet_couplets,
            sonnet_fraction=config.sonnet_fraction,
            show_progress=show_progress,
        )
        for code in languages
    ]
    configs = [data for item in prepared for data in language_configs(corpus, item, show_progress)]
    return HubDataset(
        name=NAME,
        pretty_name="QuaTrain, de-duplicated, with pseudo-sonnets",
        configs=configs,
        seed=config.seed,
        sources=[source],
        license="cc-by-4.0" if bundled else "other",
        language=languages,
        task_categories=["text-generation"],
        tags=["poetry", "quatrains", "sonnets", "rhyme", "deduplication"],
        card_values=_card_values(corpus, prepared, bundled),
        report=[_summary(item) for item in prepared],
    )


def language_configs(
    corpus: QuatrainCorpus, item: PreparedLanguage, show_progress: bool = False
) -> list[ConfigData]:
    """The ``<language>_quatrains`` and ``<language>_sonnets`` configs of one language."""
    code = item.language
    quatrains = {
        published: quatrain_rows(corpus, item, split, show_progress=show_progress)
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
