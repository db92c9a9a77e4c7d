"""blm: Italian Blackbird Language Matrices (BLM-AgrI, BLM-CausI, BLM-OdI), types II and III.

    poetic-eval build blm --out datasets/blm --seed 0

Generates the six configs ``agr_ii``, ``agr_iii``, ``caus_ii``, ``caus_iii``, ``od_ii`` and
``od_iii`` (splits ``train`` = few-shot items and ``test``) from the project's own Italian
lexicon (:mod:`poetic_eval.blm`), in the record format of the BLM-It release. ``--source DIR``
(``source``) replaces the bundled lexicon by a folder holding the same five JSON files.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

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
from poetic_eval.blm.generator import profile_section
from poetic_eval.hub import ConfigData, HubDataset

from .options import BuildConfig, option

NAME = "blm"
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


_SIZES = BlmSizes()  # the defaults: the BLM-It release's sizes


@dataclass(frozen=True)
class Config(BuildConfig):
    """The options of the blm build (``source``: a folder with the five lexicon JSON files);
    the sizes are :class:`poetic_eval.blm.BlmSizes`' fields."""

    agreement_items: int = option(
        _SIZES.agreement_items, help=f"AgrI items per type (default {_SIZES.agreement_items})"
    )
    agreement_few_shot: int = option(
        _SIZES.agreement_few_shot,
        help="AgrI items drawn for the train (few-shot) split "
        f"(default {_SIZES.agreement_few_shot})",
    )
    items_per_verb: int = option(
        _SIZES.items_per_verb, help=f"CausI/OdI items per verb (default {_SIZES.items_per_verb})"
    )
    few_shot_verbs: int = option(
        _SIZES.few_shot_verbs,
        help=f"CausI/OdI verbs whose items form the train split (default {_SIZES.few_shot_verbs})",
    )
    text_format: str = option(
        "natural",
        choices=TEXT_FORMATS,
        help="natural Italian (default), or the BLM-It release's tokenised form "
        '("l\' avvocato è partito .")',
    )
    max_verbs: int | None = option(
        _SIZES.max_verbs, help="use only the first N verbs of each class (default: all)"
    )

    def sizes(self) -> BlmSizes:
        return BlmSizes(
            **{field.name: getattr(self, field.name) for field in dataclasses.fields(BlmSizes)}
        )


def build(config: Config) -> HubDataset:
    """The six configs generated with ``config.seed`` from the lexicon in ``config.source`` (or
    the bundled one), in ``config.text_format`` (natural, or the release's tokenised form)."""
    seed, sizes, text_format = config.seed, config.sizes(), config.text_format
    lexicon = load_lexicon(config.source)
    configs, report, rows_by_config = [], [], {}
    with tqdm(desc="blm items", unit=" items", disable=not config.show_progress) as bar:
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
            "profile": profile_section(rows_by_config, lexicon),
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
