"""What the engine's verbs accept, checked at the door, and what a model may answer.

Each public verb of :class:`~poetic_eval.lm.LanguageModel` calls these first, so that nothing
is scored from garbage: ``zip`` would silently drop the items of a longer list, a string
would be split into one-character items, a float token id would be truncated, and an id past
the model's vocabulary would be read from memory the sliced LM head never fills (a plain
forward raises ``IndexError``). The checks are pure functions of their arguments (and of the
model's embedding sizes); every error names the argument and the row. The last check refuses
scores that are NaN or infinite (a diverged model, corrupted weights), as ``score-pairs``
always did, so every scorer stops instead of ranking NaN.
"""

from __future__ import annotations

import numbers
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ..errors import InvalidTypeError, InvalidValueError
from ..text.poem_inputs import require_encodable

# numpy dtype kinds of a token id: signed and unsigned integers (not "b": a bool, though an
# int subclass in Python, is never an id)
_INTEGER_KINDS = "iu"


def require_list(values: Any, name: str, *, of: str) -> list:
    """``values`` as a list: refuse None, a string (it would be split into characters) and a
    mapping (its keys would be read), naming ``name`` and what it must hold (``of``)."""
    if values is None:
        raise InvalidValueError(f"{name} is required (got None)")
    if isinstance(values, (str, bytes, Mapping)):
        raise InvalidTypeError(f"{name} must be a list of {of}, not a {type(values).__name__}")
    try:
        return list(values)
    except TypeError:
        raise InvalidTypeError(
            f"{name} must be a list of {of}, got {type(values).__name__}"
        ) from None


def require_equal_lengths(**lists: Sequence[Any]) -> None:
    """Refuse lists that are paired row by row but differ in length (``zip`` would drop
    the rows of the longer ones without a word)."""
    lengths = {name: len(values) for name, values in lists.items()}
    if len(set(lengths.values())) > 1:
        shown = ", ".join(f"{name} {length}" for name, length in lengths.items())
        raise InvalidValueError(f"{' and '.join(lengths)} must have the same length, got {shown}")


def vocabulary_rows(lm: Any) -> int | None:
    """How many token ids the model can both read and score: the rows of its input embedding
    and of its LM head (the smaller; None when the model exposes neither)."""
    rows = []
    for getter in ("get_input_embeddings", "get_output_embeddings"):
        try:
            module = getattr(lm.model, getter)()
        except (AttributeError, NotImplementedError):
            continue
        weight = getattr(module, "weight", None)
        if weight is not None and weight.dim() == 2:
            rows.append(int(weight.shape[0]))
    return min(rows) if rows else None


def _token_id(value: Any, where: str) -> int:
    """A Python, numpy or torch integer as an int; anything else (a float, a bool, a string)
    is refused: a float id would be truncated."""
    if isinstance(value, bool) or (
        not isinstance(value, numbers.Integral) and _integer_kind(value) is None
    ):
        raise InvalidTypeError(
            f"{where} must be an integer token id, got {type(value).__name__} {value!r:.40}"
        )
    return int(value)


def _integer_kind(value: Any) -> str | None:
    """The dtype kind of a 0-dimensional numpy or torch integer, else None."""
    dtype = getattr(value, "dtype", None)
    shape = getattr(value, "shape", None)
    if dtype is None or shape is None or tuple(shape) != ():
        return None
    is_floating = getattr(dtype, "is_floating_point", None)  # torch dtypes
    if is_floating is not None:
        return None if is_floating or dtype.is_complex or str(dtype) == "torch.bool" else "i"
    kind = getattr(dtype, "kind", None)
    return kind if kind in _INTEGER_KINDS else None


def _as_ids(sequence: Any, where: str) -> list[int]:
    if hasattr(sequence, "tolist") and getattr(sequence, "ndim", 1) == 1:
        sequence = sequence.tolist()  # a 1-D numpy array or tensor: its ids as Python numbers
    ids = require_list(sequence, where, of="token ids")
    if set(map(type, ids)) <= {int}:
        return ids  # the common case, checked in C
    return [_token_id(value, f"{where}[{position}]") for position, value in enumerate(ids)]


def checked_token_sequences(lm: Any, sequences: Any, name: str = "sequences") -> list[list[int]]:
    """``sequences`` as lists of int token ids, each non-empty and inside the model's
    vocabulary (:func:`check_vocabulary`)."""
    sequences = require_list(sequences, name, of="token-id sequences")
    checked = [_as_ids(sequence, f"{name}[{row}]") for row, sequence in enumerate(sequences)]
    for row, ids in enumerate(checked):
        if not ids:
            raise InvalidValueError(
                f"{name}[{row}] is empty: a sequence needs at least its start token"
            )
    check_vocabulary(lm, checked, name)
    return checked


def check_vocabulary(
    lm: Any,
    sequences: Sequence[Sequence[int]],
    name: str,
    *,
    labels: Sequence[str] | None = None,
) -> None:
    """Refuse a token id outside ``0 .. vocabulary_rows(lm) - 1``, naming the row (``name[row]``,
    or ``labels[row]``), the position and the id (a tokenizer with added tokens the model was
    not resized for gives such ids)."""
    rows = vocabulary_rows(lm)
    if rows is None:
        return
    for row, ids in enumerate(sequences):
        if ids and (min(ids) < 0 or max(ids) >= rows):
            position, value = next((i, v) for i, v in enumerate(ids) if not 0 <= v < rows)
            where = labels[row] if labels is not None else f"{name}[{row}]"
            raise InvalidValueError(
                f"{where} holds token id {value} (position {position}), outside "
                f"{lm.name}'s vocabulary of {rows} ids (0 to {rows - 1}); a token added to "
                "the tokenizer needs model.resize_token_embeddings"
            )


def check_choice_vocabulary(lm: Any, items: Sequence[Any]) -> None:
    """:func:`check_vocabulary` for encoded multiple-choice items (the start token and prefix,
    and each continuation), naming the item's ID."""
    for item in items:
        labels = [f"item {item.item_id!r}: the prefix"] + [
            f"item {item.item_id!r}: continuation {index}"
            for index in range(len(item.continuations))
        ]
        check_vocabulary(lm, [item.prefix, *item.continuations], "", labels=labels)


def check_choice_inputs(prefixes: Any, continuations: Any, item_ids: Any = None) -> None:
    """Multiple-choice items: ``prefixes`` a list of strings (an empty one is allowed: the
    start token is the context), ``continuations`` one non-empty list of non-empty strings
    per prefix, ``item_ids`` (when given) one per prefix."""
    prefixes = require_list(prefixes, "prefixes", of="strings")
    continuations = require_list(continuations, "continuations", of="lists of strings")
    lists = {"prefixes": prefixes, "continuations": continuations}
    if item_ids is not None:
        lists["item_ids"] = require_list(item_ids, "item_ids", of="item IDs")
    require_equal_lengths(**lists)
    for row, prefix in enumerate(prefixes):
        if not isinstance(prefix, str):
            raise InvalidTypeError(f"prefixes[{row}] must be a string, got {type(prefix).__name__}")
        require_encodable(prefix, f"prefixes[{row}]")
    for row, texts in enumerate(continuations):
        texts = require_list(texts, f"continuations[{row}]", of="strings")
        if not texts:
            raise InvalidValueError(
                f"continuations[{row}] is empty: an item needs at least one choice"
            )
        for index, text in enumerate(texts):
            where = f"continuations[{row}][{index}]"
            if not isinstance(text, str):
                raise InvalidTypeError(f"{where} must be a string, got {type(text).__name__}")
            if not text:
                raise InvalidValueError(
                    f"{where} is empty: a continuation needs at least one token"
                )
            require_encodable(text, where)


def checked_slot_rows(lm: Any, rows: Any) -> list[list[int]]:
    """Slot rows as lists of int ids: each non-empty, inside the vocabulary and, for a masked
    LM, holding exactly one mask token (the slot; without one, position 0 would be read)."""
    rows = checked_token_sequences(lm, rows, "rows")
    if lm.kind == "masked":
        mask = lm.tokenizer.mask_token_id
        for row, ids in enumerate(rows):
            if ids.count(mask) != 1:
                raise InvalidValueError(
                    f"rows[{row}] holds {ids.count(mask)} mask tokens (id {mask}); a masked LM's "
                    "slot row holds exactly one"
                )
    return rows


def non_finite_rows(values: Any) -> np.ndarray:
    """Indices of the NaN or infinite values of a 1-D array of scores."""
    return np.nonzero(~np.isfinite(np.asarray(values, dtype=np.float64)))[0]


def require_finite_scores(lm: Any, scores: np.ndarray, name: str) -> np.ndarray:
    """``scores`` (one per row of ``name``) when all are finite; else a ValueError naming the
    model, how many rows and the first, as ``score-pairs`` refuses them: such a model's
    weights are corrupted or it diverged, and ranking NaN would report noise."""
    bad = non_finite_rows(scores)
    if bad.size:
        first = int(bad[0])
        raise InvalidValueError(
            f"the model {lm.name} gave NaN or infinite scores for {bad.size} of {len(scores)} "
            f"{name} (first: {name}[{first}]: {scores[first]}); its weights may be corrupted "
            "or it diverged"
        )
    return scores


def require_finite_choice_scores(
    lm: Any, scores: list[np.ndarray], item_ids: Sequence[Any]
) -> list[np.ndarray]:
    """:func:`require_finite_scores` for the per-item arrays of multiple-choice scoring; the
    error names the first item's ID."""
    flat = np.concatenate(scores) if scores else np.zeros(0)
    bad = non_finite_rows(flat)
    if bad.size:
        item = int(np.searchsorted(np.cumsum([len(s) for s in scores]), bad[0], side="right"))
        raise InvalidValueError(
            f"the model {lm.name} gave NaN or infinite scores for {bad.size} of {flat.size} "
            f"continuations (first: item {item_ids[item]!r}: {scores[item].tolist()}); its "
            "weights may be corrupted or it diverged"
        )
    return scores
