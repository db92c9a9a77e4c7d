"""Evaluate a causal LM on BLM items, by prompting for a letter or by scoring the candidates.

Two methods (the BLM-It challenge's prompting baseline, and the LM-likelihood reading of the
task):

- ``"prompt"``: the model reads a zero- or one-shot prompt (:func:`~.prompts.blm_prompt`, English
  or Italian) and its answer is the letter A-H with the highest log-probability as the next
  token(s) after the prompt (the letters are scored as ``"A"`` .. ``"H"`` after the prompt's
  final newline).
- ``"candidates"``: its answer is the candidate sentence with the highest log-probability after
  the context sentences read as running text (:func:`~.prompts.running_context`), summed over the
  candidate's tokens (``reduction="sum"``, default) or averaged per token (``"mean"``).

In both, the 8 continuations share the prompt or context, which is computed once
(:meth:`poetic_eval.lm.LanguageModel.score_choices`), and a beginning common to several
items once for all of them. An item whose highest score is shared by several answers (identical
candidates, a model that cannot tell them apart) has no answer: it counts as wrong and is
counted in ``ties``, as :func:`poetic_eval.pairs.pair_preference` counts a pair whose two scores
are equal (taking the earliest letter would credit a model for the order of the options).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np
from tqdm.auto import tqdm

from ...checks import require_choice, typed_options, unknown_name_message
from ...errors import InvalidValueError
from ...lm import REDUCTIONS, LanguageModel, load_language_model
from ...lm.distributed import in_shards
from ..answer_labels import LETTERS, answer_labels, as_items
from ..records import BlmItem, validate_blm_record
from .prompts import blm_prompt, candidate_continuations, require_language, running_context
from .results import blm_results

METHODS = ("prompt", "candidates")


def _check_options(method: str, language: str, example: Any, reduction: str) -> None:
    require_choice(method, METHODS, "BLM method")
    require_language(language)
    require_choice(reduction, REDUCTIONS, "reduction")
    if method == "candidates" and example is not None:
        raise InvalidValueError(
            "a one-shot example applies to the prompt method, not to 'candidates'"
        )
    if method == "prompt" and reduction != "sum":
        raise InvalidValueError(
            "reduction applies to the candidates method; the prompt method scores letters"
        )


def _checked(
    items: Iterable[BlmItem | Mapping[str, Any]],
    model: Any,
    method: str,
    language: str,
    example: BlmItem | Mapping[str, Any] | None,
    reduction: str,
) -> tuple[list[BlmItem], LanguageModel, BlmItem | None]:
    """The options checked (before a model is loaded), the items and example validated, the
    model loaded."""
    _check_options(method, language, example, reduction)
    items = as_items(items)
    if not items:
        raise InvalidValueError("items is empty: at least one BLM item is needed")
    lm = load_language_model(model)
    if example is not None:
        example = example if isinstance(example, BlmItem) else validate_blm_record(example)
        if example in items:
            raise InvalidValueError(
                f"the one-shot example (ID {example.id!r}) is also an evaluated item"
            )
    return items, lm, example


def prefixes_and_continuations(
    items: Sequence[BlmItem], method: str, language: str = "en", example: BlmItem | None = None
) -> tuple[list[str], list[list[str]]]:
    """What ``method`` scores for each item: its prefix (the prompt, or the running context) and
    its 8 continuations (the letters, or the candidate sentences)."""
    if method == "prompt":
        prefixes = [blm_prompt(item, language, example) for item in items]
        return prefixes, [list(LETTERS)] * len(items)
    if method == "candidates":
        return [running_context(item) for item in items], [
            candidate_continuations(item) for item in items
        ]
    raise InvalidValueError(unknown_name_message(method, METHODS, "BLM method"))


def _scores(
    items: list[BlmItem],
    lm: LanguageModel,
    *,
    method: str,
    language: str,
    example: BlmItem | None,
    reduction: str,
    batch_size: int,
    share_prefixes: bool,
    show_progress: bool,
) -> np.ndarray:
    """:func:`choice_scores` of checked items under a loaded model."""
    prefixes, continuations = prefixes_and_continuations(items, method, language, example)
    if method == "candidates":
        what = "context"
    else:
        what = "one-shot prompt" if example is not None else "zero-shot prompt"

    def progress(batches):
        return tqdm(batches, desc=f"BLM ({method})", unit="batch", disable=not show_progress)

    ids = [item.id for item in items]

    def shard(start: int, end: int) -> list[np.ndarray]:
        return lm.score_choices(
            prefixes[start:end],
            continuations[start:end],
            reduction,
            item_ids=ids[start:end],
            what=what,
            batch_size=batch_size,
            share_prefixes=share_prefixes,
            progress=progress,
        )

    # under torchrun each process scores a contiguous shard of the items (all get all scores)
    return np.vstack(in_shards(len(items), shard, lm.device))


@typed_options
def choice_scores(
    items: Iterable[BlmItem | Mapping[str, Any]],
    model: Any = None,
    *,
    method: str = "prompt",
    language: str = "en",
    example: BlmItem | Mapping[str, Any] | None = None,
    reduction: str = "sum",
    batch_size: int | None = None,
    share_prefixes: bool = True,
    show_progress: bool = True,
) -> np.ndarray:
    """Log-probability (nats) of each item's 8 answers under ``method``: an (items, 8) array.

    Args:
        items: BLM records (release format; a list, or a ``datasets.Dataset`` of our configs) or
            :class:`~poetic_eval.blm.records.BlmItem` objects.
        model: None (the default SmolLM2 model), a name or path, a ``(model, tokenizer)`` pair
            or a :class:`~poetic_eval.lm.LanguageModel`; a causal LM.
        method: ``"prompt"`` (log-prob of each letter after the prompt) or ``"candidates"``
            (log-prob of each candidate sentence after the running context).
        language: prompt language, ``"en"`` or ``"it"`` (prompt method).
        example: a solved item shown before each question: a one-shot prompt (prompt method).
        reduction: candidates method: ``"sum"`` over the candidate's tokens or ``"mean"``.
        batch_size: a cap on packed prefix trees per forward pass (default: the model's
            token budget decides).
        share_prefixes: compute each prompt/context once (False: every text alone, same scores).
        show_progress: a progress bar over forward passes.

    Raises:
        ValueError: a bad record (named by its ID), an unknown method, language or reduction, a
            masked LM, or an item whose prompt does not fit the model's context (named by ID).
    """
    items, lm, example = _checked(items, model, method, language, example, reduction)
    return _scores(
        items,
        lm,
        method=method,
        language=language,
        example=example,
        reduction=reduction,
        batch_size=batch_size,
        share_prefixes=share_prefixes,
        show_progress=show_progress,
    )


def chosen_letters(scores: np.ndarray) -> list[str | None]:
    """The letter of each row's highest score; None where several answers share it (exactly:
    the scores of identical texts are identical floats)."""
    best = scores.max(axis=1, keepdims=True)
    tied = (scores == best).sum(axis=1) > 1
    return [None if tie else LETTERS[index] for tie, index in zip(tied, np.argmax(scores, axis=1))]


@typed_options
def evaluate_blm(
    items: Iterable[BlmItem | Mapping[str, Any]],
    model: Any = None,
    *,
    method: str = "prompt",
    language: str = "en",
    example: BlmItem | Mapping[str, Any] | None = None,
    reduction: str = "sum",
    batch_size: int | None = None,
    show_progress: bool = True,
) -> dict[str, Any]:
    """Choose an answer for every item and score the choices (:func:`~.results.blm_results`).

    Arguments as :func:`choice_scores`. Returns ``accuracy``, ``macro_f1``, ``n``, ``ties``
    (items whose highest score several answers share: no answer, counted wrong),
    ``f1_by_letter``, ``by_label`` (how often each label was chosen: ``Correct`` or the rule the
    chosen distractor breaks, with every label of the items listed) and ``predictions``: one
    ``{"ID", "predicted", "correct", "label"}`` per item (``correct`` is the gold letter,
    ``label`` the label of the predicted answer; both None for a tie), plus the settings used
    (``method``, ``shots``, ``language`` or ``reduction``, ``model``).
    """
    items, lm, example = _checked(items, model, method, language, example, reduction)
    scores = _scores(
        items,
        lm,
        method=method,
        language=language,
        example=example,
        reduction=reduction,
        batch_size=batch_size,
        share_prefixes=True,
        show_progress=show_progress,
    )
    chosen = chosen_letters(scores)
    item_labels = [answer_labels(item) for item in items]
    labels = [
        None if letter is None else options[LETTERS.index(letter)]
        for options, letter in zip(item_labels, chosen)
    ]
    result = blm_results(
        chosen,
        [item.correct_option for item in items],
        labels,
        label_inventory=sorted({label for options in item_labels for label in options}),
    )
    settings: dict[str, Any] = {"method": method, "model": lm.name}
    if method == "prompt":
        settings.update(shots=0 if example is None else 1, language=language)
    else:
        settings["reduction"] = reduction
    result["predictions"] = [
        {"ID": item.id, "predicted": letter, "correct": item.correct_option, "label": label}
        for item, letter, label in zip(items, chosen, labels)
    ]
    return {**settings, **result}
