"""blm: Italian Blackbird Language Matrices (BLM-AgrI, BLM-CausI, BLM-OdI), types II and III.

    python -m builders blm --out datasets/blm --seed 0

Generates the six configs ``agr_ii``, ``agr_iii``, ``caus_ii``, ``caus_iii``, ``od_ii`` and
``od_iii`` (splits ``train`` = few-shot items and ``test``) from the project's own Italian
lexicon (:mod:`poetic_eval.blm`), in the record format of the BLM-It release. ``--source DIR``
replaces the bundled lexicon by a folder holding the same five JSON files.
"""

from __future__ import annotations

import argparse

import datasets
from tqdm.auto import tqdm

from poetic_eval.blm import (
    CONFIGS,
    TASK_NAMES,
    TEXT_FORMATS,
    BlmSizes,
    examples_section,
    generate_config,
    label_inventory,
    load_lexicon,
    shortcut_section,
    text_format_text,
)
from poetic_eval.hub import ConfigData, HubDataset

NAME = "blm"
DESCRIPTION = "Italian Blackbird Language Matrices: agreement, causative and object-drop (II, III)"
EXAMPLES_PER_CONFIG = 3

_CHUNKS = datasets.List({"tag": datasets.Value("string"), "text": datasets.Value("string")})
FEATURES = datasets.Features(
    {
        "ID": datasets.Value("int64"),
        "Context": datasets.List(datasets.Value("string")),
        "Context_concatenated": datasets.Value("string"),
        "Answer_set": datasets.List(datasets.Value("string")),
        "Answer_concatenated": datasets.Value("string"),
        "Correct_option": datasets.Value("string"),
        "Correct_answer": datasets.Value("string"),
        "Verb": datasets.Value("string"),
        "Context_annotation": datasets.List(
            {
                "pattern": datasets.Value("string"),
                "verb": datasets.Value("string"),
                "chunks": _CHUNKS,
            }
        ),
        "Answer_set_annotation": datasets.List(
            {
                "label": datasets.Value("string"),
                "value": datasets.Value("bool"),
                "option": datasets.Value("string"),
                "pattern": datasets.Value("string"),
                "verb": datasets.Value("string"),
                "chunks": _CHUNKS,
            }
        ),
    }
)

_TYPE_DESCRIPTIONS = {
    "II": "one word changes per sentence",
    "III": "every word can change",
}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    defaults = BlmSizes()
    parser.add_argument(
        "--agreement-items",
        type=int,
        default=defaults.agreement_items,
        help=f"AgrI items per type (default {defaults.agreement_items})",
    )
    parser.add_argument(
        "--agreement-few-shot",
        type=int,
        default=defaults.agreement_few_shot,
        help="AgrI items drawn for the train (few-shot) split "
        f"(default {defaults.agreement_few_shot})",
    )
    parser.add_argument(
        "--items-per-verb",
        type=int,
        default=defaults.items_per_verb,
        help=f"CausI/OdI items per verb (default {defaults.items_per_verb})",
    )
    parser.add_argument(
        "--few-shot-verbs",
        type=int,
        default=defaults.few_shot_verbs,
        help="CausI/OdI verbs whose items form the train split "
        f"(default {defaults.few_shot_verbs})",
    )
    parser.add_argument(
        "--text-format",
        choices=TEXT_FORMATS,
        default="natural",
        help="natural Italian (default), or the BLM-It release's tokenised form "
        '("l\' avvocato è partito .")',
    )
    parser.add_argument(
        "--max-verbs",
        type=int,
        default=None,
        help="use only the first N verbs of each class (default: all)",
    )


def from_arguments(args: argparse.Namespace) -> HubDataset:
    sizes = BlmSizes(
        agreement_items=args.agreement_items,
        agreement_few_shot=args.agreement_few_shot,
        items_per_verb=args.items_per_verb,
        few_shot_verbs=args.few_shot_verbs,
        max_verbs=args.max_verbs,
    )
    return build_dataset(
        args.seed, sizes, source=args.source, progress=args.progress, text_format=args.text_format
    )


def build_dataset(
    seed: int,
    sizes: BlmSizes | None = None,
    *,
    source=None,
    progress: bool = False,
    text_format: str = "natural",
) -> HubDataset:
    """The six configs generated with ``seed`` from the lexicon in ``source`` (or the bundled),
    in ``text_format`` (natural, or the release's tokenised form)."""
    sizes = sizes or BlmSizes()
    lexicon = load_lexicon(source)
    configs, report, rows_by_config = [], [], {}
    with tqdm(desc="blm items", unit=" items", disable=not progress) as bar:
        for name, (task, lexical_type) in CONFIGS.items():
            bar.set_postfix_str(name)
            splits = generate_config(
                name, seed, sizes, lexicon, progress=bar.update, text_format=text_format
            )
            rows_by_config[name] = splits["test"]
            description = (
                f"{TASK_NAMES[task]}, type {lexical_type} ({_TYPE_DESCRIPTIONS[lexical_type]})"
            )
            configs.append(ConfigData(name, FEATURES, splits, description=description))
            if task != "agreement":
                train_verbs = sorted({row["Verb"] for row in splits["train"]})
                test_verbs = {row["Verb"] for row in splits["test"]}
                report.append(
                    f"{name}: train verb(s) {', '.join(train_verbs)}; {len(test_verbs)} test verbs"
                )
    return HubDataset(
        name=NAME,
        pretty_name="Italian Blackbird Language Matrices (BLM-AgrI, BLM-CausI, BLM-OdI)",
        configs=configs,
        seed=seed,
        sources=list(lexicon.files),
        license="cc-by-4.0",
        language=["it"],
        task_categories=["multiple-choice"],
        tags=[
            "blackbird-language-matrices",
            "italian",
            "subject-verb-agreement",
            "verb-alternations",
            "synthetic",
        ],
        card_values={
            "lexicon_sizes": _lexicon_sizes(lexicon),
            "sizes": _sizes_text(sizes),
            "examples": examples_section(rows_by_config, EXAMPLES_PER_CONFIG),
            "label_inventory": label_inventory(rows_by_config),
            "text_format": text_format_text(text_format),
            "shortcut_baseline": shortcut_section(rows_by_config),
        },
        report=report,
    )


def _lexicon_sizes(lexicon) -> str:
    causative = len(lexicon.alternation_verbs("causative"))
    object_drop = len(lexicon.alternation_verbs("object_drop"))
    return (
        f"{len(lexicon.nouns)} nouns, {len(lexicon.adjectives)} adjectives, "
        f"{len(lexicon.verbs)} verbs ({causative} causative, {object_drop} object-drop), "
        f"{len(lexicon.attachments)} AgrI attachments, {len(lexicon.predicates)} AgrI "
        f"predicates, {len(lexicon.other_phrases)} P-NP and {len(lexicon.da_phrases)} "
        "temporal da-NP phrases"
    )


def _sizes_text(sizes: BlmSizes) -> str:
    verbs = "every verb" if sizes.max_verbs is None else f"the first {sizes.max_verbs} verbs"
    return (
        f"AgrI: {sizes.agreement_items:,} items per type, {sizes.agreement_few_shot} of them "
        f"drawn for `train`. CausI/OdI: {sizes.items_per_verb} items for {verbs} of the class; "
        f"the items of {sizes.few_shot_verbs} drawn verb(s) form `train`, the rest `test`"
    )
