"""Plain-text tables for ``poetic-eval analyze``."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from ..text.safe_output import printable

_PER_LINE = ("syllables_per_line", "stress_per_line")
_LINE_WIDTH = 60


def format_value(value: Any) -> str:
    """A compact one-line rendering of an analyzer value."""
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.4f}"
    if isinstance(value, list):
        return " ".join(format_value(item) for item in value)
    if isinstance(value, Mapping):
        return "  ".join(f"{key} {format_value(item)}" for key, item in value.items())
    return str(value)


def _rows(rows: list[list[str]]) -> None:
    rows = [[printable(cell) for cell in row] for row in rows]  # poem lines, topics: data
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    for row in rows:
        print("  " + "  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip())


def _expected(spec: Mapping[str, Any]) -> str:
    text = json.dumps(spec, separators=(",", ":"))
    return text if len(text) <= 48 else text[:45] + "..."


def print_poem(record: Mapping[str, Any]) -> None:
    """Summary values, the per-line table, and the form checks of one poem."""
    analysis, text = record["analysis"], record["text"]
    print(f"== {printable(record['name'])}")
    summary = [
        [name, format_value(value)] for name, value in analysis.items() if name not in _PER_LINE
    ]
    if summary:
        _rows(summary)
    _print_lines(analysis, text)
    form = record.get("form")
    if form is not None:
        print(f"  form {form.form or 'expectations'}: {'PASS' if form.passed else 'FAIL'}")
        rows = [["check", "value", "expected", "pass", "score"]]
        for name, check in form.checks.items():
            score = "-" if check.score is None else f"{check.score_name} {check.score:.3f}"
            value = format_value(check.value)
            value = value if len(value) <= 30 else value[:27] + "..."
            rows.append(
                [name, value, _expected(check.expected), "yes" if check.passed else "no", score]
            )
        _rows(rows)
    print()


def _print_lines(analysis: Mapping[str, Any], text: str) -> None:
    from ..text import lines

    columns = [name for name in _PER_LINE if isinstance(analysis.get(name), list)]
    scheme = analysis.get("rhyme_scheme")
    if not columns and not isinstance(scheme, str):
        return
    header = ["#", *("syl" if c == "syllables_per_line" else "stress" for c in columns)]
    header += ["rhyme"] if isinstance(scheme, str) else []
    rows = [header + ["line"]]
    for number, line in enumerate(lines(text)):
        row = [str(number + 1)] + [str(analysis[c][number]) for c in columns]
        row += [scheme[number]] if isinstance(scheme, str) else []
        shown = line if len(line) <= _LINE_WIDTH else line[: _LINE_WIDTH - 3] + "..."
        rows.append(row + [shown])
    _rows(rows)


def print_collection(values: Mapping[str, Any], count: int) -> None:
    """Inter-poem novelty, topicality and the collection type/token ratio."""
    print(f"== collection: {count} poems")
    novelty = values.get("inter_novelty")
    if novelty is not None:
        how = "sampled" if novelty["sampled"] else "all"
        print(f"inter_novelty ({novelty['pairs']} ordered pairs of poems, {how})")
        ways = [way for way, scores in novelty.items() if isinstance(scores, Mapping)]
        types = list(novelty[ways[0]])
        rows = [["way", *types]]
        rows += [[way, *(f"{novelty[way][t]:.4f}" for t in types)] for way in ways]
        _rows(rows)
    if "topicality" in values:
        _print_topicality(values["topicality"])
    if values.get("collection_type_token_ratio") is not None:
        print(f"collection_type_token_ratio  {values['collection_type_token_ratio']:.4f}")
    print()


def _print_topicality(topics: Mapping[str, Any] | None) -> None:
    if topics is None:
        print(
            "topicality: skipped (no topics: use --topics, or the Erato layout with "
            "topic<k>.txt beside poems<k>/)"
        )
        return
    print(f"topicality: macro-F1 {topics['macro_f1']:.4f}, accuracy {topics['accuracy']:.4f}")
    rows = [["topic", "precision", "recall", "f1", "support", "predicted"]]
    for topic, scores in topics["per_topic"].items():
        rows.append(
            [
                topic,
                f"{scores['precision']:.3f}",
                f"{scores['recall']:.3f}",
                f"{scores['f1']:.3f}",
                str(scores["support"]),
                str(scores["predicted"]),
            ]
        )
    _rows(rows)
