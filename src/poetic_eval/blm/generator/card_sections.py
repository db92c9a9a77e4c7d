"""Markdown for the BLM dataset card, rendered from built rows: examples and label inventory."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from ...checks import typed_options
from ..records import strip_answer_prefix
from .configs import CONFIGS
from .labels import AGREEMENT_LABELS, AGREEMENT_RULES, ALTERNATION_LABELS, ALTERNATION_RULES

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
    for name, rows in rows_by_config.items():
        task = CONFIGS[name][0]
        family = "agreement" if task == "agreement" else "alternation"
        tally = counts.setdefault(family, Counter())
        for row in rows:
            tally.update(entry["label"] for entry in row["Answer_set_annotation"])
    parts = []
    for family, labels, rules, title in (
        ("agreement", AGREEMENT_LABELS, AGREEMENT_RULES, "AgrI (`agr_*`)"),
        ("alternation", ALTERNATION_LABELS, ALTERNATION_RULES, "CausI and OdI (`caus_*`, `od_*`)"),
    ):
        if family not in counts:
            continue
        found = counts[family]
        table = [f"**{title}**", "", "| label | `test` answers | rule broken |", "|---|---:|---|"]
        ordered = [label for label in labels if label in found]
        ordered += sorted(label for label in found if label not in labels)
        for label in ordered:
            table.append(f"| `{label}` | {found[label]:,} | {rules.get(label, '(unknown)')} |")
        parts.append("\n".join(table))
    return "\n\n".join(parts)


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
    """Per config, the context-blind baseline's accuracy on its ``test`` rows."""
    from .shortcut_baseline import context_blind_accuracy

    lines = ["| config | items | context-blind accuracy | chance |", "|---|---:|---:|---:|"]
    for name, rows in rows_by_config.items():
        if len(rows) < 4:
            continue
        accuracy = context_blind_accuracy(list(rows))
        lines.append(f"| `{name}` | {len(rows):,} | {accuracy:.3f} | 0.125 |")
    return "\n".join(lines)
