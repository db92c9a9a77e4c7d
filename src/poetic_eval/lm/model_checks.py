"""One-off checks of what a loaded model supports, remembered per model, dtype and device.

A check runs the first time it is asked about a model and its answer is kept for as long as
the model object lives (a weak reference: a new model at a reused address is checked anew).
:func:`split_head` is the check the scorers share: can the LM head run apart from the body?
"""

from __future__ import annotations

import warnings
import weakref
from collections.abc import Callable
from typing import Any, TypeVar

import torch

from .placement import input_device

Verdict = TypeVar("Verdict")

_VERDICTS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_PROBE_LENGTH = 8


def checked(model: torch.nn.Module, check: str, run: Callable[[], Verdict]) -> Verdict:
    """The answer of ``run()`` for ``model`` under the name ``check``, computed once per
    (model object, dtype, device)."""
    parameter = next(model.parameters(), None)
    key = (check, None if parameter is None else (parameter.dtype, str(parameter.device)))
    answers = _VERDICTS.setdefault(model, {})
    if key not in answers:
        answers[key] = run()
    return answers[key]


def checked_or_warn(
    model: torch.nn.Module, name: str, check: str, run: Callable[[], bool], fallback: str
) -> bool:
    """:func:`checked`, with a warning ``"<name>: <fallback>"`` (at the caller's caller) when
    the check fails: the engine then takes a slower path that gives the same numbers."""
    works = checked(model, check, run)
    if not works:
        warnings.warn(f"{name}: {fallback}", stacklevel=4)
    return works


def probe_ids(model: torch.nn.Module, length: int = _PROBE_LENGTH) -> torch.Tensor:
    """A (1, length) batch of ordinary token ids inside the model's vocabulary."""
    vocabulary = model.get_input_embeddings().num_embeddings
    device = input_device(model)  # a dispatched model's first weight may sit on "meta"
    return ((1000 + 37 * torch.arange(length, device=device)) % vocabulary)[None]


def split_head(model: torch.nn.Module) -> tuple[torch.nn.Module, torch.nn.Module] | None:
    """(body, head) of an LM whose head is one position-wise module after its base model,
    verified once on a probe against the model's own logits; None otherwise.

    Running the head only at the positions whose log-probabilities are needed (a masked
    position, the parents in a prefix tree) saves most of its cost on large vocabularies.
    """
    return checked(model, "split_head", lambda: _probe_split(model))


def _probe_split(model: torch.nn.Module) -> tuple[torch.nn.Module, torch.nn.Module] | None:
    body = getattr(model, "base_model", None)
    others = [child for child in model.children() if child is not body]
    if body is None or body is model or len(others) != 1:
        return None
    head = others[0]
    try:
        probe = probe_ids(model)
        with torch.inference_mode():
            expected = model(input_ids=probe).logits[0]
            found = head(body(input_ids=probe).last_hidden_state[0])
    except (AttributeError, TypeError, RuntimeError, ValueError):
        return None
    if found.shape != expected.shape:
        return None
    if not torch.allclose(found.float(), expected.float(), atol=1e-3, rtol=1e-3):
        return None
    return body, head


__all__: list[Any] = ["checked", "probe_ids", "split_head"]
