"""The options of :class:`~poetic_eval.integrations.PoeticDiversityCallback`, in two groups: what
to sample each time (:class:`PoemSampling`) and which minimal pairs to score
(:class:`PairScoring`), each checked when it is made. The callback also takes them as the
keywords it always took (``num_poems=``, ``pairs=`` ...): :func:`grouped_options` sorts those
into the groups, so that both spellings are checked the same way.

The checks that need the model (generation options, pairs that fit its context) and the
diversity options (checked by a dry run of each dimension on a few tiny poems) are done by the
callback when it is built, so that a bad value fails there and not at the first logging step.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..checks import require_positive_int, suggestion, typed_options
from ..errors import InvalidTypeError, InvalidValueError
from ..pairs import pair_columns
from ..text import require_texts


@dataclass(frozen=True)
class PoemSampling:
    """What the callback samples at each evaluation.

    Attributes:
        num_poems: poems sampled per evaluation.
        generation_kwargs: ``model.generate`` options over
            :data:`~poetic_eval.integrations.poem_generation.DEFAULT_GENERATION_KWARGS`,
            checked against the model when the callback is built (a misspelt option is named,
            with the closest valid one; a value ``generate`` would refuse is named too).
        seed: sampling seed; the same at every evaluation, so that differences between
            evaluations come from the model, not from the draw.
        batch_size: poems per ``generate`` call.
        include_prompt: a poem is its prompt plus the generated text (default: the text only).
    """

    num_poems: int = 100
    generation_kwargs: Mapping[str, Any] = field(default_factory=dict)
    seed: int = 0
    batch_size: int = 8
    include_prompt: bool = False

    @typed_options
    def __init__(
        self,
        num_poems: int = 100,
        generation_kwargs: Mapping[str, Any] | None = None,
        seed: int = 0,
        batch_size: int = 8,
        include_prompt: bool = False,
    ) -> None:
        if generation_kwargs is not None and not isinstance(generation_kwargs, Mapping):
            raise InvalidTypeError(
                f"generation_kwargs must be a dict, got {type(generation_kwargs).__name__}"
            )
        values = {
            "num_poems": require_positive_int(num_poems, "num_poems"),
            "generation_kwargs": dict(generation_kwargs or {}),
            "seed": int(seed),
            "batch_size": require_positive_int(batch_size, "generation_batch_size"),
            "include_prompt": bool(include_prompt),
        }
        # the dataclass is frozen: its own __init__ sets the checked values this way
        for name, value in values.items():
            object.__setattr__(self, name, value)


@dataclass(frozen=True)
class PairScoring:
    """Which minimal pairs the callback scores at each evaluation (none by default).

    Attributes:
        pairs: ``(good, bad)`` lists, a ``datasets.Dataset`` with ``good``/``bad`` or
            ``sentence_good``/``sentence_bad`` columns, or a dataset folder or hub name loaded
            with ``config`` and ``split``; the texts are checked, and tokenized once when the
            callback is built (a pair longer than the model's context is named there).
        config: the dataset config, for a folder or hub name.
        split: the split, for a folder or hub name.
        limit: score only the first N pairs.
        batch_size: packed prefix trees per forward pass when scoring.
    """

    pairs: Any = None
    config: str | None = None
    split: str = "test"
    limit: int | None = None
    batch_size: int = 4

    @typed_options
    def __init__(
        self,
        pairs: Any = None,
        config: str | None = None,
        split: str = "test",
        limit: int | None = None,
        batch_size: int = 4,
    ) -> None:
        values = {
            "pairs": load_pairs(pairs, config, split, limit),  # (good, bad) lists, or None
            "config": config,
            "split": split,
            "limit": None if limit is None else require_positive_int(limit, "pairs_limit"),
            "batch_size": require_positive_int(batch_size, "pairs_batch_size"),
        }
        for name, value in values.items():
            object.__setattr__(self, name, value)


#: the callback's keywords of before the groups -> (group, field)
KEYWORDS = {
    "num_poems": ("sampling", "num_poems"),
    "generation_kwargs": ("sampling", "generation_kwargs"),
    "seed": ("sampling", "seed"),
    "generation_batch_size": ("sampling", "batch_size"),
    "include_prompt": ("sampling", "include_prompt"),
    "pairs": ("scoring", "pairs"),
    "pairs_config": ("scoring", "config"),
    "pairs_split": ("scoring", "split"),
    "pairs_limit": ("scoring", "limit"),
    "pairs_batch_size": ("scoring", "batch_size"),
}
#: keywords the callback takes besides the groups' (the keys it logs under)
LOG_KEYWORDS = {"prefix": "poetic/", "eval_prefix": "eval_poetic/"}


def grouped_options(
    sampling: PoemSampling | None, scoring: PairScoring | None, keywords: Mapping[str, Any]
) -> tuple[PoemSampling, PairScoring, dict[str, str]]:
    """The two groups and the log prefixes, from the groups given and the keywords (an unknown
    keyword is named with the closest known one; a group given both ways is refused)."""
    known = [*KEYWORDS, *LOG_KEYWORDS]
    by_group: dict[str, dict[str, Any]] = {"sampling": {}, "scoring": {}}
    prefixes = dict(LOG_KEYWORDS)
    for name, value in keywords.items():
        if name in LOG_KEYWORDS:
            if not isinstance(value, str):
                raise InvalidTypeError(f"{name} must be a string, got {type(value).__name__}")
            prefixes[name] = value
        elif name in KEYWORDS:
            group, attribute = KEYWORDS[name]
            by_group[group][attribute] = value
        else:
            raise InvalidTypeError(
                f"PoeticDiversityCallback got an unexpected keyword argument {name!r}; "
                + suggestion(name, known)
            )
    for group, given, kind in (
        ("sampling", sampling, PoemSampling),
        ("scoring", scoring, PairScoring),
    ):
        if given is not None and by_group[group]:
            names = ", ".join(n for n, (g, _) in KEYWORDS.items() if g == group and n in keywords)
            raise InvalidValueError(f"{group}= was given, and {names} too: give one or the other")
        if given is not None and not isinstance(given, kind):
            raise InvalidTypeError(f"{group} must be a {kind.__name__}, got {type(given).__name__}")
    sampling = sampling or PoemSampling(**by_group["sampling"])
    scoring = scoring or PairScoring(**by_group["scoring"])
    return sampling, scoring, prefixes


def load_pairs(pairs: Any, config: str | None, split: str, limit: int | None):
    """``(good, bad)`` lists from lists, a ``datasets.Dataset`` or a dataset folder/hub name."""
    if pairs is None:
        return None
    if isinstance(pairs, str):
        import datasets

        pairs = datasets.load_dataset(pairs, config, split=split)
    if hasattr(pairs, "column_names"):
        good_column, bad_column = pair_columns(pairs.column_names)
        pairs = (pairs[good_column], pairs[bad_column])
    if not (isinstance(pairs, tuple) and len(pairs) == 2):
        raise InvalidTypeError(
            "pairs must be (good, bad) lists, a datasets.Dataset or a dataset folder or hub name"
        )
    good, bad = require_texts(pairs[0], "pairs good"), require_texts(pairs[1], "pairs bad")
    if len(good) != len(bad):
        raise InvalidValueError(f"pairs: {len(good)} good texts but {len(bad)} bad ones")
    if limit is not None:
        require_positive_int(limit, "pairs_limit")
        good, bad = good[:limit], bad[:limit]
    return list(good), list(bad)
