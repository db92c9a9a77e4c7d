"""Markdown for the BLM dataset card, rendered from built rows: examples and label inventory."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from ...checks import typed_options
from ..records import strip_answer_prefix
from .configs import CONFIGS
from .labels import AGREEMENT_LABELS, AGREEMENT_RULES, ALTERNATION_LABELS, ALTERNATION_RULES
from .lexicon import Lexicon

#: the patterns shown per label in the label inventory, most common first
SHAPES_SHOWN = 4
TASK_NAMES = {"agreement": "BLM-AgrI", "causative": "BLM-CausI", "object_drop": "BLM-OdI"}


def example_block(row: Mapping[str, Any]) -> str:
    """One item as a fenced block: numbered context, lettered answers with label and pattern."""
    lines = [f"ID {row['ID']} · verb: {row['Verb']} · correct: {row['Correct_option']}", ""]
    for sentence, annotation in zip(row["Context"], row["Context_annotation"]):
        lines.append(f"{sentence.replace(chr(9), '  ')}    [{annotation['pattern']}]")
    lines.append("")
    for sentence, annotation in zip(row["Answer_set"], row["Answer_set_annotation"]):
        mark = "*" if annotation["value"] else " "
        text = strip_answer_prefix(sentence)
        lines.append(f"{annotation['option']}{mark} {text}    [{annotation['label']}]")
    return "```text\n" + "\n".join(lines) + "\n```"


@typed_options
def examples_section(rows_by_config: Mapping[str, Sequence[Mapping[str, Any]]], n: int = 3) -> str:
    """Per config, its first ``n`` rows as example blocks."""
    parts = []
    for name, rows in rows_by_config.items():
        task, lexical_type = CONFIGS[name]
        parts.append(f"### `{name}` ({TASK_NAMES[task]}, type {lexical_type})")
        parts.extend(example_block(row) for row in rows[:n])
    return "\n\n".join(parts)


def label_inventory(rows_by_config: Mapping[str, Sequence[Mapping[str, Any]]]) -> str:
    """Per task, each label found in the rows, how many answers carry it, and its rule.

    The builder passes each config's ``test`` rows, so the counts are of the test split (the
    card says so); the column is headed accordingly.
    """
    counts: dict[str, Counter] = {}
    patterns: dict[str, dict[str, Counter]] = {}
    for name, rows in rows_by_config.items():
        task = CONFIGS[name][0]
        family = task
        tally = counts.setdefault(family, Counter())
        shapes = patterns.setdefault(family, {})
        for row in rows:
            for entry in row["Answer_set_annotation"]:
                tally[entry["label"]] += 1
                shapes.setdefault(entry["label"], Counter())[_shape(entry)] += 1
    parts = []
    for family, labels, rules, title in (
        ("agreement", AGREEMENT_LABELS, AGREEMENT_RULES, "AgrI (`agr_*`)"),
        ("causative", ALTERNATION_LABELS, ALTERNATION_RULES, "CausI (`caus_*`)"),
        ("object_drop", ALTERNATION_LABELS, ALTERNATION_RULES, "OdI (`od_*`)"),
    ):
        if family not in counts:
            continue
        found = counts[family]
        table = [
            f"**{title}**",
            "",
            "| label | `test` answers | rule broken | patterns in the data (share) |",
            "|---|---:|---|---|",
        ]
        ordered = [label for label in labels if label in found]
        ordered += sorted(label for label in found if label not in labels)
        for label in ordered:
            shapes = patterns[family][label]
            common = shapes.most_common(SHAPES_SHOWN)
            used = ", ".join(f"`{shape}` {n / found[label]:.0%}" for shape, n in common)
            if len(shapes) > SHAPES_SHOWN:
                rest = found[label] - sum(n for _, n in common)
                used += f", {len(shapes) - SHAPES_SHOWN} more {rest / found[label]:.0%}"
            table.append(
                f"| `{label}` | {found[label]:,} | {rules.get(label, '(unknown)')} | {used} |"
            )
        parts.append("\n".join(table))
    return "\n\n".join(parts)


def _shape(entry: Mapping[str, Any]) -> str:
    """An answer's pattern, with its "da" phrase told apart: ``da-NP`` (time) or ``da-solo``
    (*da solo*); AgrI's numbers are dropped (``Subj_pl`` -> ``Subj``)."""
    chunks = entry.get("chunks") or []
    tags = []
    for chunk in chunks:
        tag = chunk["tag"]
        if tag == "da-NP" and chunk["text"].split()[-1] in ("solo", "sola", "soli", "sole"):
            tag = "da-solo"
        tags.append(tag.split("_")[0])
    return " ".join(tags) if tags else entry.get("pattern", "?")


def text_format_text(text_format: str) -> str:
    """The card's sentence on the text form the rows were written in."""
    if text_format == "release":
        return (
            "The rows are in the BLM-It release's tokenised form (`--text-format release`): a "
            "space before punctuation and an elided word apart (*L' amica dell' avvocato è "
            "partita .*); numbers measured on them are comparable with the release's."
        )
    return (
        "The rows are natural Italian (the default; `--text-format release` writes the "
        "release's tokenised form, *L' amica dell' avvocato è partita .*). A language model "
        "scores the two forms differently: compare numbers only within one form."
    )


def shortcut_section(rows_by_config: Mapping[str, Sequence[Mapping[str, Any]]]) -> str:
    """Per config, the context-blind baseline's accuracy on its ``test`` rows under both
    protocols (:data:`.shortcut_baseline.PROTOCOLS`), each the mean of
    :data:`.shortcut_baseline.REPEATS` seeded splits."""
    from .shortcut_baseline import REPEATS, context_blind_accuracy

    lines = [
        "| config | items | verbs | random half | no shared verb | chance |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for name, rows in rows_by_config.items():
        verbs = len({row["Verb"] for row in rows})
        if len(rows) < 4 or verbs < 2:
            continue
        half = context_blind_accuracy(list(rows), "random_half")
        apart = context_blind_accuracy(list(rows), "verb_split")
        lines.append(f"| `{name}` | {len(rows):,} | {verbs} | {half:.3f} | {apart:.3f} | 0.125 |")
    lines.append("")
    lines.append(f"(each the mean accuracy over {REPEATS} seeded splits)")
    return "\n".join(lines)


def profile_section(
    rows_by_config: Mapping[str, Sequence[Mapping[str, Any]]], lexicon: Lexicon
) -> str:
    """The rates issue 40 compares with the BLM-It release, measured on the ``test`` rows
    (:mod:`.data_profile`), with the release's ranges."""
    from . import data_profile as profile

    lines = [
        (
            "| config | correct with *da solo* | wrong with a temporal da | modal "
            "| passato remoto | possessive | words / lemmas per 100 (issue 40's lemmas) "
            "| nouns / verbs |"
        ),
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    attractors = []
    for name, rows in rows_by_config.items():
        if CONFIGS[name][0] == "agreement":
            shares = profile.attractor_prepositions(rows)
            attractors.append(
                f"`{name}`: " + ", ".join(f"*{p}* {v:.0%}" for p, v in shares.items())
            )
            continue
        forms = profile.context_form_shares(rows, lexicon)
        enough = sum(len(row["Context"]) for row in rows) >= profile.WINDOW
        words = profile.vocabulary(rows, lexicon) if enough else None
        vocabulary = (
            f"{words['words_per_100']:.0f} / {words['lemmas_per_100']:.0f} "
            f"({profile.release_comparable_lemmas(name, words['lemmas_per_100']):.0f}) "
            f"| {words['nouns']:.0f} / {words['verbs']:.0f}"
            if words
            else f"(under {profile.WINDOW} sentences) | -"
        )
        lines.append(
            f"| `{name}` | {profile.alone_share_of_correct(rows):.0%} "
            f"| {profile.temporal_share_of_wrong(rows):.0%} | {forms['modal']:.0%} "
            f"| {forms['remote']:.0%} | {forms['possessive']:.0%} "
            f"| {vocabulary} |"
        )
    release = profile.RELEASE_RANGES
    lines.append(
        f"| BLM-It release | {release['correct answers with da solo']} | (not measured) "
        f"| {release['context sentences with a modal']} "
        f"| {release['context sentences with a passato remoto']} "
        f"| {release['context sentences with a possessive']} "
        f"| {release['distinct words / lemmas per 100 context sentences']} "
        f"| {release['distinct nouns / verbs in the contexts']} |"
    )
    if attractors:
        lines += [
            "",
            "AgrI attractor phrases by preposition (context sentences; a *di cui* relative "
            "counts as one): " + "; ".join(attractors),
        ]
        lines.append(f"(release: *di* {release['AgrI attractors with di']})")
    return "\n".join(lines)
