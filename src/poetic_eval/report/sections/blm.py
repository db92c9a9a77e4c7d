"""The BLM section of a poetic-eval report: one row per config and method evaluated."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ...blm.answer_labels import CORRECT_LABEL
from ...errors import InvalidValueError
from .. import Section, Table


def method_name(result: Mapping[str, Any]) -> str:
    """How a result's method and settings read in a table: ``prompt (0-shot, en)``,
    ``candidates (sum)``."""
    if result["method"] == "prompt":
        return f"prompt ({result['shots']}-shot, {result['language']})"
    return f"candidates ({result['reduction']})"


def _top_wrong_label(result: Mapping[str, Any]) -> str | None:
    wrong = {k: v for k, v in result["by_label"].items() if k != CORRECT_LABEL and v["count"]}
    if not wrong:
        return None
    label = max(wrong, key=lambda name: wrong[name]["count"])
    return f"{label} ({wrong[label]['share']:.2f})"


def blm_section(results: Sequence[Mapping[str, Any]], *, note: str = "") -> Section:
    """A report :class:`~poetic_eval.report.Section` with a table of BLM results.

    ``results`` are :func:`~poetic_eval.blm.evaluate_blm` results, each with a ``config`` key
    added by the caller (the dataset config or file evaluated). ``note`` is added to the text.
    """
    if not results:
        raise InvalidValueError("results is empty: evaluate at least one config")
    models = sorted({result["model"] for result in results})
    rows = [
        [
            result["config"],
            method_name(result),
            result["n"],
            result["accuracy"],
            result["macro_f1"],
            result.get("ties", 0),  # results saved before ties were counted have none
            _top_wrong_label(result),
        ]
        for result in results
    ]
    table = Table(
        columns=[
            "config",
            "method",
            "n",
            "accuracy",
            "macro-F1",
            "ties",
            "most chosen wrong label (share)",
        ],
        rows=rows,
        caption="Accuracy and macro-F1 over the answer letters A-H (chance: 0.125). prompt: the "
        "letter with the highest log-probability after the prompt; candidates: the answer "
        "sentence with the highest log-probability after the context sentences. ties: items whose "
        "highest log-probability several answers share; they have no answer and count as wrong.",
    )
    text = f"Model: {', '.join(models)}."
    return Section(
        title="Blackbird Language Matrices (BLM-It)",
        text=f"{text} {note}".strip(),
        tables=[table],
    )
