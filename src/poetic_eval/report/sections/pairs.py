"""The minimal-pair section of a report: accuracy per dataset config, and TSE / EW / MW."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .. import Section, Table

#: where the section's accuracy figure is written, relative to the report folder
ACCURACY_FIGURE = "figures/minimal_pair_accuracy.png"


def pair_accuracy_table(summary: Mapping[str, Any]) -> Table:
    """A row per category of a :func:`~poetic_eval.pairs.pair_preference` summary, then overall."""
    entries = [*summary["by_category"].items(), ("overall", summary)]
    return Table(
        columns=["dataset/config", "n", "accuracy", "95% CI low", "95% CI high", "ties"],
        rows=[
            [name, e["n"], e["accuracy"], e["ci_low"], e["ci_high"], e["ties"]]
            for name, e in entries
        ],
        caption="Share of pairs where the model gives the original (good) text the higher "
        "log-probability (sum over tokens); ties count as wrong; bootstrap 95% interval.",
    )


def verb_agreement_table(results: Sequence[tuple[str, Mapping[str, Any]]]) -> Table:
    """One row per (config, :func:`~poetic_eval.pairs.evaluate_verb_agreement` result)."""
    return Table(
        columns=["config", "n", "TSE", "EW", "MW"],
        rows=[[name, r["n"], r["tse"], r["ew"], r["mw"]] for name, r in results],
        caption="Newman et al. (2021) at the verb slot: TSE for the pair's own verb, EW / MW "
        "over the whole verb list (top cutoff 1.0).",
    )


def pairs_section(
    summary: Mapping[str, Any],
    *,
    model: str,
    text: str,
    verb_results: Sequence[tuple[str, Mapping[str, Any]]] = (),
) -> Section:
    """The section: ``text`` after the model's name, the accuracy table, TSE/EW/MW if given."""
    tables = [pair_accuracy_table(summary)]
    if verb_results:
        tables.append(verb_agreement_table(verb_results))
    return Section(
        title="Minimal pairs",
        text=f"Model: {model}. {text}",
        tables=tables,
        figures=[
            {
                "path": ACCURACY_FIGURE,
                "caption": "Accuracy per dataset config with 95% bootstrap intervals",
            }
        ],
    )
