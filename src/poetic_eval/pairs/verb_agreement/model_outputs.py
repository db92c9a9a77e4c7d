"""Model outputs as the verb-slot metrics need them: CPU matrices, integer vectors, labels.

Logits come as numpy arrays, torch tensors on any device or nested lists; each converter checks
shape and values and names the argument and the row in its errors.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np
import torch

from ...agreement.agreement_pairs import as_tse_label
from ...checks import require_values_on_device
from ...errors import InvalidTypeError, InvalidValueError


def as_cpu_matrix(values: Any, name: str) -> torch.Tensor:
    require_values_on_device(values, name)
    if isinstance(values, torch.Tensor):
        matrix = values.detach().to("cpu")
        if matrix.dtype not in (torch.float16, torch.bfloat16, torch.float32, torch.float64):
            matrix = matrix.to(torch.float32)
    else:
        try:
            # a float64 array stays float64; anything else becomes float32, the precision models
            # emit, at half the memory of float64 for vocabulary-wide rows
            array = np.asarray(values, dtype=np.float64 if _is_float64(values) else np.float32)
        except (TypeError, ValueError) as error:
            raise InvalidTypeError(
                f"{name} must be a (examples, vocab) array of floats: {error}"
            ) from None
        matrix = torch.from_numpy(array)
    if matrix.ndim != 2:
        raise InvalidValueError(
            f"{name} must have shape (examples, vocab), got shape {tuple(matrix.shape)}"
        )
    # the singular and the plural form need two distinct ids in the vocabulary
    if matrix.shape[0] and matrix.shape[1] < 2:
        raise InvalidValueError(
            f"{name} needs at least 2 vocabulary entries, got {matrix.shape[1]}"
        )
    # -inf is a valid log-probability (a token ruled out, e.g. by a logits processor); NaN and
    # +inf are not, and a row that is -inf everywhere is refused next
    finite = torch.isfinite(matrix.to(torch.float32)) | (matrix == -torch.inf)
    if not bool(finite.all()):
        row = int((~finite).any(1).nonzero()[0, 0])
        raise InvalidValueError(f"{name}[{row}] contains NaN or +inf")
    empty = (matrix == -torch.inf).all(1) if matrix.shape[1] else torch.zeros(0, dtype=torch.bool)
    if bool(empty.any()):
        row = int(empty.nonzero()[0, 0])
        raise InvalidValueError(
            f"{name}[{row}] is -inf everywhere: it gives no probability distribution (all "
            f"{int(empty.sum())} such rows must be dropped or fixed first)"
        )
    return matrix


def _is_float64(values: Any) -> bool:
    return isinstance(values, np.ndarray) and values.dtype == np.float64


def whole_numbers(values: Any, name: str) -> np.ndarray:
    """``values`` (a list, array or tensor) as int64, refusing what is not a whole number
    (2.7, NaN) rather than truncating it; the error names the first offending item."""
    require_values_on_device(values, name)
    if isinstance(values, torch.Tensor):
        values = values.detach().to("cpu").numpy()
    try:
        array = np.asarray(values)
    except ValueError as error:
        raise InvalidValueError(f"{name} must be integers: {error}") from None
    if array.size and np.issubdtype(array.dtype, np.floating):
        fractional = ~np.isfinite(array) | (array != np.round(array))
        if fractional.any():
            where = tuple(int(i) for i in np.argwhere(fractional)[0])
            raise InvalidTypeError(
                f"{name}{list(where)} = {array[where].item()!r} is not a whole number; ids and "
                "labels must be integers (refused rather than truncated)"
            )
    elif array.size and not np.issubdtype(array.dtype, np.integer):
        raise InvalidTypeError(f"{name} must hold integers, got dtype {array.dtype}")
    return array.astype(np.int64)


def as_int_vector(values: Any, name: str, length: int | None) -> np.ndarray:
    array = whole_numbers(values, name)
    if array.ndim != 1:
        raise InvalidValueError(
            f"{name} must be a flat sequence of integers, got shape {array.shape}"
        )
    if length is not None and array.shape[0] != length:
        raise InvalidValueError(f"{name} has {array.shape[0]} items for {length} examples")
    return array


def tse_labels(labels: Any) -> np.ndarray:
    require_values_on_device(labels, "labels")
    if isinstance(labels, torch.Tensor):
        labels = labels.detach().to("cpu").numpy()
    values = labels.tolist() if isinstance(labels, np.ndarray) else list(labels)
    return np.asarray(
        [as_tse_label(label, f"labels[{row}]") for row, label in enumerate(values)], dtype=np.int64
    )


def verb_id_matrix(verb_token_ids: Any, vocab: int) -> np.ndarray:
    ids = whole_numbers(verb_token_ids, "verb_token_ids")
    if ids.ndim != 2 or ids.shape[1] != 2 or ids.shape[0] == 0:
        raise InvalidValueError(
            f"verb_token_ids must have shape (lemmas, 2) = [singular id, plural id] per lemma, "
            f"got shape {ids.shape}"
        )
    bad = np.flatnonzero(((ids < 0) | (ids >= vocab)).any(1))
    if bad.size:
        raise InvalidValueError(
            f"verb_token_ids[{bad[0]}] = {ids[bad[0]].tolist()} is outside 0..{vocab - 1}"
        )
    same = np.flatnonzero(ids[:, 0] == ids[:, 1])
    if same.size:
        raise InvalidValueError(
            f"verb_token_ids[{same[0]}]: singular and plural are the same token"
        )
    return ids


def check_cutoffs(cutoffs: Iterable[float], name: str) -> np.ndarray:
    values = list(cutoffs)
    if not values:
        raise InvalidValueError(f"{name} must list at least one cutoff")
    for value in values:
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value <= 1:
            raise InvalidValueError(f"{name} must hold numbers in (0, 1], got {value!r}")
    return np.asarray(values, dtype=np.float64)
