"""The kinds of built config a benchmark task can be made of, recognised by their columns: the
one table that the dataset repos' ``eval.yaml``, the harness tasks and the LightEval tasks read
(so that all three agree on which configs are tasks)."""

from __future__ import annotations

from collections.abc import Sequence

#: kind -> the columns a config must have to be one, in the order they are tried
CONFIG_KINDS: dict[str, tuple[str, ...]] = {
    "minimal_pairs": ("good", "bad"),
    "sentence_pairs": ("sentence_good", "sentence_bad"),
    "blm": ("Context", "Answer_set", "Correct_option"),
}


def config_kind(columns: Sequence[str]) -> str | None:
    """The first kind whose columns ``columns`` all has; None for a config of no kind (e.g.
    agreement's ``verbs`` list)."""
    for kind, needed in CONFIG_KINDS.items():
        if all(column in columns for column in needed):
            return kind
    return None
